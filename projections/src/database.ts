import type { ProcessorCheckpointsTable } from './checkpoints.table';
import type { EmailNotificationsTable } from './email-log/email-notifications.table';
import type { TicketMessagesTable, TicketsTable } from './tickets/tickets.table';

/** The read side's tables. */
export interface ReadDatabase {
  tickets: TicketsTable;
  ticket_messages: TicketMessagesTable;
  email_notifications: EmailNotificationsTable;
  processor_checkpoints: ProcessorCheckpointsTable;
}
