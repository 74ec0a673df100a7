import {
  adminMessages,
  EMAIL_LOG_DEFAULT_LIMIT,
  EMAIL_LOG_MAX_LIMIT,
  emailMessages,
  emailNotificationListSchema,
  emailResendResultSchema,
} from '@ppr/contracts';
import { defineOpenApiFragment, error, ticketId, TICKET_NOT_FOUND } from '../openapi/openapi-fragment';

const TAG = 'Admin';
const NOT_LOGGED_IN = error(`No admin session (a customer's session is not one): "${adminMessages.notLoggedIn}"`);

/** The admin's email log (backend/src/notifications/email-log.controller.ts). */
export const notificationsOpenApi = defineOpenApiFragment({
  name: 'notifications',
  responses: { EmailNotificationList: emailNotificationListSchema, EmailResendResult: emailResendResultSchema },
  operations: [
    {
      method: 'get',
      path: '/api/admin/email-notifications',
      operationId: 'listEmailNotifications',
      auth: 'admin',
      tag: TAG,
      summary: 'The email log: the newest attempts to email customers about their tickets',
      description:
        "One entry per attempt (sent or failed, with the mail server's error), newest first, with the HTML as sent. Staff alerts and " +
        'account emails are not in it (they are in the mail log table, mail_messages).',
      parameters: [
        {
          name: 'limit',
          in: 'query',
          description: `How many entries (default ${EMAIL_LOG_DEFAULT_LIMIT})`,
          schema: { type: 'integer', minimum: 1, maximum: EMAIL_LOG_MAX_LIMIT, default: EMAIL_LOG_DEFAULT_LIMIT },
        },
      ],
      responses: {
        200: { description: 'The entries', schema: 'EmailNotificationList' },
        400: error('A bad limit ("limit must be ...") or an unknown query parameter'),
        401: NOT_LOGGED_IN,
      },
    },
    {
      method: 'get',
      path: '/api/admin/tickets/{id}/email-notifications',
      operationId: 'listEmailNotificationsForTicket',
      auth: 'admin',
      tag: TAG,
      summary: "A ticket's email log, newest first",
      parameters: [ticketId],
      responses: {
        200: { description: 'The entries (empty when no email was sent yet)', schema: 'EmailNotificationList' },
        401: NOT_LOGGED_IN,
        404: error(`"${TICKET_NOT_FOUND}" (also for an id that is not a ticket number)`),
      },
    },
    {
      method: 'post',
      path: '/api/admin/email-notifications/{id}/resend',
      operationId: 'resendEmailNotification',
      auth: 'admin',
      tag: TAG,
      summary: "Send an entry's email again, as a new attempt (one try, answered at once)",
      description: 'The same recipient, subject and content, with a new Message-ID; the attempt joins the log whatever its outcome.',
      parameters: [{ name: 'id', in: 'path', description: 'The log entry id (a uuid)' }],
      responses: {
        200: { description: `"${emailMessages.resent}" and the new entry`, schema: 'EmailResendResult' },
        401: NOT_LOGGED_IN,
        404: error(`"${emailMessages.notificationNotFound}" (also for an id that is not a uuid)`),
        409: error(
          `"${emailMessages.resendUnderWay}" (a resend of the same email is still pending: under way in another instance, or left by an app that stopped until the worker has made its one attempt)`,
        ),
        502: error(`The mail server refused or could not be reached: "${emailMessages.refused}: {its answer}"`),
      },
    },
  ],
});
