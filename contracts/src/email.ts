import { z } from 'zod';
import { NOTIFICATION_TYPES } from './constants';

/**
 * The admin's email log (SPEC section 3, email_notifications; section 7, the email-notifications endpoints):
 * one entry per attempt to email a customer about a ticket, with the rendered HTML. Wording the spec does not
 * give is ours.
 */
export const emailMessages = {
  notificationNotFound: 'Email notification not found',
  resent: 'The email was sent again',
  /** Followed by the mail server's own answer. */
  refused: 'The email server refused the message',
  /** A resend of the same email is still pending (under way in another instance, or left by an app that stopped). */
  resendUnderWay: 'This email is already being sent again; its outcome will appear in the log.',
} as const;

export const EMAIL_LOG_DEFAULT_LIMIT = 20;
export const EMAIL_LOG_MAX_LIMIT = 200;

export const emailNotificationSchema = z.object({
  id: z.string(),
  ticketId: z.number().int().positive().nullable(),
  userId: z.number().int().positive().nullable(),
  emailTo: z.string(),
  subject: z.string(),
  notificationType: z.enum(NOTIFICATION_TYPES),
  /** The HTML part as it was sent. */
  emailContent: z.string(),
  sentAt: z.string(),
  success: z.boolean(),
  errorMessage: z.string().nullable(),
});
export type EmailNotification = z.infer<typeof emailNotificationSchema>;

export const emailNotificationListSchema = z.array(emailNotificationSchema);
export type EmailNotificationList = z.infer<typeof emailNotificationListSchema>;

/** `GET /api/admin/email-notifications?limit=`: newest first, default 20. */
export const emailNotificationListQuerySchema = z.strictObject({
  limit: z
    .string({ error: 'limit must be a whole number' })
    .regex(/^[0-9]{1,9}$/, 'limit must be a whole number')
    .transform(Number)
    .pipe(z.number().min(1, 'limit must be at least 1').max(EMAIL_LOG_MAX_LIMIT, `limit must be at most ${EMAIL_LOG_MAX_LIMIT}`))
    .default(EMAIL_LOG_DEFAULT_LIMIT),
});
export type EmailNotificationListQuery = z.infer<typeof emailNotificationListQuerySchema>;

/** `POST /api/admin/email-notifications/:id/resend`: the new attempt (a 502 with the server's refusal otherwise). */
export const emailResendResultSchema = z.object({
  message: z.string(),
  notification: emailNotificationSchema,
});
export type EmailResendResult = z.infer<typeof emailResendResultSchema>;
