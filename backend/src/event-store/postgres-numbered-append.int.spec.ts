import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { openTestStore, testMetadata as metadata, type TestStore } from '../../test/event-store-fixtures';
import type { Database } from '../database/database';
import { comparePositions, type NewEvent, type RecordedEvent, START, WrongExpectedRevisionError } from './event-store.port';
import type { PostgresEventStore } from './postgres-event-store';

/**
 * `appendNumbered`: a new stream's number from a sequence and its first events in one statement (the
 * PostgreSQL adapters only: on a real PostgreSQL when DATABASE_URL is set, else on the embedded one).
 */
jest.setTimeout(120_000);

const allocation = { sequence: 'numbered_test_seq', streamPrefix: 'numbered-', idField: 'thingId' };

describe(`appendNumbered on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'the embedded database'}`, () => {
  let opened: TestStore;
  let db: Database;
  let store: PostgresEventStore;

  beforeAll(async () => {
    opened = await openTestStore('es_numbered', { poolSize: 10, pollIntervalMs: 200, listen: true });
    ({ db, store } = opened);
    await db.pool.query(`CREATE SEQUENCE ${allocation.sequence} START 700`);
  });
  afterAll(async () => {
    await opened?.close();
  });

  it('numbers the stream from the sequence and puts the number in the events that have the field', async () => {
    const events: NewEvent[] = [
      { type: 'ThingCreated', data: { thingId: 0, name: 'first' }, metadata: metadata() },
      { type: 'ThingNoted', data: { note: 'no id here' }, metadata: metadata() },
      { type: 'ThingRenamed', data: { thingId: 0, name: 'second' }, metadata: metadata() },
    ];
    const result = await store.appendNumbered(allocation, events);
    expect(result.number).toBe(700);
    expect(result.streamId).toBe('numbered-700');
    expect(result.nextExpectedRevision).toBe(2);

    const stored = await store.readStream('numbered-700');
    expect(stored.map((e) => [e.type, e.revision, e.data])).toEqual([
      ['ThingCreated', 0, { thingId: 700, name: 'first' }],
      ['ThingNoted', 1, { note: 'no id here' }],
      ['ThingRenamed', 2, { thingId: 700, name: 'second' }],
    ]);
    expect(stored[2]!.position).toEqual(result.position);
    // The stream goes on as any other.
    await expect(store.append('numbered-700', [{ type: 'ThingNoted', data: {}, metadata: metadata() }], 2)).resolves.toMatchObject({
      nextExpectedRevision: 3,
    });
  });

  it('refuses a number whose stream exists (no_stream), writing nothing', async () => {
    const next = (await db.pool.query<{ n: number }>(`SELECT last_value + 1 AS n FROM ${allocation.sequence}`)).rows[0]!.n;
    await store.append(`numbered-${next}`, [{ type: 'Squatter', data: {}, metadata: metadata() }], 'no_stream');
    await expect(
      store.appendNumbered(allocation, [{ type: 'ThingCreated', data: { thingId: 0 }, metadata: metadata() }]),
    ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect((await store.readStream(`numbered-${next}`)).map((e) => e.type)).toEqual(['Squatter']);
  });

  it('keeps every stream in revision order in the global order, across many numbers, with writers following each creation', async () => {
    // nextval gives its transaction an id every 32 numbers (before the stream's lock, unlike es_append):
    // 200 creations, each followed at once by appends of other writers, check that this never puts a later
    // revision of a stream ahead of an earlier one, and that a live subscriber sees every event once.
    const head = (await store.headPosition()) ?? START;
    const creations = 200;
    const perStream = 3;
    const seen: RecordedEvent[] = [];
    const controller = new AbortController();
    const expected = creations * perStream;
    const many = { ...allocation, streamPrefix: 'many-' };
    const subscription = (async () => {
      for await (const event of store.subscribe(head, { signal: controller.signal })) {
        if (!event.streamId.startsWith(many.streamPrefix)) continue;
        seen.push(event);
        if (seen.length === expected) controller.abort();
      }
    })();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next++ < creations) {
          const created = await store.appendNumbered(many, [{ type: 'ThingCreated', data: { thingId: 0 }, metadata: metadata() }]);
          let revision = created.nextExpectedRevision;
          for (let i = 1; i < perStream; i++) {
            revision = (await store.append(created.streamId, [{ type: 'ThingNoted', data: { i }, metadata: metadata() }], revision))
              .nextExpectedRevision;
          }
        }
      }),
    );
    await subscription;
    expect(seen).toHaveLength(expected);
    expect(new Set(seen.map((e) => e.id)).size).toBe(expected);
    for (let i = 1; i < seen.length; i++) expect(comparePositions(seen[i - 1]!.position, seen[i]!.position)).toBeLessThan(0);
    const revisions = new Map<string, number[]>();
    for (const event of seen) revisions.set(event.streamId, [...(revisions.get(event.streamId) ?? []), event.revision]);
    expect(revisions.size).toBe(creations);
    for (const list of revisions.values()) expect(list).toEqual([0, 1, 2]);
  });
  it("in a transaction, after the caller's count: refused, the count commits and no number is drawn", async () => {
    await db.pool.query('CREATE TABLE IF NOT EXISTS gate_counts (key text PRIMARY KEY, hits int NOT NULL)');
    const sequenceAt = async (): Promise<number> =>
      Number((await db.pool.query<{ n: string }>(`SELECT last_value AS n FROM ${allocation.sequence}`)).rows[0]!.n);
    const key = randomUUID();
    const event = (): NewEvent[] => [{ type: 'ThingCreated', data: { thingId: 0 }, metadata: metadata() }];
    // The caller's count, then the append only when it allows: the count's row stays locked until the commit,
    // so parallel callers see distinct counts.
    const gated = (limit: number) =>
      store.transaction(async (tx) => {
        const { rows } = await sql<{ hits: number }>`INSERT INTO gate_counts AS g (key, hits) VALUES (${key}, 1)
          ON CONFLICT (key) DO UPDATE SET hits = g.hits + 1 RETURNING hits`.execute(tx);
        const hits = rows[0]!.hits;
        return { hits, appended: hits <= limit ? await store.appendNumbered(allocation, event(), tx) : null };
      });

    const allowed = await gated(1);
    expect(allowed.hits).toBe(1);
    expect(allowed.appended).not.toBeNull();
    expect((await store.readStream(allowed.appended!.streamId)).map((e) => e.data)).toEqual([{ thingId: allowed.appended!.number }]);

    const before = await sequenceAt();
    const refused = await Promise.all([1, 2, 3].map(() => gated(1)));
    expect(refused.map((r) => r.appended)).toEqual([null, null, null]);
    expect(refused.map((r) => r.hits).sort()).toEqual([2, 3, 4]);
    expect(await sequenceAt()).toBe(before);
    expect((await db.pool.query('SELECT hits FROM gate_counts WHERE key = $1', [key])).rows).toEqual([{ hits: 4 }]);
  });
});
