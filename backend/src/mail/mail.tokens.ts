/** Where messages go (`MailTransport`): SMTP, or the log only. */
export const MAIL_TRANSPORT = Symbol('MAIL_TRANSPORT');
