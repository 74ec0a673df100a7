import { describe, expect, it } from 'vitest';
import { progressFor, statusLabel } from './progress';

describe('progressFor', () => {
  it.each([
    ['new', 10],
    ['pending_payment', 25],
    ['in-progress', 50],
    ['active', 75],
    ['resolved', 100],
    ['canceled', 100],
    ['something-else', 0],
    ['toString', 0],
  ])('%s is %i%%', (status, percent) => {
    expect(progressFor(status)).toBe(percent);
  });
});

describe('statusLabel', () => {
  it('names the statuses and shows unknown ones as they are', () => {
    expect(statusLabel('pending_payment')).toBe('Pending Payment');
    expect(statusLabel('mystery')).toBe('mystery');
  });
});
