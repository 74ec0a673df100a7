import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { EVENT_SCHEMAS, parseEventData, ticketStreamId, TICKET_EVENT_TYPES, type TicketEventType } from '@ppr/contracts';
import type { RequestContext } from '../common/request-context';
import { EVENT_STORE } from '../event-store/event-store.module';
import {
  type EventStore,
  type NewEvent,
  type Position,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '../event-store/event-store.port';
import { fold, initialState, type Ticket, type TicketEvent } from './domain/ticket';
import { decide, type TicketCommand } from './domain/ticket.decide';

export interface CommandResult {
  readonly ticket: Ticket;
  readonly events: readonly TicketEvent[];
  /** Position of the last appended event; null when the command changed nothing. */
  readonly position: Position | null;
}

/** Conflicts retried before giving up: another writer changed the ticket between our read and our append. */
const MAX_ATTEMPTS = 4;

function isTicketEventType(type: string): type is TicketEventType {
  return (TICKET_EVENT_TYPES as readonly string[]).includes(type);
}

/** Reads a stored event as a domain event, validating its payload against its contract. */
export function toTicketEvent(recorded: RecordedEvent): TicketEvent | null {
  if (!isTicketEventType(recorded.type)) return null;
  return { type: recorded.type, data: parseEventData(recorded.type, recorded.data) } as TicketEvent;
}

/**
 * Loads a ticket's stream, folds it, decides, and appends with the expected revision. On a concurrency
 * conflict it reloads and decides again, a bounded number of times.
 */
@Injectable()
export class TicketRepository {
  private readonly logger = new Logger(TicketRepository.name);

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async load(ticketId: number): Promise<{ ticket: Ticket; revision: number | null }> {
    const recorded = await this.store.readStream(ticketStreamId(ticketId));
    const events = recorded.map(toTicketEvent).filter((event): event is TicketEvent => event !== null);
    const last = recorded[recorded.length - 1];
    return { ticket: fold(events, initialState), revision: last ? last.revision : null };
  }

  async execute(ticketId: number, command: TicketCommand, context: RequestContext, now: Date): Promise<CommandResult> {
    const causationId = randomUUID();
    for (let attempt = 1; ; attempt++) {
      const { ticket, revision } = await this.load(ticketId);
      const events = decide(command, ticket);
      if (events.length === 0) return { ticket, events, position: null };
      const toAppend: NewEvent[] = events.map((event) => ({
        id: randomUUID(),
        type: event.type,
        data: event.data,
        metadata: {
          actor: context.actor,
          correlationId: context.correlationId,
          causationId,
          occurredAt: now.toISOString(),
          schemaVersion: EVENT_SCHEMAS[event.type].version,
        },
      }));
      try {
        const result = await this.store.append(ticketStreamId(ticketId), toAppend, revision ?? 'no_stream');
        return { ticket: fold(events, ticket), events, position: result.position };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
        this.logger.debug(`Ticket ${ticketId} changed under command ${command.type}; retrying (${attempt})`);
      }
    }
  }
}
