import { formatBusinessDateTime, ticketReference } from './constants';

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

describe('formatBusinessDateTime: SPEC dates in Eastern time, naming the zone', () => {
  it('writes the moment as the business sees it, in winter and in summer', () => {
    expect(formatBusinessDateTime('2027-01-01T01:30:00.000Z')).toBe('Dec 31, 2026 8:30 PM EST');
    expect(formatBusinessDateTime(new Date('2026-07-04T16:05:00.000Z'))).toBe('Jul 4, 2026 12:05 PM EDT');
    expect(formatBusinessDateTime('2026-11-22T05:00:00.000Z')).toBe('Nov 22, 2026 12:00 AM EST');
  });

  it('follows the change to daylight time (2 AM EST is 3 AM EDT on Mar 8, 2026)', () => {
    expect(formatBusinessDateTime('2026-03-08T06:59:00.000Z')).toBe('Mar 8, 2026 1:59 AM EST');
    expect(formatBusinessDateTime('2026-03-08T07:00:00.000Z')).toBe('Mar 8, 2026 3:00 AM EDT');
  });
});
