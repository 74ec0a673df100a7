import type { TicketStatus } from '@ppr/contracts';

const LABELS: Record<TicketStatus, string> = {
  pending_payment: 'Pending Payment',
  active: 'Active',
  resolved: 'Resolved',
  canceled: 'Canceled',
};

export function statusLabel(status: TicketStatus): string {
  return LABELS[status];
}
