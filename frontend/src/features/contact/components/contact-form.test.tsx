import { contactFormSchema } from '@ppr/contracts';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../components/layout/toaster';
import { json, mockFetch } from '../../../test/fetch-mock';
import { ContactForm } from './contact-form';

function renderForm(sendMessage?: () => Promise<void>, minimumSendMs = 0) {
  return render(
    <>
      <ContactForm minimumSendMs={minimumSendMs} {...(sendMessage ? { sendMessage } : {})} />
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

/** A fetch that answers once with this status and JSON body (or never, until `release` is called). */
function answer(status: number, body: unknown) {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const fetchMock = mockFetch(async () => {
    await gate;
    return json(status, body);
  });
  return { fetchMock, release };
}

describe('ContactForm sending', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('posts the message to /api/contact, then shows the Message sent toast and the Message Received panel', async () => {
    const { fetchMock, release } = answer(201, { id: 7, message: 'Thank you for contacting us. We will get back to you shortly.' });
    renderForm();
    fill({ ...valid, name: '  Jane Doe ' });
    await submit();
    expect(screen.getByRole('button', { name: 'Sending...' })).toBeDisabled();
    expect(screen.queryByText('Message Received')).not.toBeInTheDocument();
    release();
    expect(await screen.findByRole('heading', { name: 'Message Received' })).toBeInTheDocument();
    expect(screen.getByText('Message sent')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/contact');
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({ 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' });
    expect(JSON.parse(init.body as string)).toEqual({ ...valid, name: 'Jane Doe' });

    await userEvent.click(screen.getByRole('button', { name: 'Send Another Message' }));
    expect(screen.getByLabelText(/^Name/)).toHaveValue('');
    // The button is gone with the panel: focus is on the new message's first field, not lost to the page.
    await waitFor(() => expect(screen.getByLabelText(/^Name/)).toHaveFocus());
  });

  it('shows the error toast when the request fails, and keeps what was typed', async () => {
    mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    renderForm();
    fill(valid);
    await submit();
    expect(await screen.findByText('There was a problem sending your message. Please try again.')).toBeInTheDocument();
    expect(screen.queryByText('Message Received')).not.toBeInTheDocument();
    expect(screen.getByLabelText(/^Subject/)).toHaveValue(valid.subject);
    expect(screen.getByRole('button', { name: 'Send Message' })).toBeEnabled();
  });

  it("adds the server's reason to the toast on a rate limit", async () => {
    answer(429, { message: 'Too many requests. Please try again in 42 minutes.' }).release();
    renderForm();
    fill(valid);
    await submit();
    expect(
      await screen.findByText(
        'There was a problem sending your message. Please try again. Too many requests. Please try again in 42 minutes.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText('Message Received')).not.toBeInTheDocument();
  });

  it("puts the server's field errors on the fields", async () => {
    answer(400, {
      message: 'Please enter a valid phone number',
      errors: [{ path: 'phone', message: 'Please enter a valid phone number' }],
    }).release();
    renderForm();
    fill(valid);
    await submit();
    expect(await screen.findByText('Please enter a valid phone number')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Phone/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('There was a problem sending your message. Please try again.')).toBeInTheDocument();
  });

  it('keeps "Sending..." for the spec\'s 1 second when the server answers sooner', async () => {
    vi.useFakeTimers();
    const sendMessage = vi.fn(() => Promise.resolve());
    renderForm(sendMessage, 1000);
    fill(valid);
    act(() => {
      fireEvent.submit(screen.getByRole('form', { name: 'Contact form' }));
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(999);
    });
    expect(sendMessage).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Sending...' })).toBeDisabled();
    expect(screen.queryByText('Message Received')).not.toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(screen.getByRole('heading', { name: 'Message Received' })).toBeInTheDocument();
    expect(screen.getByText('Message sent')).toBeInTheDocument();
  });

  it('sends with a given function instead (for pages and tests that pass one)', async () => {
    const sendMessage = vi.fn(() => Promise.resolve());
    renderForm(sendMessage);
    fill(valid);
    await submit();
    expect(await screen.findByRole('heading', { name: 'Message Received' })).toBeInTheDocument();
    expect(sendMessage).toHaveBeenCalledWith(valid);
  });
});
