import { cardOutcome, LIVE_CARD_IN_TEST_MODE, passesLuhn } from './simulated-cards';

const NOW = new Date('2026-11-23T12:00:00Z');
const card = (number: string, overrides: Partial<{ expMonth: number; expYear: number; cvc: string }> = {}) => ({
  number,
  expMonth: 12,
  expYear: 2030,
  cvc: '123',
  ...overrides,
});

describe("the simulated gateway's cards (Stripe's test numbers and messages)", () => {
  it('4242 4242 4242 4242 succeeds', () => {
    expect(cardOutcome(card('4242424242424242'), NOW)).toEqual({ kind: 'succeeded', brand: 'visa', last4: '4242' });
  });

  it.each([
    ['4000000000000002', 'card_declined', 'generic_decline', 'Your card was declined.'],
    ['4000000000009995', 'card_declined', 'insufficient_funds', 'Your card has insufficient funds.'],
    ['4000000000009987', 'card_declined', 'lost_card', 'Your card was declined.'],
    ['4000000000000069', 'expired_card', null, 'Your card has expired.'],
    ['4000000000000127', 'incorrect_cvc', null, "Your card's security code is incorrect."],
    ['4000000000000119', 'processing_error', null, 'An error occurred while processing your card. Try again in a little bit.'],
  ])("%s is declined (%s / %s) with Stripe's message", (number, code, declineCode, message) => {
    expect(cardOutcome(card(number), NOW)).toEqual({ kind: 'declined', code, declineCode, message });
  });

  it('a number that fails the Luhn check is incorrect', () => {
    expect(passesLuhn('4242424242424241')).toBe(false);
    expect(cardOutcome(card('4242424242424241'), NOW)).toMatchObject({
      kind: 'declined',
      code: 'incorrect_number',
      message: 'Your card number is incorrect.',
    });
  });

  it('a real (non-test) card is declined as in Stripe test mode: nothing real can be charged', () => {
    expect(passesLuhn('4111111111111111')).toBe(true);
    expect(cardOutcome(card('4111111111111111'), NOW)).toMatchObject({ kind: 'declined', message: LIVE_CARD_IN_TEST_MODE });
  });

  it('checks the expiry against the current month and the CVC length (4 digits for American Express)', () => {
    expect(cardOutcome(card('4242424242424242', { expMonth: 10, expYear: 2026 }), NOW)).toMatchObject({ code: 'expired_card' });
    expect(cardOutcome(card('4242424242424242', { expMonth: 11, expYear: 26 }), NOW)).toMatchObject({ kind: 'succeeded' });
    expect(cardOutcome(card('4242424242424242', { expYear: 2025 }), NOW)).toMatchObject({ code: 'invalid_expiry_year' });
    expect(cardOutcome(card('4242424242424242', { expMonth: 13 }), NOW)).toMatchObject({ code: 'invalid_expiry_month' });
    expect(cardOutcome(card('378282246310005', { cvc: '123' }), NOW)).toMatchObject({ code: 'invalid_cvc' });
    expect(cardOutcome(card('378282246310005', { cvc: '1234' }), NOW)).toMatchObject({ kind: 'succeeded', brand: 'amex' });
  });
});
