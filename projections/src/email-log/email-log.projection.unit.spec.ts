import type { EventData } from '@ppr/contracts';
import { recordedEvent } from '../testing/recorded-event';
import { emailLogProjection } from './email-log.projection';

const AT = '2026-03-04T15:16:17.000Z';

const notification: EventData<'NotificationSent'> = {
  notificationId: '6b0f5c1e-2d6a-4a57-9d1e-1f4f0c0e8a11',
  idempotencyKey: 'event-1:ticket-created',
  ticketId: 1042,
  userId: null,
  notificationType: 'ticket-created',
  emailTo: 'maya@example.com',
  subject: 'Ticket PPR-2026-1042',
  emailContent: '<p>We received your request</p>',
};

const row = {
  id: notification.notificationId,
  ticket_id: 1042,
  user_id: null,
  email_to: 'maya@example.com',
  subject: 'Ticket PPR-2026-1042',
  notification_type: 'ticket-created',
  email_content: '<p>We received your request</p>',
  sent_at: AT,
  idempotency_key: 'event-1:ticket-created',
};

describe('email log projection: given an event, the row operations', () => {
  it('NotificationSent inserts a successful attempt', () => {
    const event = recordedEvent('NotificationSent', notification, { occurredAt: AT });
    expect(emailLogProjection.project(event)).toEqual([
      {
        kind: 'insert',
        table: 'email_notifications',
        key: notification.notificationId,
        values: { ...row, success: true, error_message: null },
      },
    ]);
  });

  it('NotificationFailed inserts a failed attempt with its error', () => {
    const event = recordedEvent('NotificationFailed', { ...notification, errorMessage: 'connect ECONNREFUSED' }, { occurredAt: AT });
    expect(emailLogProjection.project(event)).toEqual([
      {
        kind: 'insert',
        table: 'email_notifications',
        key: notification.notificationId,
        values: { ...row, success: false, error_message: 'connect ECONNREFUSED' },
      },
    ]);
  });

  it('ignores ticket events', () => {
    const event = recordedEvent('TicketNotesUpdated', { ticketId: 1042, notes: 'Called back' });
    expect(emailLogProjection.project(event)).toEqual([]);
  });
});
