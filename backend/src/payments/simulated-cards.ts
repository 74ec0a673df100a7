/**
 * Stripe's test cards and what Stripe answers for each (https://docs.stripe.com/testing), for the simulated
 * gateway. Any other number is declined as Stripe's test mode declines a real card, so no real card number
 * ever "pays" in test mode. Messages are Stripe's own wording.
 */

export interface CardInput {
  /** Digits only. */
  readonly number: string;
  readonly expMonth: number;
  /** Two or four digits. */
  readonly expYear: number;
  /** Digits only. */
  readonly cvc: string;
}

export type CardOutcome =
  | { readonly kind: 'succeeded'; readonly brand: string; readonly last4: string }
  | { readonly kind: 'declined'; readonly code: string; readonly declineCode: string | null; readonly message: string };

const DECLINED = 'Your card was declined.';

/** Test numbers that succeed, with their brand. */
const SUCCEEDING: Readonly<Record<string, string>> = {
  '4242424242424242': 'visa',
  '4000056655665556': 'visa',
  '5555555555554444': 'mastercard',
  '2223003122003222': 'mastercard',
  '5200828282828210': 'mastercard',
  '5105105105105100': 'mastercard',
  '378282246310005': 'amex',
  '371449635398431': 'amex',
  '6011111111111117': 'discover',
  '6011000990139424': 'discover',
  '3056930009020004': 'diners',
  '36227206271667': 'diners',
  '3566002020360505': 'jcb',
  '6200000000000005': 'unionpay',
};

/** Test numbers that decline, with Stripe's error code, decline code and message. */
const DECLINING: Readonly<Record<string, { code: string; declineCode: string | null; message: string }>> = {
  '4000000000000002': { code: 'card_declined', declineCode: 'generic_decline', message: DECLINED },
  '4000000000009995': { code: 'card_declined', declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  '4000000000009987': { code: 'card_declined', declineCode: 'lost_card', message: DECLINED },
  '4000000000009979': { code: 'card_declined', declineCode: 'stolen_card', message: DECLINED },
  '4000000000000069': { code: 'expired_card', declineCode: null, message: 'Your card has expired.' },
  '4000000000000127': { code: 'incorrect_cvc', declineCode: null, message: "Your card's security code is incorrect." },
  '4000000000000119': {
    code: 'processing_error',
    declineCode: null,
    message: 'An error occurred while processing your card. Try again in a little bit.',
  },
  '4000000000006975': {
    code: 'card_declined',
    declineCode: 'card_velocity_exceeded',
    message: 'Your card was declined for making repeated attempts too frequently or exceeding its amount limit.',
  },
  '4000000000000341': { code: 'card_declined', declineCode: 'generic_decline', message: DECLINED },
  '4100000000000019': { code: 'card_declined', declineCode: 'fraudulent', message: DECLINED },
};

/** Cards that need 3-D Secure on Stripe: the simulated gateway has no challenge screen, so it says so. */
const AUTHENTICATION_REQUIRED = new Set(['4000002500003155', '4000002760003184', '4000003800000446', '4000000000003220']);

export const LIVE_CARD_IN_TEST_MODE =
  'Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.';

/** The Luhn checksum every real card number satisfies. */
export function passesLuhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return number.length >= 12 && sum % 10 === 0;
}

/** What Stripe would answer for this card at `now` (expiry is checked against the month of `now`, UTC). */
export function cardOutcome(card: CardInput, now: Date): CardOutcome {
  const decline = (code: string, message: string, declineCode: string | null = null): CardOutcome => ({
    kind: 'declined',
    code,
    declineCode,
    message,
  });
  if (!passesLuhn(card.number)) return decline('incorrect_number', 'Your card number is incorrect.');
  if (card.expMonth < 1 || card.expMonth > 12) return decline('invalid_expiry_month', "Your card's expiration month is invalid.");
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  const thisYear = now.getUTCFullYear();
  const thisMonth = now.getUTCMonth() + 1;
  if (year < thisYear || year > thisYear + 50) return decline('invalid_expiry_year', "Your card's expiration year is invalid.");
  if (year === thisYear && card.expMonth < thisMonth) return decline('expired_card', 'Your card has expired.');
  const amex = card.number.startsWith('34') || card.number.startsWith('37');
  if (card.cvc.length !== (amex ? 4 : 3)) return decline('invalid_cvc', "Your card's security code is invalid.");

  const declining = DECLINING[card.number];
  if (declining) return decline(declining.code, declining.message, declining.declineCode);
  if (AUTHENTICATION_REQUIRED.has(card.number)) {
    return decline(
      'authentication_required',
      'This card requires authentication (3-D Secure), which the simulated gateway does not perform. Use 4242 4242 4242 4242 to pay in test mode.',
    );
  }
  const brand = SUCCEEDING[card.number];
  if (brand) return { kind: 'succeeded', brand, last4: card.number.slice(-4) };
  return decline('card_declined', LIVE_CARD_IN_TEST_MODE, 'live_mode_test_card');
}
