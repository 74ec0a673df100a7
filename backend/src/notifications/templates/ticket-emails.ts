import type { NotificationType } from '@ppr/contracts';
import { type RenderedEmail, renderMailTemplate } from '../../mail/templates';

/**
 * The ticket emails and the staff alert: the template files backend/src/mail/templates/<kind>.*.hbs, rendered
 * on the one layout by mail/templates.ts. This file gives them their context.
 */

export type { RenderedEmail } from '../../mail/templates';

/** Everything a template may show about the ticket. */
export interface TicketEmailContext {
  readonly ticketId: number;
  readonly reference: string;
  readonly contactName: string;
  readonly businessName: string;
  readonly email: string;
  readonly phone: string;
  readonly serviceCategory: string;
  readonly issueDescription: string;
  readonly status: string;
  /** `$49.00` for a payment-received email. */
  readonly amount?: string;
  /** A link to the ticket in the admin portal (staff alert). */
  readonly adminUrl?: string;
  /** How the fee was settled (staff alert): 'paid $49.00', 'waived (free diagnostic)'. */
  readonly settlement?: string;
  /** The conversation's message the email is about (ticket-reply, customer-message). */
  readonly message?: EmailMessage;
  /** ticket-reply: the public messages before it, newest first (at most three). */
  readonly earlier?: readonly EarlierMessage[];
  /** ticket-reply: the customer's ticket page. */
  readonly ticketUrl?: string;
  /** ticket-reply: a reply to the email is posted on the ticket (INBOUND_EMAIL_DOMAIN is set). */
  readonly replyByEmail?: boolean;
  /** customer-message: the message reopened the resolved ticket. */
  readonly reopened?: boolean;
}

export interface EmailMessage {
  readonly authorName: string;
  readonly body: string;
  readonly attachmentCount: number;
  readonly attachmentsPlural: boolean;
  readonly byEmail: boolean;
}

export interface EarlierMessage {
  readonly authorName: string;
  readonly body: string;
  /** When it was written, as the business's clock shows it: "Dec 7, 2026, 3:04 PM". */
  readonly when: string;
}

/** The customer emails (NotificationType: their attempts are events of the ticket), the staff alerts. */
export type EmailTemplateName = NotificationType | 'staff-alert' | 'customer-message';

const STATUS_LABELS: Record<string, string> = {
  pending_payment: 'Awaiting payment',
  active: 'Active',
  resolved: 'Resolved',
  canceled: 'Canceled',
};

export function renderEmail(name: EmailTemplateName, context: TicketEmailContext): RenderedEmail {
  return renderMailTemplate(name, { ...context, statusLabel: STATUS_LABELS[context.status] ?? context.status });
}
