import type { MailMessage } from '../mail/mail.types';
import { type MailTemplateName, renderMailTemplate } from '../mail/templates';

/**
 * The account emails: the template files backend/src/mail/templates/<kind>.*.hbs (the kind is the template's
 * name), rendered on the one layout by mail/templates.ts.
 */

function message(kind: MailTemplateName, to: string, context: Readonly<Record<string, unknown>>): MailMessage {
  const { subject, text, html } = renderMailTemplate(kind, context);
  return { kind, to, subject, text, html };
}

export function verificationEmail(to: string, username: string, url: string, hours: number): MailMessage {
  return message('account-verification', to, { username, url, hours });
}

export function alreadyRegisteredEmail(to: string, loginUrl: string, resetUrl: string): MailMessage {
  return message('account-exists', to, { loginUrl, resetUrl });
}

export function passwordResetEmail(to: string, url: string, minutes: number): MailMessage {
  return message('password-reset', to, { url, minutes });
}

export function passwordChangedEmail(to: string): MailMessage {
  return message('password-changed', to, {});
}
