import { type EventData, formatUsd, parseEventData, ticketReference, type NotificationType } from '@ppr/contracts';
import type { RecordedEvent } from '../../event-store/event-store.port';
import type { EarlierMessage, EmailMessage, EmailTemplateName, TicketEmailContext } from '../templates/ticket-emails';

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
  /** The engineer on the ticket at that revision (null: nobody). */
  readonly engineerId: number | null;
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
  /** Replies to it are posted on the ticket: its Reply-To is the ticket's reply address (conversation/reply-address.ts). */
  readonly replyToTicket?: boolean;
}

/** The event types that may lead to an email. */
export const TICKET_EMAIL_EVENTS: ReadonlySet<string> = new Set([
  'TicketCreated',
  'TicketPaymentReceived',
  'TicketFeeWaived',
  'TicketStatusChanged',
  'TicketMessagePosted',
]);

/** The ticket as it was up to `revision` of its stream (the email speaks of the ticket at that event), or null. */
export function ticketFacts(stream: readonly RecordedEvent[], revision: number): TicketFacts | null {
  const upTo = stream.filter((event) => event.revision <= revision);
  const created = upTo.find((event) => event.type === 'TicketCreated');
  if (!created) return null;
  const data = parseEventData('TicketCreated', created.data);
  const links = upTo.filter((event) => event.type === 'TicketLinkedToCustomer');
  const link = links.length > 0 ? parseEventData('TicketLinkedToCustomer', links[links.length - 1]!.data) : null;
  const assignments = upTo.filter((event) => event.type === 'TicketEngineerAssigned');
  const assigned = assignments.length > 0 ? parseEventData('TicketEngineerAssigned', assignments[assignments.length - 1]!.data) : null;
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
    engineerId: assigned?.engineerId ?? null,
  };
}

const PAYMENT_EVENTS = new Set(['TicketPaymentReceived', 'TicketFeeWaived', 'TicketPaymentUpdated']);

export interface PlanOptions {
  readonly staffEmails: readonly string[];
  /** APP_BASE_URL without a trailing slash. */
  readonly baseUrl: string;
  /** Customers may answer a reply by email (INBOUND_EMAIL_DOMAIN is set). */
  readonly replyByEmail?: boolean;
  /**
   * The address of the engineer on the ticket, when the event is a customer's message and that engineer is active
   * (the saga looks it up): their alert goes to them instead of STAFF_ALERT_EMAILS.
   */
  readonly assignedEngineerEmail?: string | null;
}

/** How many earlier messages a reply email quotes. */
export const QUOTED_MESSAGES = 3;

const BUSINESS_TIME = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', dateStyle: 'medium', timeStyle: 'short' });

/** Two events of one command: the second right after the first, with the same cause. */
function sameCommand(first: RecordedEvent | undefined, second: RecordedEvent): boolean {
  return first !== undefined && first.revision === second.revision - 1 && first.metadata.causationId === second.metadata.causationId;
}

function emailMessage(data: EventData<'TicketMessagePosted'>): EmailMessage {
  const count = data.attachments.length;
  return {
    authorName: data.author.name,
    body: data.body,
    attachmentCount: count,
    attachmentsPlural: count > 1,
    byEmail: data.via === 'email',
  };
}

/** The public messages of the stream before `revision`, newest first, at most QUOTED_MESSAGES. */
function earlierMessages(stream: readonly RecordedEvent[], revision: number): EarlierMessage[] {
  return stream
    .filter((event) => event.type === 'TicketMessagePosted' && event.revision < revision)
    .map((event) => ({ event, data: parseEventData('TicketMessagePosted', event.data) }))
    .filter(({ data }) => data.visibility === 'public')
    .slice(-QUOTED_MESSAGES)
    .reverse()
    .map(({ event, data }) => ({
      authorName: data.author.name,
      body: data.body,
      when: BUSINESS_TIME.format(new Date(event.metadata.occurredAt)),
    }));
}

/**
 * Which emails one ticket event sends: ticket-created to the customer; payment-received to the customer and a
 * staff alert; a staff alert for a waived fee; status-update for every status change, or resolved when the
 * status becomes resolved. The activation that comes with a payment or waiver in the same command is not a
 * separate status update: the payment email (or, for a waiver, the ticket-created email) already says it.
 * A public staff message is a ticket-reply to the customer (quoting the earlier messages; Reply-To the ticket's
 * reply address when replies by email are set up); a customer's message is a customer-message alert to the
 * assigned engineer, or to STAFF_ALERT_EMAILS when nobody (active) is assigned;
 * an internal note sends nothing, nor does the reopening a customer's message causes.
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
      // A customer's message reopened the ticket: they know, and staff's alert of the message says so.
      if (previous?.type === 'TicketMessagePosted' && sameCommand(previous, event)) return [];
      return [customer(data.to === 'resolved' ? 'resolved' : 'status-update', { ...base, status: data.to })];
    }
    case 'TicketMessagePosted': {
      const data = parseEventData('TicketMessagePosted', event.data);
      if (data.visibility !== 'public') return [];
      const message = emailMessage(data);
      if (data.author.kind === 'staff') {
        const context: TicketEmailContext = {
          ...base,
          message,
          earlier: earlierMessages(stream, event.revision),
          ticketUrl: `${options.baseUrl}/ticket/${facts.ticketId}`,
          replyByEmail: options.replyByEmail === true,
        };
        return [{ ...customer('ticket-reply', context), replyToTicket: options.replyByEmail === true }];
      }
      const next = stream.find((e) => e.revision === event.revision + 1);
      const reopened = next?.type === 'TicketStatusChanged' && sameCommand(event, next);
      const recipients = options.assignedEngineerEmail ? [options.assignedEngineerEmail] : options.staffEmails;
      return recipients.map((to) => ({
        kind: 'customer-message' as const,
        to,
        customer: false,
        userId: null,
        context: { ...base, message, reopened, adminUrl: `${options.baseUrl}/admin/dashboard?ticket=${facts.ticketId}` },
      }));
    }
    default:
      return [];
  }
}
