import { type Actor, type EventData, EVENT_SCHEMAS, type EventType, formatUsd, type HistoryEntry, isKnownEventType } from '@ppr/contracts';
import { comparePositions, type RecordedEvent } from '../../event-store/event-store.port';

/** A value as the history shows it. */
type Value = string | number | boolean | null;

/**
 * The ticket as an admin sees it (the API's field names), rebuilt event by event so that each entry can
 * say what a field was before and after. It follows the same rules as the tickets read table.
 */
interface View {
  businessName: Value;
  contactName: Value;
  email: Value;
  phone: Value;
  address: Value;
  serviceCategory: Value;
  issueDescription: Value;
  userId: Value;
  status: Value;
  paymentStatus: Value;
  stripePaymentIntentId: Value;
  paymentNotes: Value;
  feeWaiver: Value;
  adminNotes: Value;
  engineerId: Value;
  engineerName: Value;
}

const EMPTY: View = {
  businessName: null,
  contactName: null,
  email: null,
  phone: null,
  address: null,
  serviceCategory: null,
  issueDescription: null,
  userId: null,
  status: null,
  paymentStatus: null,
  stripePaymentIntentId: null,
  paymentNotes: null,
  feeWaiver: null,
  adminNotes: null,
  engineerId: null,
  engineerName: null,
};

/** Names the history shows next to ids: admins (actors) and engineers. */
export interface HistoryNames {
  readonly admins: ReadonlyMap<number, string>;
  readonly engineers: ReadonlyMap<number, string>;
}

type Known = { [T in EventType]: { readonly type: T; readonly data: EventData<T> } }[EventType];

const WAIVERS = { free_diagnostic: 'free diagnostic', zero_cost: '$0 cost' } as const;

