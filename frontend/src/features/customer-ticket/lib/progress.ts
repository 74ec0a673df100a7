import { TICKET_STATUS_LABELS } from '@ppr/contracts';

/** SPEC section 4: new 10%, pending_payment 25%, in-progress 50%, active 75%, resolved and canceled 100%, other 0%. */
const PROGRESS: Readonly<Record<string, number>> = {
  new: 10,
  pending_payment: 25,
  'in-progress': 50,
  active: 75,
  resolved: 100,
  canceled: 100,
};

export function progressFor(status: string): number {
  return Object.hasOwn(PROGRESS, status) ? (PROGRESS[status] ?? 0) : 0;
}

/** The spec's statuses, and the two older ones SPEC section 4 still names. */
const LABELS: Readonly<Record<string, string>> = {
  new: 'New',
  'in-progress': 'In Progress',
  ...TICKET_STATUS_LABELS,
};

export function statusLabel(status: string): string {
  return Object.hasOwn(LABELS, status) ? (LABELS[status] ?? status) : status;
}
