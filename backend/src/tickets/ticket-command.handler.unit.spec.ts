import { HttpStatus, Logger } from '@nestjs/common';
import { ticketStreamId } from '@ppr/contracts';
import { domainErrorResponse, TICKET_CONFLICT_MESSAGE, TICKET_ERROR_STATUS } from '../api-exception.filter';
import { fixedClock } from '../common/clock';
import type { RequestContext } from '../common/request-context';
import type { AppendResult, ExpectedRevision, NewEvent } from '../event-store/event-store.port';
import { InMemoryEventStore } from '../event-store/in-memory-event-store';
import { TicketDomainError, type TicketCommand } from './domain/ticket.decide';
import { TicketCommandHandler, TicketConflictError } from './ticket-command.handler';
import { aCreateTicketCommand } from '../../test/builders';

const context: RequestContext = { actor: { kind: 'admin', id: '5' }, correlationId: 'corr-1' };
const create = (ticketId: number): TicketCommand => aCreateTicketCommand(ticketId);
const noRetryDelay = { maxAttempts: 5, baseDelayMs: 0, maxDelayMs: 0 };

/** The in-memory store, with a hook that runs just before each append (where a competing writer would strike). */
class InterferingStore extends InMemoryEventStore {
  beforeAppend: ((streamId: string, attempt: number) => Promise<void>) | null = null;
  appends = 0;

  override async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    this.appends++;
    if (this.beforeAppend) await this.beforeAppend(streamId, this.appends);
    return super.append(streamId, events, expected);
  }
}

