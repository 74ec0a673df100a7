import { TICKET_STATUS_LABELS, type TicketStatus } from '@ppr/contracts';

export function statusLabel(status: TicketStatus): string {
  return TICKET_STATUS_LABELS[status];
}
