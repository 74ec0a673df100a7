import { describe, expect, it } from 'vitest';
import { ticket } from '../../../test/ticket-fixture';
import { countTickets, matchesSearch, newestFirst } from './ticket-groups';

describe('countTickets', () => {
  it('groups active + pending_payment and resolved + canceled', () => {
    const counts = countTickets([
      ticket({ status: 'active' }),
      ticket({ status: 'pending_payment' }),
      ticket({ status: 'resolved' }),
      ticket({ status: 'canceled' }),
      ticket({ status: 'active' }),
    ]);
    expect(counts).toEqual({ total: 5, active: 3, resolved: 2 });
  });
});

describe('matchesSearch', () => {
  const t = ticket({ id: 42, reference: 'PPR-2026-42' });
  it.each(['ppr-2026-42', '42', 'WI-FI', 'acme', 'pat lee', 'active', '  '])('finds %j', (query) => {
    expect(matchesSearch(t, query)).toBe(true);
  });
  it('misses what is not there', () => {
    expect(matchesSearch(t, 'printer')).toBe(false);
  });
});

describe('newestFirst', () => {
  it('sorts by creation time, newest first', () => {
    const sorted = newestFirst([
      ticket({ id: 1, createdAt: '2026-01-01T00:00:00Z' }),
      ticket({ id: 2, createdAt: '2026-03-01T00:00:00Z' }),
      ticket({ id: 3, createdAt: '2026-02-01T00:00:00Z' }),
    ]);
    expect(sorted.map((t) => t.id)).toEqual([2, 3, 1]);
  });
});
