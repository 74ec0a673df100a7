/** notification_jobs (`NotificationJobs`). */
export const NOTIFICATION_JOBS = Symbol('NOTIFICATION_JOBS');
/** One attempt at one email (`NotificationSender`). */
export const NOTIFICATION_SENDER = Symbol('NOTIFICATION_SENDER');
/** The sagas and their worker (`NotificationSagas`). */
export const NOTIFICATION_SAGAS = Symbol('NOTIFICATION_SAGAS');
