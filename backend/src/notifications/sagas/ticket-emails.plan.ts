import { formatUsd, parseEventData, ticketReference, type NotificationType } from '@ppr/contracts';
import type { RecordedEvent } from '../../event-store/event-store.port';
import type { EmailTemplateName, TicketEmailContext } from '../templates/ticket-emails';

/** What the ticket emails need to know about a ticket, folded from its stream. */
export interface TicketFacts {
  readonly ticketId: number;
  readonly reference: string;
  readonly contactName: string;
  readonly businessName: string;
  readonly email: string;
  readonly phone: string;
  readonly serviceCategory: string;
  readonly issueDescription: string;
  readonly userId: number | null;
}

/** One email the saga decided to send because of one event. */
export interface PlannedEmail {
  readonly kind: EmailTemplateName;
  readonly to: string;
  /** A customer email about a ticket (its attempts are events the admin's email log shows); false: a staff alert. */
  readonly customer: boolean;
  /** The customer account the email is about (customer emails of a linked ticket). */
  readonly userId: number | null;
  readonly context: TicketEmailContext;
}

/** The event types that may lead to an email. */
export const TICKET_EMAIL_EVENTS: ReadonlySet<string> = new Set([
  'TicketCreated',
  'TicketPaymentReceived',
  'TicketFeeWaived',
  'TicketStatusChanged',
]);

/** The ticket as it was up to `revision` of its stream (the email speaks of the ticket at that event), or null. */
export function ticketFacts(stream: readonly RecordedEvent[], revision: number): TicketFacts | null {
  const upTo = stream.filter((event) => event.revision <= revision);
  const created = upTo.find((event) => event.type === 'TicketCreated');
  if (!created) return null;
  const data = parseEventData('TicketCreated', created.data);
  const links = upTo.filter((event) => event.type === 'TicketLinkedToCustomer');
  const link = links.length > 0 ? parseEventData('TicketLinkedToCustomer', links[links.length - 1]!.data) : null;
  return {
    ticketId: data.ticketId,
    reference: ticketReference(data.ticketId, created.metadata.occurredAt),
    contactName: data.contactName,
    businessName: data.businessName,
    email: data.email,
    phone: data.phone,
    serviceCategory: data.serviceCategory,
    issueDescription: data.issueDescription,
    userId: link?.userId ?? data.userId,
  };
}

const PAYMENT_EVENTS = new Set(['TicketPaymentReceived', 'TicketFeeWaived', 'TicketPaymentUpdated']);

export interface PlanOptions {
  readonly staffEmails: readonly string[];
  /** APP_BASE_URL without a trailing slash. */
  readonly baseUrl: string;
}

/**
 * Which emails one ticket event sends: ticket-created to the customer; payment-received to the customer and a
 * staff alert; a staff alert for a waived fee; status-update for every status change, or resolved when the
 * status becomes resolved. The activation that comes with a payment or waiver in the same command is not a
 * separate status update: the payment email (or, for a waiver, the ticket-created email) already says it.
 */
export function planTicketEmails(event: RecordedEvent, stream: readonly RecordedEvent[], options: PlanOptions): PlannedEmail[] {
  if (!TICKET_EMAIL_EVENTS.has(event.type)) return [];
  const facts = ticketFacts(stream, event.revision);
  if (!facts) return [];
  const base: TicketEmailContext = { ...facts, status: 'pending_payment' };
  const customer = (kind: NotificationType, context: TicketEmailContext): PlannedEmail => ({
    kind,
    to: facts.email,
    customer: true,
    userId: facts.userId,
    context,
  });
  const staff = (settlement: string): PlannedEmail[] =>
    options.staffEmails.map((to) => ({
      kind: 'staff-alert' as const,
      to,
      customer: false,
      userId: null,
      context: { ...base, status: 'active', settlement, adminUrl: `${options.baseUrl}/admin/dashboard?ticket=${facts.ticketId}` },
    }));

  switch (event.type) {
    case 'TicketCreated':
      return [customer('ticket-created', base)];
    case 'TicketPaymentReceived': {
      const data = parseEventData('TicketPaymentReceived', event.data);
      const amount = formatUsd(data.amountCents);
      return [customer('payment-received', { ...base, status: 'active', amount }), ...staff(`paid (${amount})`)];
    }
    case 'TicketFeeWaived': {
      const data = parseEventData('TicketFeeWaived', event.data);
      return staff(data.kind === 'free_diagnostic' ? 'waived (free diagnostic)' : 'waived ($0 cost)');
    }
    case 'TicketStatusChanged': {
      const data = parseEventData('TicketStatusChanged', event.data);
      const previous = stream.find((e) => e.revision === event.revision - 1);
      const withPayment =
        data.from === 'pending_payment' &&
        data.to === 'active' &&
        previous !== undefined &&
        PAYMENT_EVENTS.has(previous.type) &&
        previous.metadata.causationId === event.metadata.causationId;
      if (withPayment) return [];
      return [customer(data.to === 'resolved' ? 'resolved' : 'status-update', { ...base, status: data.to })];
    }
    default:
      return [];
  }
}
