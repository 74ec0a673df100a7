/** notification_jobs (`NotificationJobs`). */
export const NOTIFICATION_JOBS = Symbol('NOTIFICATION_JOBS');
/** The email outbox's attempts and records (`NotificationSender`). */
export const NOTIFICATION_SENDER = Symbol('NOTIFICATION_SENDER');
/** The email outbox's sender (`OutboxSender` of `NotificationSender`), a worker of the processing host. */
export const EMAIL_OUTBOX = Symbol('EMAIL_OUTBOX');
/** Where other modules add emails to the outbox with their own writes (`EmailQueuePort`). */
export const EMAIL_QUEUE = Symbol('EMAIL_QUEUE');
