import { randomUUID } from 'node:crypto';
import type { EventMetadata } from '@ppr/contracts';
import { testSchema, type TestSchema } from '../../test/test-schema';
import { loadConfig } from '../config/config';
import { openDatabase, type Database } from '../database/database';
import { type NewEvent, type RecordedEvent, START } from './event-store.port';
import { PostgresEventStore } from './postgres-event-store';
import { ensureEventStoreSchema } from './postgres-schema';

/**
 * `lingerMs`: a subscriber nobody waits for reads a while after it is woken, so that what is appended
 * meanwhile comes in the same read (a real PostgreSQL when DATABASE_URL is set, else the embedded one).
 */
jest.setTimeout(60_000);

function event(type: string): NewEvent {
  const metadata: EventMetadata = {
    actor: { kind: 'system', id: null },
    correlationId: randomUUID(),
    causationId: null,
    occurredAt: new Date().toISOString(),
    schemaVersion: 1,
  };
  return { type, data: {}, metadata };
}

describe(`subscribe with lingerMs on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'the embedded database'}`, () => {
  let schema: TestSchema;
  let db: Database;
  let store: PostgresEventStore;

  beforeAll(async () => {
    schema = testSchema('es_linger', { poolSize: 5 });
    db = await openDatabase(loadConfig({ NODE_ENV: 'test', DATA_DIR: 'memory', ...schema.env }));
    await ensureEventStoreSchema(db.pool);
    store = new PostgresEventStore({ pool: db.pool, adapter: db.kind, pollIntervalMs: 60_000 });
  });
  afterAll(async () => {
    await store?.close();
    await db?.close();
    await schema?.drop();
  });

  it('reads no sooner than the linger after a wake-up, and then gets what was appended meanwhile, in order', async () => {
    const linger = 300;
    const stop = new AbortController();
    const received: { event: RecordedEvent; at: number }[] = [];
    let caughtUp: () => void = () => undefined;
    const idle = new Promise<void>((resolve) => (caughtUp = resolve));
    const reading = (async () => {
      // The first read (nothing there) is at once; it then waits for a wake-up.
      setTimeout(caughtUp, 100);
      for await (const recorded of store.subscribe(START, { signal: stop.signal, lingerMs: linger })) {
        received.push({ event: recorded, at: performance.now() });
        if (received.length === 5) stop.abort();
      }
    })();
    await idle;

    const stream = `linger-${randomUUID()}`;
    const woken = performance.now();
    await store.append(stream, [event('E1')], 'no_stream');
    for (const type of ['E2', 'E3', 'E4', 'E5']) await store.append(stream, [event(type)], 'any');
    await reading;

    expect(received.map((r) => r.event.type)).toEqual(['E1', 'E2', 'E3', 'E4', 'E5']);
    // Not delivered before the linger was over (a timer never fires early).
    expect(received[0]!.at - woken).toBeGreaterThanOrEqual(linger - 1);
  });
});
