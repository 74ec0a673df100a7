import type { EventData } from '@ppr/contracts';
import { projectionSpecification } from '../testing/projection-specification';
import { recordedEvent } from '../testing/recorded-event';
import { aNotificationFailedEvent, aNotificationSentEvent, aTicketCreatedEvent, aTicketStatusChangedEvent } from '../testing/ticket-events';
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

describe("email log projection: given the attempts so far, when an attempt, the log's rows", () => {
  const given = projectionSpecification(emailLogProjection);
  const LATER = '2026-03-04T15:21:00.000Z';
  const RETRY_ID = '6b0f5c1e-2d6a-4a57-9d1e-1f4f0c0e8a22';

  const failed = aNotificationFailedEvent({ ...notification, errorMessage: 'connect ECONNREFUSED' }, { occurredAt: AT });
  const failedRow = { ...row, success: false, error_message: 'connect ECONNREFUSED' };
  const sent = aNotificationSentEvent(notification, { occurredAt: AT });
  const sentRow = { ...row, success: true, error_message: null };

  it('NotificationSent: the retry that went through is a row of its own, beside the failed attempt (same email, same key)', () => {
    given(failed)
      .when(aNotificationSentEvent({ ...notification, notificationId: RETRY_ID }, { occurredAt: LATER }))
      .then({ email_notifications: [failedRow, { ...sentRow, id: RETRY_ID, sent_at: LATER }] });
  });

  it("NotificationFailed: another email's failure is logged with its error, beside the emails sent", () => {
    const staffAlert = aNotificationFailedEvent(
      {
        ...notification,
        notificationId: RETRY_ID,
        idempotencyKey: 'event-2:staff-alert',
        notificationType: 'payment-received',
        emailTo: 'desk@potomacpc.example',
        errorMessage: '550 mailbox unavailable',
      },
      { occurredAt: LATER },
    );
    given(sent)
      .when(staffAlert)
      .then({
        email_notifications: [
          sentRow,
          {
            ...row,
            id: RETRY_ID,
            idempotency_key: 'event-2:staff-alert',
            notification_type: 'payment-received',
            email_to: 'desk@potomacpc.example',
            sent_at: LATER,
            success: false,
            error_message: '550 mailbox unavailable',
          },
        ],
      });
  });

  it('ticket events add no row and change none', () => {
    given(aTicketCreatedEvent(), sent)
      .when(aTicketStatusChangedEvent())
      .then({ email_notifications: [sentRow] });
  });
});
