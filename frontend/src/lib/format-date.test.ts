import { describe, expect, it } from 'vitest';
import { formatDateTime } from './format-date';

describe('formatDateTime', () => {
  it("formats as 'MMM d, yyyy h:mm a' (SPEC section 9), from a Date or an ISO string", () => {
    expect(formatDateTime(new Date(2026, 10, 22, 18, 5))).toBe('Nov 22, 2026 6:05 PM');
    expect(formatDateTime('2026-01-03T09:07:00')).toBe('Jan 3, 2026 9:07 AM');
    expect(formatDateTime(new Date(2026, 0, 1, 0, 0))).toBe('Jan 1, 2026 12:00 AM');
  });
});
