import { parseEventData } from '@ppr/contracts';
import type { Projection } from '../projection';

const TABLE = 'email_notifications';

/** The email notification log: one row per attempt, successful or not. */
export const emailLogProjection: Projection = {
  name: 'email-log',
  tables: [{ name: TABLE, key: 'id', keyType: 'uuid' }],
  eventTypes: ['NotificationSent', 'NotificationFailed'],
  project(event) {
    if (event.type !== 'NotificationSent' && event.type !== 'NotificationFailed') return [];
    const failed = event.type === 'NotificationFailed';
    const data = failed ? parseEventData('NotificationFailed', event.data) : parseEventData('NotificationSent', event.data);
    return [
      {
        kind: 'insert',
        table: TABLE,
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
          success: !failed,
          error_message: 'errorMessage' in data ? data.errorMessage : null,
          idempotency_key: data.idempotencyKey,
        },
      },
    ];
  },
};

