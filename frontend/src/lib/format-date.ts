import { format } from 'date-fns';

/** SPEC section 9: every date on screen reads 'MMM d, yyyy h:mm a' (e.g. "Nov 22, 2026 6:05 AM"). */
export function formatDateTime(value: string | Date): string {
  return format(typeof value === 'string' ? new Date(value) : value, 'MMM d, yyyy h:mm a');
}
