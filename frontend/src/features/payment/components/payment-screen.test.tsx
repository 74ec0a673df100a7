import { screen, waitFor, fireEvent } from '@testing-library/react';
import { paymentMessages } from '@ppr/contracts';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../components/layout/toaster';
import { json, mockFetch } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { PENDING_TICKET_DATA_KEY, PENDING_TICKET_ID_KEY, savePendingTicket } from '../pending-ticket';
import { PaymentScreen } from './payment-screen';

type Handler = (body: unknown) => { status: number; body: unknown };

/** A fake API: one answer per "METHOD path"; records every call. */
function api(handlers: Record<string, Handler>): { key: string; body: unknown }[] {
  const calls: { key: string; body: unknown }[] = [];
  mockFetch((url, init) => {
    const key = `${init?.method ?? 'GET'} ${url}`;
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ key, body });
    const handler = handlers[key];
    const answer = handler ? handler(body) : { status: 404, body: { message: 'Not found' } };
    return json(answer.status, answer.body);
  });
  return calls;
}

const CONFIG = {
  paymentGateway: 'simulated',
  stripePublishableKey: null,
  paymentsAvailable: true,
  testMode: true,
  diagnosticFeeCents: 4900,
  currency: 'usd',
};
const ticket = (paymentStatus: string, paymentDisplay = paymentStatus === 'completed' ? 'Free Diagnostic' : 'Not Paid') => ({
  id: 7,
  reference: 'PPR-2026-7',
  createdAt: '2026-11-22T07:00:00.000Z',
  paymentStatus,
  paymentDisplay,
  serviceCategory: 'windows',
  issueDescription: 'Blue screen at boot.',
});
const INTENT = {
  clientSecret: 'pi_sim_1_secret_x',
  paymentIntentId: 'pi_sim_1',
  status: 'requires_payment_method',
  amountCents: 4900,
  currency: 'usd',
};

function renderPayment(route = '/payment') {
  renderWithApp(
    <>
      <Routes>
        <Route path="/payment" element={<PaymentScreen />} />
        <Route path="/payment/:id" element={<PaymentScreen ticketId={7} />} />
        <Route path="/support-request" element={<p>THE FORM</p>} />
        <Route path="/confirmation/:id" element={<p>THE CONFIRMATION</p>} />
      </Routes>
      <Toaster />
    </>,
    { route },
  );
}

