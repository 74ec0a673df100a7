import type { ResponseFilter, TicketStatus } from '@ppr/contracts';

export const STATUS_LABELS: Record<TicketStatus, string> = {
  pending_payment: 'Pending Payment',
  active: 'Active',
  resolved: 'Resolved',
  canceled: 'Canceled',
};

export const RESPONSE_FILTER_LABELS: Record<ResponseFilter, string> = {
  due: 'Due (within the hour)',
  overdue: 'Overdue',
  answered: 'Answered',
  refund_eligible: 'Refund eligible (no response in 24 h)',
};
