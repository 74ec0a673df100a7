import { type EventData, parseEventData } from '@ppr/contracts';
import type { ReadDatabase } from '../database';
import type { RecordedEvent } from '../event-source';
import type { Projection, RowOperation } from '../projection';

/** The one table this projection writes: anything else does not compile. */
type EmailLogTables = Pick<ReadDatabase, 'email_notifications'>;

/** One row per attempt; `errorMessage` is null for a sent email. */
function attempt(event: RecordedEvent, data: EventData<'NotificationSent'>, errorMessage: string | null): RowOperation<EmailLogTables> {
  return {
    kind: 'insert',
    table: 'email_notifications',
    key: data.notificationId,
    values: {
      id: data.notificationId,
      ticket_id: data.ticketId,
      user_id: data.userId,
      email_to: data.emailTo,
      subject: data.subject,
      notification_type: data.notificationType,
      email_content: data.emailContent,
      sent_at: event.metadata.occurredAt,
      success: errorMessage === null,
      error_message: errorMessage,
      idempotency_key: data.idempotencyKey,
    },
  };
}

/** The email notification log: one row per attempt, successful or not. */
export const emailLogProjection: Projection<'email-log', EmailLogTables> = {
  name: 'email-log',
  tables: [{ name: 'email_notifications', key: 'id', keyType: 'uuid' }],
  eventTypes: ['NotificationSent', 'NotificationFailed'],
  project(event) {
    switch (event.type) {
      case 'NotificationSent':
        return [attempt(event, parseEventData('NotificationSent', event.data), null)];
      case 'NotificationFailed': {
        const data = parseEventData('NotificationFailed', event.data);
        return [attempt(event, data, data.errorMessage)];
      }
      default:
        return [];
    }
  },
};
