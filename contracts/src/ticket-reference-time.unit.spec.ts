import { ticketReference } from './constants';

/**
 * The reference's year is the year of the ticket's creation where the business and its customers are
 * (America/New_York), not in UTC: production containers run in UTC, and on New Year's Eve UTC is already in
 * January from 7 PM (EST, UTC-5) on.
 */
describe('ticketReference: the year in Eastern time', () => {
  it("a request sent at 8:30 PM on New Year's Eve in Maryland is of the year ending", () => {
    expect(ticketReference(1500, '2027-01-01T01:30:00.000Z')).toBe('PPR-2026-1500');
    expect(ticketReference(1500, new Date('2027-01-01T04:59:59.999Z'))).toBe('PPR-2026-1500');
  });

  it('the new year starts at midnight Eastern (05:00 UTC in winter)', () => {
    expect(ticketReference(1501, '2027-01-01T05:00:00.000Z')).toBe('PPR-2027-1501');
    expect(ticketReference(1502, '2026-12-31T12:00:00.000Z')).toBe('PPR-2026-1502');
  });

  it('does not depend on the process time zone', () => {
    // Whatever TZ the test runner has, the answer is the same (the formatter names its zone).
    const at = '2026-01-01T03:00:00.000Z';
    expect(ticketReference(7, at)).toBe('PPR-2025-7');
    expect(ticketReference(7, new Date(new Date(at).getTime() + 2 * 3_600_000))).toBe('PPR-2026-7');
  });
});
