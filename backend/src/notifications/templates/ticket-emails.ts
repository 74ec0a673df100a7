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
}

export type EmailTemplateName = NotificationType | 'staff-alert';

const STATUS_LABELS: Record<string, string> = {
  pending_payment: 'Awaiting payment',
  active: 'Active',
  resolved: 'Resolved',
  canceled: 'Canceled',
};

export function renderEmail(name: EmailTemplateName, context: TicketEmailContext): RenderedEmail {
  return renderMailTemplate(name, { ...context, statusLabel: STATUS_LABELS[context.status] ?? context.status });
}