describe('TicketCommandHandler (on the in-memory event store)', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('stamps every event with the injected clock, the actor, the correlation and one causation id', async () => {
    const store = new InMemoryEventStore();
    const clock = fixedClock('2026-03-04T05:06:07.089Z');
    const handler = new TicketCommandHandler(store, clock, noRetryDelay);

    await handler.execute(1001, create(1001), context);
    clock.set('2026-03-05T10:00:00.000Z');
    const result = await handler.execute(1001, { type: 'WaiveFee', data: { kind: 'zero_cost', notes: null } }, context);

    expect(result.events.map((e) => e.type)).toEqual(['TicketFeeWaived', 'TicketStatusChanged']);
    expect(result.ticket).toMatchObject({ status: 'active', payment: { kind: 'waived', waiver: 'zero_cost' } });
    const stored = await store.readStream(ticketStreamId(1001));
    expect(stored.map((e) => [e.type, e.revision, e.metadata.occurredAt])).toEqual([
      ['TicketCreated', 0, '2026-03-04T05:06:07.089Z'],
      ['TicketFeeWaived', 1, '2026-03-05T10:00:00.000Z'],
      ['TicketStatusChanged', 2, '2026-03-05T10:00:00.000Z'],
    ]);
    expect(stored[1]!.metadata).toEqual({
      actor: { kind: 'admin', id: '5' },
      correlationId: 'corr-1',
      causationId: stored[2]!.metadata.causationId,
      occurredAt: '2026-03-05T10:00:00.000Z',
      schemaVersion: 1,
    });
    expect(stored[1]!.metadata.causationId).not.toBe(stored[0]!.metadata.causationId);
    expect(result.position).toEqual(stored[2]!.position);
  });

  it('answers a command that changes nothing without appending, with the position of the change it found', async () => {
    const store = new InterferingStore();
    const handler = new TicketCommandHandler(store, fixedClock('2026-01-01T00:00:00Z'), noRetryDelay);
    const created = await handler.execute(7, create(7), context);
    expect(created.current).toEqual(created.position);
    const changed = await handler.execute(7, { type: 'ChangeStatus', data: { status: 'active' } }, context);
    // The same command again (a second admin, a second click): nothing new, and what the read side must show.
    const result = await handler.execute(7, { type: 'ChangeStatus', data: { status: 'active' } }, context);
    expect(result).toMatchObject({ events: [], position: null, current: changed.position });
    expect(changed.position).not.toBeNull();
    expect(store.appends).toBe(2);
  });

  it('retries a conflict: decides again on the newer stream and succeeds', async () => {
    const store = new InterferingStore();
    const handler = new TicketCommandHandler(store, fixedClock('2026-01-01T00:00:00Z'), noRetryDelay);
    await handler.execute(8, create(8), context);
    // Between the handler's read and its append, another writer records the payment.
    store.beforeAppend = async (streamId, attempt) => {
      if (attempt !== 2) return;
      await InMemoryEventStore.prototype.append.call(
        store,
        streamId,
        [
          {
            type: 'TicketNotesUpdated',
            data: { ticketId: 8, notes: 'Written by someone else' },
            metadata: {
              actor: { kind: 'admin', id: '9' },
              correlationId: 'other',
              causationId: null,
              occurredAt: '2026-01-01T00:00:00.000Z',
              schemaVersion: 1,
            },
          },
        ],
        0,
      );
    };

    const result = await handler.execute(8, { type: 'ChangeStatus', data: { status: 'resolved' } }, context);

    expect(store.appends).toBe(3);
    expect(result.ticket).toMatchObject({ status: 'resolved', adminNotes: 'Written by someone else' });
    const stored = await store.readStream(ticketStreamId(8));
    expect(stored.map((e) => e.type)).toEqual(['TicketCreated', 'TicketNotesUpdated', 'TicketStatusChanged']);
  });

  it('a conflict on every attempt ends in TicketConflictError after the bound, answered as a clear 409', async () => {
    const store = new InterferingStore();
    const delays: number[] = [];
    const handler = new TicketCommandHandler(store, fixedClock('2026-01-01T00:00:00Z'), {
      maxAttempts: 4,
      baseDelayMs: 8,
      maxDelayMs: 20,
      random: () => {
        delays.push(delays.length);
        return 0.5;
      },
    });
    await handler.execute(9, create(9), context);
    let revision = 0;
    store.beforeAppend = async (streamId) => {
      await InMemoryEventStore.prototype.append.call(
        store,
        streamId,
        [
          {
            type: 'TicketNotesUpdated',
            data: { ticketId: 9, notes: `racing ${revision}` },
            metadata: {
              actor: { kind: 'system', id: null },
              correlationId: 'race',
              causationId: null,
              occurredAt: '2026-01-01T00:00:00.000Z',
              schemaVersion: 1,
            },
          },
        ],
        revision++,
      );
    };

    const attempt = handler.execute(9, { type: 'UpdateNotes', data: { notes: 'mine' } }, context);
    await expect(attempt).rejects.toBeInstanceOf(TicketConflictError);
    const error = (await attempt.catch((e: unknown) => e)) as TicketConflictError;
    expect(error.attempts).toBe(4);
    // Three backoffs between four attempts, each drawn from the jitter source.
    expect(delays).toHaveLength(3);
    expect(domainErrorResponse(error)).toEqual({ status: HttpStatus.CONFLICT, body: { message: TICKET_CONFLICT_MESSAGE } });
    const notes = (await store.readStream(ticketStreamId(9))).filter((e) => e.type === 'TicketNotesUpdated');
    expect(notes.map((e) => (e.data as { notes: string }).notes)).not.toContain('mine');
  });

  it('does not retry a domain error, and the error maps to its status', async () => {
    const store = new InterferingStore();
    const handler = new TicketCommandHandler(store, fixedClock('2026-01-01T00:00:00Z'), noRetryDelay);
    const refused = handler.execute(404404, { type: 'ChangeStatus', data: { status: 'active' } }, context);
    await expect(refused).rejects.toBeInstanceOf(TicketDomainError);
    expect(store.appends).toBe(0);
    expect(domainErrorResponse(await refused.catch((e: unknown) => e))).toEqual({
      status: HttpStatus.NOT_FOUND,
      body: { message: 'Ticket not found' },
    });
  });

  it('does not retry a failure that is not a conflict', async () => {
    const store = new InterferingStore();
    const handler = new TicketCommandHandler(store, fixedClock('2026-01-01T00:00:00Z'), noRetryDelay);
    store.beforeAppend = () => Promise.reject(new Error('disk full'));
    await expect(handler.execute(10, create(10), context)).rejects.toThrow('disk full');
    expect(store.appends).toBe(1);
    expect(domainErrorResponse(new Error('disk full'))).toBeNull();
  });
});

describe('the domain error table', () => {
  it('answers 404 for an unknown ticket, 400 for a message its author may not post, 409 for every rule violation', () => {
    const { ticket_not_found: notFound, invalid_message: invalidMessage, ...rules } = TICKET_ERROR_STATUS;
    expect(notFound).toBe(HttpStatus.NOT_FOUND);
    expect(invalidMessage).toBe(HttpStatus.BAD_REQUEST);
    expect(new Set(Object.values(rules))).toEqual(new Set([HttpStatus.CONFLICT]));
  });
});
