import { BUSINESS_PROFILE } from '@ppr/contracts';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerFetch } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { ConfirmationScreen, NEXT_STEPS } from './confirmation-screen';

function renderConfirmation() {
  renderWithApp(
    <Routes>
      <Route path="/confirmation/:id" element={<ConfirmationScreen ticketId={12} />} />
      <Route path="/support-request" element={<p>THE FORM</p>} />
    </Routes>,
    { route: '/confirmation/12' },
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ConfirmationScreen', () => {
  it('shows the reference, status Active, the category, the four next steps and the phone for a paid ticket', async () => {
    // A ticket created in an earlier year: the reference is the server's, never rebuilt from today's date.
    answerFetch(200, {
      id: 12,
      reference: 'PPR-2024-12',
      createdAt: '2024-12-31T23:30:00.000Z',
      paymentStatus: 'completed',
      paymentDisplay: 'Paid',
      serviceCategory: 'networking',
      issueDescription: 'The office Wi-Fi drops every hour.',
    });
    renderConfirmation();
    expect(await screen.findByRole('heading', { name: 'Support Request Confirmed' })).toBeInTheDocument();
    expect(screen.getByTestId('ticket-reference')).toHaveTextContent('PPR-2024-12');
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(screen.getByText('Step 3 of 3')).toBeInTheDocument();
    expect(screen.getByText('Networking & Infrastructure')).toBeInTheDocument();
    expect(screen.getByText('The office Wi-Fi drops every hour.')).toBeInTheDocument();
    expect(screen.getByText('Within 1 hour')).toBeInTheDocument();
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([...NEXT_STEPS]);
    expect(screen.getByRole('link', { name: BUSINESS_PROFILE.phone })).toHaveAttribute('href', `tel:${BUSINESS_PROFILE.phoneE164}`);
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });

  it('sends an unpaid ticket back to the form', async () => {
    answerFetch(200, {
      id: 12,
      reference: 'PPR-2026-12',
      createdAt: '2026-01-05T10:00:00.000Z',
      paymentStatus: 'pending',
      paymentDisplay: 'Not Paid',
      serviceCategory: 'networking',
      issueDescription: 'The office Wi-Fi drops every hour.',
    });
    renderConfirmation();
    expect(await screen.findByText('THE FORM')).toBeInTheDocument();
  });

  it('shows Error Loading Confirmation when the ticket cannot be loaded', async () => {
    answerFetch(404, { message: 'Ticket not found' });
    renderConfirmation();
    expect(await screen.findByRole('heading', { name: 'Error Loading Confirmation' })).toBeInTheDocument();
    expect(screen.getByText('There was an error loading your ticket information. Please contact support.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  });
});
