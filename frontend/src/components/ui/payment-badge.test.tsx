import { FREE_DIAGNOSTIC_NOTE, ZERO_COST_NOTE } from '@ppr/contracts';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PaymentBadge, paymentBadgeLabel } from './payment-badge';

describe('paymentBadgeLabel', () => {
  it.each([
    [undefined, null, 'Payment Needed'],
    [null, null, 'Payment Needed'],
    ['', null, 'Payment Needed'],
    ['pending', null, 'Payment Needed'],
    ['completed', null, 'Paid'],
    ['paid', null, 'Paid'],
    ['completed', ZERO_COST_NOTE, 'Paid'],
    ['completed', FREE_DIAGNOSTIC_NOTE, 'Free Diagnostic'],
    ['failed', null, 'Payment Issue'],
    ['refunded', null, 'Payment Issue'],
  ])('%j with note %j reads %s', (status, note, label) => {
    expect(paymentBadgeLabel(status, note)).toBe(label);
  });
});

describe('PaymentBadge', () => {
  it('shows the label', () => {
    render(<PaymentBadge paymentStatus="completed" paymentNotes={null} />);
    expect(screen.getByText('Paid')).toBeInTheDocument();
  });
});
