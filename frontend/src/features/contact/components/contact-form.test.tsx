import { contactFormSchema } from '@ppr/contracts';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../components/layout/toaster';
import { ContactForm, simulateSend } from './contact-form';

function renderForm(sendMessage?: () => Promise<void>) {
  return render(
    <>
      <ContactForm {...(sendMessage ? { sendMessage } : {})} />
      <Toaster />
    </>,
  );
}

const valid = {
  name: 'Jane Doe',
  email: 'jane@example.com',
  phone: '(703) 555-0100',
  subject: 'Slow laptop',
  message: 'My laptop takes ten minutes to boot.',
};

function fill(values: Partial<typeof valid>) {
  const labels: Record<keyof typeof valid, RegExp> = {
    name: /^Name/,
    email: /^Email/,
    phone: /^Phone/,
    subject: /^Subject/,
    message: /^Message/,
  };
  for (const [field, value] of Object.entries(values) as [keyof typeof valid, string][]) {
    fireEvent.change(screen.getByLabelText(labels[field]), { target: { value } });
  }
}

const submit = () => userEvent.click(screen.getByRole('button', { name: 'Send Message' }));

afterEach(() => {
  vi.useRealTimers();
});

describe('ContactForm validation', () => {
  it('shows the schema message of every field on an empty submit and focuses the first invalid field', async () => {
    renderForm();
    await submit();
    for (const message of [
      'Name is required',
      'Invalid email address',
      'Please enter a valid phone number',
      'Subject is required',
      'Message must be at least 10 characters',
    ]) {
      expect(screen.getByText(message)).toBeInTheDocument();
    }
    expect(screen.getByLabelText(/^Name/)).toHaveFocus();
    expect(screen.getByLabelText(/^Name/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/^Name/)).toHaveAccessibleDescription('Name is required');
  });

  it.each([
    ['name', 'J', 'Name is required'],
    ['name', 'x'.repeat(101), 'Name must be at most 100 characters'],
    ['email', 'jane@', 'Invalid email address'],
    ['email', `${'a'.repeat(95)}@example.com`, 'Email must be at most 100 characters'],
    ['phone', '555-0100', 'Please enter a valid phone number'],
    ['phone', 'call me maybe please', 'Please enter a valid phone number'],
    ['phone', '1'.repeat(31), 'Phone number must be at most 30 characters'],
    ['subject', 'Hi', 'Subject is required'],
    ['subject', 's'.repeat(201), 'Subject must be at most 200 characters'],
    ['message', 'Too short', 'Message must be at least 10 characters'],
    ['message', 'm'.repeat(5001), 'Message must be at most 5000 characters'],
  ] as const)('%s = %j shows "%s"', async (field, value, message) => {
    // The expectation comes from the shared schema itself, so the form cannot drift from it.
    const parsed = contactFormSchema.safeParse({ ...valid, [field]: value });
    expect(parsed.success ? [] : parsed.error.issues.map((issue) => issue.message)).toContain(message);
    renderForm();
    fill({ ...valid, [field]: value });
    await submit();
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(screen.getAllByText(/required|valid|characters/)).toHaveLength(1);
  });

  it('clears a message once the field is corrected', async () => {
    renderForm();
    fill({ ...valid, subject: 'Hi' });
    await submit();
    expect(screen.getByText('Subject is required')).toBeInTheDocument();
    fill({ subject: 'Printer jam' });
    expect(screen.queryByText('Subject is required')).not.toBeInTheDocument();
  });
});

describe('ContactForm sending', () => {
  it('simulates a 1-second send, then shows the Message sent toast and the Message Received panel', async () => {
    vi.useFakeTimers();
    renderForm();
    fill(valid);
    act(() => {
      fireEvent.submit(screen.getByRole('form', { name: 'Contact form' }));
    });
    expect(screen.getByRole('button', { name: 'Sending...' })).toBeDisabled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(999);
    });
    expect(screen.queryByText('Message Received')).not.toBeInTheDocument();
    expect(screen.queryByText('Message sent')).not.toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(screen.getByRole('heading', { name: 'Message Received' })).toBeInTheDocument();
    expect(screen.getByText('Message sent')).toBeInTheDocument();

    vi.useRealTimers();
    await userEvent.click(screen.getByRole('button', { name: 'Send Another Message' }));
    expect(screen.getByLabelText(/^Name/)).toHaveValue('');
  });

  it('shows the error toast when sending fails', async () => {
    renderForm(() => Promise.reject(new Error('offline')));
    fill(valid);
    await submit();
    expect(await screen.findByText('There was a problem sending your message. Please try again.')).toBeInTheDocument();
    expect(screen.queryByText('Message Received')).not.toBeInTheDocument();
  });

  it('simulateSend resolves after one second', async () => {
    vi.useFakeTimers();
    let done = false;
    void simulateSend().then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });
});
