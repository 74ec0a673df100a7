import { FREE_DIAGNOSTIC_NOTE, ZERO_COST_NOTE, ZERO_COST_PAYMENT_INTENT_ID } from '@ppr/contracts';
import { describe, expect, it } from 'vitest';
import { adminPaymentDisplay } from './payment-display';

describe('adminPaymentDisplay (SPEC section 4)', () => {
  it('reads the zero-cost marker, or completed with the zero-cost note, as $0 Diagnostic', () => {
    expect(adminPaymentDisplay({ stripePaymentIntentId: ZERO_COST_PAYMENT_INTENT_ID, paymentStatus: 'pending', paymentNotes: null })).toBe(
      '$0 Diagnostic',
    );
    expect(adminPaymentDisplay({ stripePaymentIntentId: null, paymentStatus: 'completed', paymentNotes: ZERO_COST_NOTE })).toBe(
      '$0 Diagnostic',
    );
  });

  it('reads any other payment intent id as Paid, whatever the notes say', () => {
    expect(adminPaymentDisplay({ stripePaymentIntentId: 'pi_123', paymentStatus: 'completed', paymentNotes: null })).toBe('Paid');
    expect(adminPaymentDisplay({ stripePaymentIntentId: 'pi_123', paymentStatus: 'completed', paymentNotes: FREE_DIAGNOSTIC_NOTE })).toBe(
      'Paid',
    );
  });

  it('reads completed with the free note and no intent as Free Diagnostic', () => {
    expect(adminPaymentDisplay({ stripePaymentIntentId: null, paymentStatus: 'completed', paymentNotes: FREE_DIAGNOSTIC_NOTE })).toBe(
      'Free Diagnostic',
    );
  });

  it('reads everything else as Not Paid', () => {
    expect(adminPaymentDisplay({ stripePaymentIntentId: null, paymentStatus: 'pending', paymentNotes: null })).toBe('Not Paid');
    expect(adminPaymentDisplay({ stripePaymentIntentId: null, paymentStatus: 'completed', paymentNotes: 'cash' })).toBe('Not Paid');
    expect(adminPaymentDisplay({ stripePaymentIntentId: null, paymentStatus: 'pending', paymentNotes: FREE_DIAGNOSTIC_NOTE })).toBe(
      'Not Paid',
    );
  });

  it('reads a refunded fee as Refunded before anything else', () => {
    expect(adminPaymentDisplay({ stripePaymentIntentId: 'pi_123', paymentStatus: 'refunded', paymentNotes: null })).toBe('Refunded');
  });
});
