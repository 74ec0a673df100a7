import { type ResponseFilter, TICKET_STATUS_LABELS } from '@ppr/contracts';

export const STATUS_LABELS = TICKET_STATUS_LABELS;

export const RESPONSE_FILTER_LABELS: Record<ResponseFilter, string> = {
  due: 'Due (within the hour)',
  overdue: 'Overdue',
  answered: 'Answered',
  refund_eligible: 'Refund eligible (no response in 24 h)',
};
