import { type ClockRow, responseClock } from './response-clock';

const PAID = new Date('2026-03-04T15:00:00.000Z');
const later = (ms: number) => new Date(PAID.getTime() + ms);
const HOUR = 3_600_000;
const paid: ClockRow = { payment_status: 'completed', fee_waiver: null, fee_settled_at: PAID, first_response_at: null };

describe('responseClock: where a ticket stands at a given time', () => {
  it('no clock without a paid or waived fee', () => {
    expect(responseClock({ ...paid, fee_settled_at: null, payment_status: 'pending' }, later(0))).toEqual({
      feeSettledAt: null,
      responseDueAt: null,
      firstResponseAt: null,
      responseState: 'none',
      refundEligible: false,
    });
  });

  it('due for the first hour, overdue from the hour on', () => {
    expect(responseClock(paid, later(HOUR - 1))).toMatchObject({ responseState: 'due', responseDueAt: later(HOUR).toISOString() });
    expect(responseClock(paid, later(HOUR)).responseState).toBe('overdue');
  });

  it('answered once staff acted; refund-eligible when that took 24 hours or more, or has not happened by then', () => {
    expect(responseClock({ ...paid, first_response_at: later(10 * 60_000) }, later(48 * HOUR))).toMatchObject({
      responseState: 'answered',
      firstResponseAt: later(10 * 60_000).toISOString(),
      refundEligible: false,
    });
    expect(responseClock({ ...paid, first_response_at: later(24 * HOUR - 1) }, later(48 * HOUR)).refundEligible).toBe(false);
    expect(responseClock({ ...paid, first_response_at: later(24 * HOUR) }, later(48 * HOUR)).refundEligible).toBe(true);
    expect(responseClock(paid, later(24 * HOUR - 1)).refundEligible).toBe(false);
    expect(responseClock(paid, later(24 * HOUR)).refundEligible).toBe(true);
  });

  it('a waived fee runs the clock but is never refund-eligible (no money was taken)', () => {
    const waived = { ...paid, fee_waiver: 'free_diagnostic' };
    expect(responseClock(waived, later(30 * HOUR))).toMatchObject({ responseState: 'overdue', refundEligible: false });
  });
});
