import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../components/layout/toaster';
import { json, mockFetch } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { SupportRequestForm, validateSupportRequest, EMPTY_REQUEST, type SupportRequestValues } from './support-request-form';

const valid: SupportRequestValues = {
  businessName: 'Acme Dental',
  contactName: 'Jane Doe',
  email: 'jane@example.com',
  phone: '(703) 555-0100',
  address: '',
  serviceCategory: 'windows',
  issueDescription: 'The front desk PC shows a blue screen at boot.',
};

const LABELS: Record<keyof SupportRequestValues, RegExp> = {
  businessName: /^Business Name/,
  contactName: /^Contact Name/,
  email: /^Email/,
  phone: /^Phone/,
  address: /^Address/,
  serviceCategory: /^Service Category/,
  issueDescription: /^Issue Description/,
};

function fill(values: Partial<SupportRequestValues>) {
  for (const [field, value] of Object.entries(values) as [keyof SupportRequestValues, string][]) {
    fireEvent.change(screen.getByLabelText(LABELS[field]), { target: { value } });
  }
}

function renderForm(onCreated = vi.fn()) {
  renderWithApp(
    <>
      <SupportRequestForm onCreated={onCreated} />
      <Toaster />
    </>,
  );
  return onCreated;
}

const submit = () => userEvent.click(screen.getByRole('button', { name: /Proceed to Payment|Processing/ }));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('validateSupportRequest', () => {
  it('gives the spec message of every required field', () => {
    const result = validateSupportRequest(EMPTY_REQUEST);
    expect(result).toEqual({
      errors: {
        businessName: 'Business name is required',
        contactName: 'Contact name is required',
        email: 'Invalid email address',
        phone: 'Phone number is required',
        serviceCategory: 'Service category is required',
        issueDescription: 'Please provide a detailed description of the issue',
      },
    });
  });

  it('accepts a complete request, the address optional, and trims it into the API body', () => {
    const result = validateSupportRequest({ ...valid, businessName: '  Acme Dental  ' });
    expect(result).toEqual({ body: expect.objectContaining({ businessName: 'Acme Dental', address: null, serviceCategory: 'windows' }) });
  });

  it('refuses a short phone number and description', () => {
    const result = validateSupportRequest({ ...valid, phone: '555-0100', issueDescription: 'broken' });
    expect(result).toEqual({
      errors: { phone: 'Phone number is required', issueDescription: 'Please provide a detailed description of the issue' },
    });
  });
});

describe('SupportRequestForm', () => {
  it('shows the messages on an empty submit, focuses the first invalid field and sends nothing', async () => {
    const fetch = mockFetch(() => json(500, { message: 'unexpected call' }));
    renderForm();
    await submit();
    expect(screen.getByText('Business name is required')).toBeInTheDocument();
    expect(screen.getByText('Please provide a detailed description of the issue')).toBeInTheDocument();
    expect(screen.getByLabelText(LABELS.businessName)).toHaveFocus();
    expect(screen.getByLabelText(LABELS.businessName)).toHaveAccessibleDescription('Business name is required');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('links the refund policy from the fee notice', () => {
    renderForm();
    expect(screen.getByRole('link', { name: 'refund policy' })).toHaveAttribute('href', '/refund-policy');
    expect(screen.getByText(/Diagnostic fee: \$49\.00/)).toBeInTheDocument();
  });

  it('reads Processing... and is disabled while the request is sent, then hands over the new ticket', async () => {
    let answer: (response: Response) => void = () => undefined;
    const fetch = mockFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    const onCreated = renderForm();
    fill(valid);
    await submit();
    const button = screen.getByRole('button', { name: 'Processing...' });
    expect(button).toBeDisabled();
    answer(json(201, { id: 42 }));
    await waitFor(() =>
      expect(onCreated).toHaveBeenCalledWith({ id: 42, request: expect.objectContaining({ email: 'jane@example.com' }) }, valid),
    );
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/support-request');
    expect((init.headers as Record<string, string>)['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps the Idempotency-Key across a retry of the same submission and changes it for new values', async () => {
    const fetch = mockFetch(() => json(503, { message: 'Database unavailable' }));
    renderForm();
    fill(valid);
    await submit();
    expect(await screen.findByText('Error processing request')).toBeInTheDocument();
    expect(screen.getByText('Failed to create ticket: Database unavailable')).toBeInTheDocument();
    await submit();
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    fill({ issueDescription: 'Now the second PC shows a blue screen too.' });
    await submit();
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(3));
    const keys = (fetch.mock.calls as unknown as [string, RequestInit][]).map(
      ([, init]) => (init.headers as Record<string, string>)['Idempotency-Key'],
    );
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).not.toBe(keys[0]);
  });
});
