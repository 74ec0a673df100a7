import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { EVENT_SCHEMAS, parseEventData, ticketStreamId, TICKET_EVENT_TYPES, type TicketEventType } from '@ppr/contracts';
import type { Clock } from '../common/clock';
import { CLOCK } from '../common/common.tokens';
import type { RequestContext } from '../common/request-context';
import {
  type EventStore,
  type NewEvent,
  type Position,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '../event-store/event-store.port';
import { EVENT_STORE } from '../event-store/event-store.tokens';
import type { Ticket, TicketEvent } from './domain/ticket';
import { type CreateTicket, ticketDecider, type TicketCommand } from './domain/ticket.decide';
import { TICKET_RETRY_POLICY } from './tickets.tokens';

export interface CommandResult {
  readonly ticket: Ticket;
  readonly events: readonly TicketEvent[];
  /** Position of the last appended event; null when the command changed nothing. */
  readonly position: Position | null;
  /**
   * Position of the ticket's last event as this result knows it: the last appended one, or, when the command
   * changed nothing, the last one its decision read (another writer's, maybe not yet on the read side). An
   * answer read from the read side shows this result once the read side has applied it; null: no stream.
   */
  readonly current: Position | null;
}

/** How often and how patiently a command is retried when another writer changed the ticket first. */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  /** Backoff before retry n (from 1) is random in [0, min(maxDelayMs, baseDelayMs * 2^(n-1))]: full jitter. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly random?: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 5, maxDelayMs: 100 };

/** Every attempt met a newer revision of the ticket: the caller should reload and try again. */
export class TicketConflictError extends Error {
  override readonly name = 'TicketConflictError';
  constructor(
    readonly ticketId: number,
    readonly attempts: number,
    readonly conflict: WrongExpectedRevisionError,
  ) {
    super(`Ticket ${ticketId} kept changing under the command (${attempts} attempts)`);
  }
}

function isTicketEventType(type: string): type is TicketEventType {
  return (TICKET_EVENT_TYPES as readonly string[]).includes(type);
}

/** Reads a stored event as a domain event, validating its payload against its contract. */
export function toTicketEvent(recorded: RecordedEvent): TicketEvent | null {
  if (!isTicketEventType(recorded.type)) return null;
  return { type: recorded.type, data: parseEventData(recorded.type, recorded.data) } as TicketEvent;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Ticket numbers: `ticket_id_seq`; streams `ticket-{id}` (`ticketStreamId`); every ticket event has `ticketId`. */
const TICKET_NUMBERS = { sequence: 'ticket_id_seq', streamPrefix: ticketStreamId(0).slice(0, -1), idField: 'ticketId' } as const;

/** Two numbers no ticket has, to decide a creation before its number is known. */
const PROVISIONAL_IDS = [2_147_483_646, 2_147_483_647] as const;

/** The events with `ticketId` set to `ticketId` where their data has one (as `es_append_numbered` does). */
function numbered(events: readonly TicketEvent[], ticketId: number): TicketEvent[] {
  return events.map((event) => ('ticketId' in event.data ? ({ ...event, data: { ...event.data, ticketId } } as TicketEvent) : event));
}

/**
 * The one path every ticket command takes: load the stream, fold it with the decider's `evolve`,
 * `decide`, append with the expected revision (a creation skips the load: its stream cannot exist yet). Only a wrong-expected-revision conflict is retried, after
 * a jittered backoff and a bounded number of times; a domain error or any other failure is the answer.
 * Events are stamped with the injected clock's time, so tests assert exact timestamps.
 */
@Injectable()
export class TicketCommandHandler {
  private readonly logger = new Logger(TicketCommandHandler.name);
  private readonly retry: RetryPolicy;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(TICKET_RETRY_POLICY) retry?: RetryPolicy,
  ) {
    this.retry = retry ?? DEFAULT_RETRY_POLICY;
  }

  async load(ticketId: number): Promise<{ ticket: Ticket; revision: number | null; position: Position | null }> {
    const recorded = await this.store.readStream(ticketStreamId(ticketId));
    let ticket = ticketDecider.initialState;
    for (const event of recorded) {
      const domainEvent = toTicketEvent(event);
      if (domainEvent) ticket = ticketDecider.evolve(ticket, domainEvent);
    }
    const last = recorded[recorded.length - 1];
    return { ticket, revision: last ? last.revision : null, position: last ? last.position : null };
  }

  async execute(ticketId: number, command: TicketCommand, context: RequestContext): Promise<CommandResult> {
    const causationId = randomUUID();
    if (command.type === 'CreateTicket') {
      // A ticket being created has no stream to read: decide on the empty state and append with 'no_stream'.
      // If the stream exists after all (a pre-allocated id used before: an idempotent retry), the append
      // fails and the usual path below loads it, so the decider answers ticket_already_exists.
      try {
        return await this.decideAndAppend(ticketId, command, context, causationId, {
          ticket: ticketDecider.initialState,
          revision: null,
          position: null,
        });
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
      }
    }
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.decideAndAppend(ticketId, command, context, causationId, await this.load(ticketId));
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        if (attempt >= this.retry.maxAttempts) throw new TicketConflictError(ticketId, attempt, error);
        this.logger.debug(`Ticket ${ticketId} changed under ${command.type}; retry ${attempt}`);
        await sleep(this.backoff(attempt));
      }
    }
  }

  /**
   * Creates a ticket with a new number. Where the store numbers streams itself (`supports.numbering`), the
   * number and the append are one statement: the creation is decided with a provisional number, and the store
   * puts the real one in every event's `ticketId`. That is only done when deciding with two different
   * provisional numbers gives events that differ in `ticketId` alone (so the decider uses the number for
   * nothing else); otherwise, and on other stores, the number is allocated first (`allocate`).
   */
  async create(
    commandFor: (ticketId: number) => CreateTicket,
    context: RequestContext,
    allocate: () => Promise<number>,
  ): Promise<CommandResult & { readonly ticketId: number }> {
    const store = this.store;
    const [first, second] = PROVISIONAL_IDS;
    let provisional: TicketEvent[] | null = null;
    if (store.supports.numbering) {
      try {
        const events = ticketDecider.decide(commandFor(first), ticketDecider.initialState);
        const other = ticketDecider.decide(commandFor(second), ticketDecider.initialState);
        if (JSON.stringify(numbered(events, second)) === JSON.stringify(other)) provisional = events;
      } catch {
        // Refused with a provisional number: the usual path decides with the real one.
      }
    }
    if (!provisional) {
      const ticketId = await allocate();
      return { ...(await this.execute(ticketId, commandFor(ticketId), context)), ticketId };
    }
    const toAppend = this.toAppend(provisional, context, randomUUID());
    const result = await store.appendNumbered(TICKET_NUMBERS, toAppend);
    const ticketId = result.number;
    const events = ticketDecider.decide(commandFor(ticketId), ticketDecider.initialState);
    if (JSON.stringify(events) !== JSON.stringify(numbered(provisional, ticketId))) {
      this.logger.error(`Ticket ${ticketId}: the decider's events for its number differ from the ones stored`);
    }
    return {
      ticketId,
      ticket: events.reduce(ticketDecider.evolve, ticketDecider.initialState),
      events,
      position: result.position,
      current: result.position,
    };
  }

  /** Decides on the loaded state and appends with its revision (a conflict is the caller's to retry). */
  private async decideAndAppend(
    ticketId: number,
    command: TicketCommand,
    context: RequestContext,
    causationId: string,
    { ticket, revision, position }: { ticket: Ticket; revision: number | null; position: Position | null },
  ): Promise<CommandResult> {
    const events = ticketDecider.decide(command, ticket);
    if (events.length === 0) return { ticket, events, position: null, current: position };
    const result = await this.store.append(ticketStreamId(ticketId), this.toAppend(events, context, causationId), revision ?? 'no_stream');
    return { ticket: events.reduce(ticketDecider.evolve, ticket), events, position: result.position, current: result.position };
  }

  /** Events as stored: ids, and metadata stamped with the clock, the actor, the correlation and causation ids. */
  private toAppend(events: readonly TicketEvent[], context: RequestContext, causationId: string): NewEvent[] {
    const occurredAt = this.clock.now().toISOString();
    return events.map((event) => ({
      id: randomUUID(),
      type: event.type,
      data: event.data,
      metadata: {
        actor: context.actor,
        correlationId: context.correlationId,
        causationId,
        occurredAt,
        schemaVersion: EVENT_SCHEMAS[event.type].version,
      },
    }));
  }

  private backoff(attempt: number): number {
    const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
    return Math.floor((this.retry.random ?? Math.random)() * ceiling);
  }
}
