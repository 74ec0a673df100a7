import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, string, string>;

/** Every email attempt (success or failure), one row per NotificationSent / NotificationFailed event. */
export interface EmailNotificationsTable {
  id: string;
  ticket_id: number | null;
  user_id: number | null;
  email_to: string;
  subject: string;
  notification_type: string;
  email_content: string;
  sent_at: Timestamp;
  success: boolean;
  error_message: string | null;
  idempotency_key: string;
}
