import { paymentMessages, simulatedConfirmRequestSchema } from './payments';

const card = { clientSecret: 'pi_sim_1_secret_x', cardNumber: '4242 4242 4242 4242', cvc: '123' };

function expiryErrors(expMonth: unknown, expYear: unknown): Record<string, string> {
  const result = simulatedConfirmRequestSchema.safeParse({ ...card, expMonth, expYear });
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[issue.path.join('.')] ??= issue.message;
  return errors;
}

describe('simulatedConfirmRequestSchema: the expiry', () => {
  it.each([
    ['12', '2030', 12, 2030],
    [12, 2030, 12, 2030],
    [' 1 ', '30', 1, 30],
    ['01', '2030', 1, 2030],
  ])('reads %j / %j (what the card form sends, or numbers) as %d / %d', (expMonth, expYear, month, year) => {
    const parsed = simulatedConfirmRequestSchema.parse({ ...card, expMonth, expYear });
    expect([parsed.expMonth, parsed.expYear]).toEqual([month, year]);
  });

  it.each([
    [true, [2030]],
    [false, true],
    [[12], ['2030']],
    [{}, { year: 2030 }],
    [null, null],
    [undefined, undefined],
    ['', ' '],
    ['0x0C', '0x7EE'],
    ['1e1', '2e3'],
    ['12.0', '2030.0'],
    ['+12', '-2030'],
    [12.5, 2030.5],
    [13, 10000],
    [0, -1],
    ['13', '12345'],
  ])('refuses %j / %j with the card messages', (expMonth, expYear) => {
    expect(expiryErrors(expMonth, expYear)).toEqual({
      expMonth: paymentMessages.expMonthRequired,
      expYear: paymentMessages.expYearRequired,
    });
  });
});
