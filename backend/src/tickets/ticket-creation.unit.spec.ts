import { Logger } from '@nestjs/common';
import { ticketStreamId } from '@ppr/contracts';
import { fixedClock } from '../common/clock';
import type { RequestContext } from '../common/request-context';
import type { NewEvent, NumberedAppend, NumberedStream } from '../event-store/event-store.port';
import { InMemoryEventStore } from '../event-store/in-memory-event-store';
import { type CreateTicket, TicketDomainError } from './domain/ticket.decide';
import { TicketCommandHandler } from './ticket-command.handler';
import { aCreateTicketCommand } from '../../test/builders';

/**
 * Issue 10, finding 3: a creation reads no stream (it cannot exist yet), and where the store numbers new
 * streams itself, the ticket number and the append are one statement.
 */
const context: RequestContext = { actor: { kind: 'visitor', id: null }, correlationId: 'corr-create' };
const noRetryDelay = { maxAttempts: 5, baseDelayMs: 0, maxDelayMs: 0 };

const createFor =
  (waiveFee: boolean) =>
  (ticketId: number): CreateTicket =>
    aCreateTicketCommand(ticketId, { waiveFee });

/** The in-memory store (which numbers new streams itself, as the PostgreSQL adapter does), counting reads. */
class NumberingStore extends InMemoryEventStore {
  reads = 0;
  numbered: NumberedStream[] = [];

  override async readStream(streamId: string, fromRevision?: number) {
    this.reads++;
    return super.readStream(streamId, fromRevision);
  }

  override async appendNumbered(allocation: NumberedStream, events: readonly NewEvent[]): Promise<NumberedAppend> {
    this.numbered.push(allocation);
    return super.appendNumbered(allocation, events);
  }
}

/** A store that does not number streams (as EventStoreDB). */
class NotNumberingStore extends InMemoryEventStore {
  override readonly supports = { transactions: false, numbering: false };
}

describe('creating a ticket', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('reads no stream for a creation with a given id', async () => {
    const store = new NumberingStore();
    const handler = new TicketCommandHandler(store, fixedClock('2026-03-04T05:06:07.089Z'), noRetryDelay);
    const result = await handler.execute(1001, createFor(false)(1001), context);
    expect(result.events.map((e) => e.type)).toEqual(['TicketCreated']);
    expect(store.reads).toBe(0);
    expect((await store.readStream(ticketStreamId(1001))).map((e) => e.revision)).toEqual([0]);
  });

  it('answers ticket_already_exists for an id that has a ticket (the idempotent retry), loading it only then', async () => {
    const store = new NumberingStore();
    const handler = new TicketCommandHandler(store, fixedClock('2026-03-04T05:06:07.089Z'), { ...noRetryDelay, maxAttempts: 1 });
    await handler.execute(1002, createFor(false)(1002), context);
    const again = handler.execute(1002, createFor(false)(1002), context);
    await expect(again).rejects.toBeInstanceOf(TicketDomainError);
    await again.catch((error: TicketDomainError) => expect(error.code).toBe('ticket_already_exists'));
    expect(store.reads).toBe(1);
    expect(await store.readStream(ticketStreamId(1002))).toHaveLength(1);
  });

  it('numbers the ticket in the append itself where the store can, with the number in every event', async () => {
    const store = new NumberingStore();
    const handler = new TicketCommandHandler(store, fixedClock('2026-03-04T05:06:07.089Z'), noRetryDelay);
    const allocate = jest.fn(() => Promise.resolve(1));
    const result = await handler.create(createFor(true), context, allocate);

    expect(allocate).not.toHaveBeenCalled();
    expect(store.reads).toBe(0);
    expect(store.numbered).toEqual([{ sequence: 'ticket_id_seq', streamPrefix: 'ticket-', idField: 'ticketId' }]);
    expect(result.ticketId).toBe(1);
    expect(result.ticket).toMatchObject({ kind: 'created', id: 1, status: 'active' });
    expect(result.events.map((e) => [e.type, e.data.ticketId])).toEqual([
      ['TicketCreated', 1],
      ['TicketFeeWaived', 1],
      ['TicketStatusChanged', 1],
    ]);
    const stored = await store.readStream(ticketStreamId(1));
    expect(stored.map((e) => [e.type, (e.data as { ticketId: number }).ticketId])).toEqual(
      result.events.map((e) => [e.type, e.data.ticketId]),
    );
    expect(result.position).toEqual(stored[2]!.position);
  });

  it('allocates the number first on a store that cannot number streams', async () => {
    const store = new NotNumberingStore();
    const handler = new TicketCommandHandler(store, fixedClock('2026-03-04T05:06:07.089Z'), noRetryDelay);
    const result = await handler.create(createFor(false), context, () => Promise.resolve(4242));
    expect(result.ticketId).toBe(4242);
    expect((await store.readStream(ticketStreamId(4242))).map((e) => e.type)).toEqual(['TicketCreated']);
  });
});