beforeEach(() => {
  sessionStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const pending = () =>
  savePendingTicket(7, { businessName: 'Acme Dental', contactName: 'Jane Doe', serviceCategory: 'windows', email: 'jane@example.com' });

describe('PaymentScreen', () => {
  it('without pending data goes back to the form with the spec toast', async () => {
    api({});
    renderPayment();
    expect(await screen.findByText('THE FORM')).toBeInTheDocument();
    expect(screen.getByText('No pending request')).toBeInTheDocument();
    expect(screen.getByText('Please fill out the support request form first.')).toBeInTheDocument();
  });

  it('with unreadable pending data clears it and says so', async () => {
    api({});
    sessionStorage.setItem(PENDING_TICKET_ID_KEY, '7');
    sessionStorage.setItem(PENDING_TICKET_DATA_KEY, '{not json');
    // An unreadable record with an id is still an id; a bad id is unreadable.
    sessionStorage.setItem(PENDING_TICKET_ID_KEY, 'seven');
    renderPayment();
    expect(await screen.findByText('THE FORM')).toBeInTheDocument();
    expect(screen.getByText('There was an issue loading your request information.')).toBeInTheDocument();
    expect(sessionStorage.getItem(PENDING_TICKET_ID_KEY)).toBeNull();
  });

  it('shows $49.00, the summary, the refund policy and the test-mode card form; pays and goes to the confirmation', async () => {
    pending();
    const calls = api({
      'GET /api/ticket/7': () => ({ status: 200, body: ticket('pending') }),
      'GET /api/config': () => ({ status: 200, body: CONFIG }),
      'POST /api/create-payment-intent': () => ({ status: 200, body: INTENT }),
      'POST /api/payments/simulated/confirm': () => ({ status: 200, body: { status: 'succeeded', paymentIntentId: 'pi_sim_1' } }),
      'POST /api/update-ticket-payment': () => ({ status: 200, body: { id: 7 } }),
    });
    renderPayment();
    expect(await screen.findByText('Test mode: no real charge.')).toBeInTheDocument();
    expect(screen.getByTestId('fee')).toHaveTextContent('$49.00');
    expect(screen.getByText('Acme Dental')).toBeInTheDocument();
    expect(screen.getByText('Microsoft Windows & Client OS')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Refund policy' })).toHaveAttribute('href', '/refund-policy');
    expect(screen.getByLabelText('Receipt email')).toHaveValue('jane@example.com');
    fireEvent.change(screen.getByLabelText('Card number'), { target: { value: '4242 4242 4242 4242' } });
    fireEvent.change(screen.getByLabelText('Expiry month'), { target: { value: '12' } });
    fireEvent.change(screen.getByLabelText('Expiry year'), { target: { value: '2030' } });
    fireEvent.change(screen.getByLabelText('CVC'), { target: { value: '123' } });
    await userEvent.click(screen.getByRole('button', { name: 'Pay Now $49.00' }));
    expect(await screen.findByText('THE CONFIRMATION')).toBeInTheDocument();
    expect(calls.find((call) => call.key === 'POST /api/payments/simulated/confirm')?.body).toEqual({
      clientSecret: 'pi_sim_1_secret_x',
      cardNumber: '4242 4242 4242 4242',
      expMonth: '12',
      expYear: '2030',
      cvc: '123',
      receiptEmail: 'jane@example.com',
    });
    expect(calls.find((call) => call.key === 'POST /api/update-ticket-payment')?.body).toEqual({
      ticketId: 7,
      paymentIntentId: 'pi_sim_1',
    });
    expect(sessionStorage.getItem(PENDING_TICKET_ID_KEY)).toBeNull();
  });

  it('an intent whose payment is under way (processing) says so and offers no card form', async () => {
    pending();
    api({
      'GET /api/ticket/7': () => ({ status: 200, body: ticket('pending') }),
      'GET /api/config': () => ({ status: 200, body: CONFIG }),
      'POST /api/create-payment-intent': () => ({ status: 200, body: { ...INTENT, status: 'processing' } }),
    });
    renderPayment();
    expect(await screen.findByText(paymentMessages.paymentProcessing)).toHaveAttribute('role', 'status');
    expect(screen.queryByLabelText('Card number')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Pay Now/ })).not.toBeInTheDocument();
  });

  it('a declined card shows Payment failed with the gateway message, stays and re-enables Pay Now', async () => {
    pending();
    const calls = api({
      'GET /api/ticket/7': () => ({ status: 200, body: ticket('pending') }),
      'GET /api/config': () => ({ status: 200, body: CONFIG }),
      'POST /api/create-payment-intent': () => ({ status: 200, body: INTENT }),
      'POST /api/payments/simulated/confirm': () => ({
        status: 200,
        body: { status: 'declined', paymentIntentId: 'pi_sim_1', message: 'Your card was declined.', code: 'generic_decline' },
      }),
    });
    renderPayment();
    await userEvent.click(await screen.findByRole('button', { name: 'Pay Now $49.00' }));
    expect(await screen.findByText('Payment failed')).toBeInTheDocument();
    expect(screen.getAllByText('Your card was declined.').length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Pay Now $49.00' })).toBeEnabled();
    expect(calls.some((call) => call.key === 'POST /api/update-ticket-payment')).toBe(false);
    expect(sessionStorage.getItem(PENDING_TICKET_ID_KEY)).toBe('7');
  });

  it('a waived ticket shows $0.00 and a Submit Support Request button instead of the card form', async () => {
    pending();
    const calls = api({
      'GET /api/ticket/7': () => ({ status: 200, body: ticket('completed') }),
      'GET /api/config': () => ({ status: 200, body: CONFIG }),
    });
    renderPayment();
    await userEvent.click(await screen.findByRole('button', { name: 'Submit Support Request' }));
    expect(await screen.findByText('THE CONFIRMATION')).toBeInTheDocument();
    expect(screen.getByText('Processing zero-cost request')).toBeInTheDocument();
    expect(calls.some((call) => call.key === 'POST /api/create-payment-intent')).toBe(false);
  });

  it('an already paid ticket goes straight to the confirmation, without a card form or a second payment', async () => {
    pending();
    const calls = api({
      'GET /api/ticket/7': () => ({ status: 200, body: ticket('completed', 'Paid') }),
      'GET /api/config': () => ({ status: 200, body: CONFIG }),
    });
    renderPayment();
    expect(await screen.findByText('THE CONFIRMATION')).toBeInTheDocument();
    expect(calls.some((call) => call.key === 'POST /api/create-payment-intent')).toBe(false);
    expect(sessionStorage.getItem(PENDING_TICKET_ID_KEY)).toBeNull();
  });

  it('a $0 diagnostic is waived too: $0.00 and the submit button', async () => {
    pending();
    api({
      'GET /api/ticket/7': () => ({ status: 200, body: ticket('completed', '$0 Diagnostic') }),
      'GET /api/config': () => ({ status: 200, body: CONFIG }),
    });
    renderPayment();
    expect(await screen.findByRole('button', { name: 'Submit Support Request' })).toBeInTheDocument();
    expect(screen.getByTestId('fee')).toHaveTextContent('$0.00');
  });

  it('shows the waived fee as $0.00', async () => {
    pending();
    api({
      'GET /api/ticket/7': () => ({ status: 200, body: ticket('completed') }),
      'GET /api/config': () => ({ status: 200, body: CONFIG }),
    });
    renderPayment();
    expect(await screen.findByTestId('fee')).toHaveTextContent('$0.00');
    expect(screen.queryByLabelText('Card number')).not.toBeInTheDocument();
  });

  it('a payment setup failure shows its toast and returns to the form after 4 seconds', async () => {
    pending();
    api({
      'GET /api/ticket/7': () => ({ status: 200, body: ticket('pending') }),
      'GET /api/config': () => ({ status: 200, body: CONFIG }),
      'POST /api/create-payment-intent': () => ({
        status: 503,
        body: { message: 'Payment processing is not available. Please try again later.' },
      }),
    });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderPayment();
      expect(await screen.findByText('Payment setup failed')).toBeInTheDocument();
      expect(screen.queryByText('THE FORM')).not.toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(4000);
      await waitFor(() => expect(screen.getByText('THE FORM')).toBeInTheDocument());
    } finally {
      vi.useRealTimers();
    }
  });

  it('/payment/:ticketId pays an existing ticket without pending data', async () => {
    api({
      'GET /api/ticket/7': () => ({ status: 200, body: ticket('pending') }),
      'GET /api/config': () => ({ status: 200, body: CONFIG }),
      'POST /api/create-payment-intent': () => ({ status: 200, body: INTENT }),
    });
    renderPayment('/payment/7');
    expect(await screen.findByRole('button', { name: 'Pay Now $49.00' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Back' })).toBeInTheDocument();
  });
});
