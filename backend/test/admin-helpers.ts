import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { type Actor, EVENT_SCHEMAS, type EventData, type EventType, ticketStreamId } from '@ppr/contracts';
import { comparePositions, type Position, START } from '../src/event-store/event-store.port';
import type { ProcessorProgress } from '../src/processing/processor.port';
import { PROCESSING } from '../src/processing/processing.tokens';
import type { TestApp } from './test-app';
import { type Agent, browser } from './customer-helpers';

let counter = 0;

/** Credentials for a new admin account: a password the setup and change-password rules both accept. */
export function newAdmin(overrides: Record<string, unknown> = {}): { username: string; email: string; password: string } {
  counter += 1;
  const id = `${Date.now().toString(36)}${counter}`;
  return { username: `staff_${id}`, email: `staff.${id}@potomacpc.example`, password: `Potomac-Desk-${id}9`, ...overrides };
}

/** A browser session logged in as that admin. */
export async function loginAdmin(app: INestApplication, admin: { username: string; password: string }): Promise<Agent> {
  const agent = browser(app);
  await agent.post('/api/admin/login').send({ username: admin.username, password: admin.password }).expect(200);
  return agent;
}

/**
 * The app's first admin (the one-time setup) and a session logged in as it. Setup is allowed once per
 * database: call it once per test app.
 */
export async function firstAdmin(app: INestApplication): Promise<{ agent: Agent; admin: ReturnType<typeof newAdmin>; id: number }> {
  const admin = newAdmin();
  const created = await browser(app).post('/api/admin/create').send(admin).expect(201);
  return { agent: await loginAdmin(app, admin), admin, id: created.body.id as number };
}

/** One event of a seeded ticket: its type, payload (without ticketId), who and when. */
export interface SeedEvent<T extends EventType = EventType> {
  readonly type: T;
  readonly data: Omit<EventData<T>, 'ticketId'>;
  readonly at: Date | string;
  readonly actor?: Actor;
}

export function seed<T extends EventType>(type: T, data: Omit<EventData<T>, 'ticketId'>, at: Date | string, actor?: Actor): SeedEvent {
  return { type, data, at, ...(actor ? { actor } : {}) };
}

/** The fields of a TicketCreated, with defaults (the projections' test fixture, which both workspaces' tests use). */
export { ticketCreatedData as created } from '@ppr/projections/src/testing/ticket-created';

/**
 * Appends tickets' histories straight to the event store, with the times and actors given (so a test
 * controls created_at, payment times and who acted), and waits until the tickets read table has them.
 * Ids come from the ticket sequence, as the API's do. Returns the ids in the order given.
 */
export async function seedTickets(t: TestApp, histories: readonly (readonly SeedEvent[])[]): Promise<number[]> {
  const ids: number[] = [];
  let last: Position = START;
  for (const history of histories) {
    const { rows } = await t.db.pool.query<{ id: number }>(`SELECT nextval('ticket_id_seq')::int AS id`);
    const ticketId = rows[0]!.id;
    ids.push(ticketId);
    const result = await t.store.append(
      ticketStreamId(ticketId),
      history.map((event) => ({
        id: randomUUID(),
        type: event.type,
        data: { ticketId, ...event.data },
        metadata: {
          actor: event.actor ?? { kind: 'system', id: 'test' },
          correlationId: randomUUID(),
          causationId: null,
          occurredAt: new Date(event.at).toISOString(),
          schemaVersion: EVENT_SCHEMAS[event.type].version,
        },
      })),
      'no_stream',
    );
    if (comparePositions(result.position, last) > 0) last = result.position;
  }
  await waitForTickets(t, last);
  return ids;
}

/** Waits until the tickets projection has applied everything up to `position`. */
export async function waitForTickets(t: TestApp, position: Position): Promise<void> {
  const processing = t.app.get<ProcessorProgress>(PROCESSING);
  if (!(await processing.waitFor(['tickets'], position, 20_000))) throw new Error('The tickets projection did not catch up');
}