/** The view after the event, and one sentence about it. */
function apply(view: View, event: Known, names: HistoryNames): { view: View; summary: string } {
  switch (event.type) {
    case 'TicketCreated': {
      const { data } = event;
      return {
        view: {
          ...view,
          businessName: data.businessName,
          contactName: data.contactName,
          email: data.email,
          phone: data.phone,
          address: data.address,
          serviceCategory: data.serviceCategory,
          issueDescription: data.issueDescription,
          userId: data.userId,
          status: 'pending_payment',
          paymentStatus: 'pending',
        },
        summary: `Support request submitted (diagnostic fee ${formatUsd(data.feeCents)})`,
      };
    }
    case 'TicketPaymentReceived':
      return {
        view: { ...view, paymentStatus: 'completed', stripePaymentIntentId: event.data.paymentIntentId },
        summary: `Payment of ${formatUsd(event.data.amountCents)} received (${event.data.paymentIntentId})`,
      };
    case 'TicketFeeWaived':
      return {
        view: {
          ...view,
          paymentStatus: 'completed',
          feeWaiver: event.data.kind,
          paymentNotes: event.data.notes,
          stripePaymentIntentId: event.data.paymentIntentId ?? view.stripePaymentIntentId,
        },
        summary: `Fee waived: ${WAIVERS[event.data.kind]}`,
      };
    case 'TicketPaymentUpdated':
      return {
        view: {
          ...view,
          paymentStatus: event.data.paymentStatus,
          stripePaymentIntentId: event.data.stripePaymentIntentId,
          paymentNotes: event.data.paymentNotes,
          feeWaiver: null,
        },
        summary: `Payment set to ${event.data.paymentStatus} by hand`,
      };
    case 'TicketPaymentRefunded':
      return {
        view: {
          ...view,
          paymentStatus: 'refunded',
          paymentNotes: event.data.reason,
          feeWaiver: null,
          stripePaymentIntentId: event.data.paymentIntentId ?? view.stripePaymentIntentId,
        },
        summary: `${formatUsd(event.data.amountCents)} refunded${event.data.reason ? `: ${event.data.reason}` : ''}`,
      };
    case 'TicketStatusChanged':
      return {
        view: { ...view, status: event.data.to },
        summary: `Status changed from ${event.data.from} to ${event.data.to}`,
      };
    case 'TicketNotesUpdated':
      return {
        view: { ...view, adminNotes: event.data.notes },
        summary: event.data.notes ? 'Admin notes updated' : 'Admin notes cleared',
      };
    case 'TicketLinkedToCustomer':
      return {
        view: { ...view, userId: event.data.userId },
        summary: `Linked to customer account #${event.data.userId}`,
      };
    case 'TicketEngineerAssigned': {
      const { engineerId } = event.data;
      const name = engineerId === null ? null : (names.engineers.get(engineerId) ?? null);
      return {
        view: { ...view, engineerId, engineerName: name },
        summary: engineerId === null ? 'Engineer taken off the ticket' : `Engineer ${name ?? `#${engineerId}`} assigned`,
      };
    }
    case 'TicketResponded':
      return { view, summary: 'First staff response after payment (the response clock stopped)' };
    case 'TicketMessagePosted': {
      const { author, visibility, via, attachments } = event.data;
      const what =
        visibility === 'internal' ? 'Internal note' : author.kind === 'customer' ? 'Message from the customer' : 'Reply to the customer';
      const files = attachments.length === 0 ? '' : ` with ${attachments.length} attachment${attachments.length === 1 ? '' : 's'}`;
      return { view, summary: `${what} by ${author.name}${files}${via === 'email' ? ' (by email)' : ''}` };
    }
    case 'NotificationSent':
      return {
        view,
        summary: `Email "${event.data.subject}" (${event.data.notificationType}) sent to ${event.data.emailTo}`,
      };
    case 'NotificationFailed':
      return {
        view,
        summary: `Email "${event.data.subject}" (${event.data.notificationType}) to ${event.data.emailTo} failed: ${event.data.errorMessage}`,
      };
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}

/** The stored event as a known, valid payload; null for a type this version does not know or a payload it cannot read. */
function readable(event: RecordedEvent): Known | null {
  if (!isKnownEventType(event.type)) return null;
  const parsed = EVENT_SCHEMAS[event.type].schema.safeParse(event.data);
  return parsed.success ? ({ type: event.type, data: parsed.data } as Known) : null;
}

function actorOf(actor: Actor, names: HistoryNames): HistoryEntry['actor'] {
  const name = actor.kind === 'admin' && actor.id !== null ? (names.admins.get(Number(actor.id)) ?? null) : null;
  return { kind: actor.kind, id: actor.id, name };
}

/** Admin ids named as actors in these events (to look their usernames up). */
export function actorAdminIds(events: readonly RecordedEvent[]): number[] {
  const ids = new Set<number>();
  for (const event of events) {
    const { actor } = event.metadata;
    if (actor.kind === 'admin' && actor.id !== null && /^[1-9][0-9]{0,9}$/.test(actor.id)) ids.add(Number(actor.id));
  }
  return [...ids];
}

/** Engineer ids these events name (to look their names up). */
export function engineerIds(events: readonly RecordedEvent[]): number[] {
  const ids = new Set<number>();
  for (const event of events) {
    const known = readable(event);
    if (known?.type === 'TicketEngineerAssigned' && known.data.engineerId !== null) ids.add(known.data.engineerId);
  }
  return [...ids];
}

/**
 * A ticket's events and its emails' outcomes as one timeline. Each stream keeps its own order; the two are
 * interleaved by when each event happened, and by the global order at the same moment. The global order
 * alone is a commit order: an email's outcome, stamped and appended in a millisecond, can commit ahead of an
 * admin's command that was stamped a few milliseconds earlier and was still deciding, which would show the
 * timeline's times going backwards.
 */
export function timeline(ticket: readonly RecordedEvent[], emails: readonly RecordedEvent[]): RecordedEvent[] {
  const at = (event: RecordedEvent): number => Date.parse(event.metadata.occurredAt);
  const merged: RecordedEvent[] = [];
  let i = 0;
  let j = 0;
  while (i < ticket.length || j < emails.length) {
    const next = ticket[i];
    const email = emails[j];
    const emailFirst =
      email !== undefined &&
      (next === undefined || at(email) < at(next) || (at(email) === at(next) && comparePositions(email.position, next.position) < 0));
    if (emailFirst) {
      merged.push(email);
      j += 1;
    } else {
      merged.push(next!);
      i += 1;
    }
  }
  return merged;
}

/**
 * A ticket's timeline from its events, oldest first: what happened, when, who did it, and each field it
 * changed with the value before and after. Events this version cannot read are shown, not skipped (an
 * audit trail with silent holes would be worse than one with an unexplained line).
 */
export function ticketHistory(events: readonly RecordedEvent[], names: HistoryNames): HistoryEntry[] {
  let view = EMPTY;
  return events.map((event) => {
    const base = {
      eventId: event.id,
      type: event.type,
      occurredAt: event.metadata.occurredAt,
      actor: actorOf(event.metadata.actor, names),
    };
    const known = readable(event);
    if (!known) return { ...base, summary: `${event.type} (not shown: this version cannot read it)`, changes: [] };
    const before = view;
    const applied = apply(view, known, names);
    view = applied.view;
    const changes = (Object.keys(before) as (keyof View)[])
      .filter((field) => before[field] !== view[field])
      .map((field) => ({ field, before: before[field], after: view[field] }));
    return { ...base, summary: applied.summary, changes };
  });
}
