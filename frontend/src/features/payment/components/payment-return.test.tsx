import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerFetch, fetchCalls } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { PaymentReturn } from './payment-return';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the payment return screen', () => {
  it('with a ticket id only, reads the ticket and says so when it cannot: no payment update is claimed', async () => {
    const fetchMock = answerFetch(404, { message: 'Ticket not found' });
    renderWithApp(<PaymentReturn />, { route: '/payment-success?ticket_id=1004' });
    expect(await screen.findByText('Could not retrieve ticket information.', { selector: 'p' })).toBeInTheDocument();
    expect(screen.queryByText(/Failed to update payment/)).not.toBeInTheDocument();
    expect(fetchCalls(fetchMock).map((call) => `${call.method} ${call.url}`)).toEqual(['GET /api/ticket/1004']);
  });

  it('with a payment intent, an update the server refuses shows its message', async () => {
    answerFetch(404, { message: 'Payment not found' });
    renderWithApp(<PaymentReturn />, { route: '/payment-success?ticket_id=1004&payment_intent=pi_x' });
    expect(await screen.findByText('Failed to update payment: Payment not found', { selector: 'p' })).toBeInTheDocument();
  });
});
