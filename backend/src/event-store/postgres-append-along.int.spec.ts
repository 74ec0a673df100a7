import { randomUUID } from 'node:crypto';
import { openTestStore, testEvent as event, type TestStore } from '../../test/event-store-fixtures';
import { comparePositions, DuplicateEventError } from './event-store.port';

/**
 * `appendAlong`: events to several streams and other writes in one statement (the PostgreSQL adapters: a
 * real PostgreSQL when DATABASE_URL is set, else the embedded one).
 */
jest.setTimeout(120_000);

describe(`appendAlong on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'the embedded database'}`, () => {
  let opened: TestStore;
  const marks = (key: string): { text: string; values: unknown[] } => ({
    text: 'INSERT INTO along_marks (key, note) VALUES ($1, $2)',
    values: [key, 'written'],
  });
  const marked = async (key: string): Promise<number> =>
    (await opened.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM along_marks WHERE key = $1', [key])).rows[0]!.n;

  beforeAll(async () => {
    opened = await openTestStore('es_along', { poolSize: 10, pollIntervalMs: 200 });
    await opened.db.pool.query('CREATE TABLE along_marks (key text PRIMARY KEY, note text NOT NULL)');
  });
  afterAll(async () => {
    await opened?.close();
  });

  it('appends to several streams (one twice) and runs the writes, in one statement, positions in order', async () => {
    const [a, b] = [`along-${randomUUID()}`, `along-${randomUUID()}`];
    await opened.store.append(a, [event('Existing')], 'no_stream');
    const events = [
      { streamId: b, event: event('First') },
      { streamId: a, event: event('Second') },
      { streamId: b, event: event('Third') },
    ];
    const positions = await opened.store.appendAlong(events, [marks('together'), marks('together-too')]);

    expect(positions).toHaveLength(3);
    expect(comparePositions(positions[0]!, positions[1]!)).toBeLessThan(0);
    expect(comparePositions(positions[1]!, positions[2]!)).toBeLessThan(0);
    expect((await opened.store.readStream(a)).map((e) => [e.type, e.revision])).toEqual([
      ['Existing', 0],
      ['Second', 1],
    ]);
    const streamB = await opened.store.readStream(b);
    expect(streamB.map((e) => [e.type, e.revision])).toEqual([
      ['First', 0],
      ['Third', 1],
    ]);
    expect(streamB[1]!.position).toEqual(positions[2]);
    expect(await marked('together')).toBe(1);
    expect(await marked('together-too')).toBe(1);
  });

  it('runs the writes alone when there are no events', async () => {
    await expect(opened.store.appendAlong([], [marks('alone')])).resolves.toEqual([]);
    expect(await marked('alone')).toBe(1);
  });

  it('writes nothing at all when one event is a duplicate', async () => {
    const taken = randomUUID();
    await opened.store.append(`along-${randomUUID()}`, [event('Taken', taken)], 'no_stream');
    const fresh = `along-${randomUUID()}`;
    await expect(
      opened.store.appendAlong(
        [
          { streamId: fresh, event: event('Fresh') },
          { streamId: fresh, event: event('Again', taken) },
        ],
        [marks('refused')],
      ),
    ).rejects.toBeInstanceOf(DuplicateEventError);
    expect(await opened.store.readStream(fresh)).toEqual([]);
    expect(await marked('refused')).toBe(0);
  });

  it('takes concurrent groups over the same streams in any order without a deadlock', async () => {
    const streams = Array.from({ length: 4 }, () => `along-${randomUUID()}`);
    const groups = Array.from({ length: 12 }, (_, g) =>
      (g % 2 === 0 ? streams : [...streams].reverse()).map((streamId) => ({ streamId, event: event(`G${g}`) })),
    );
    await Promise.all(groups.map((group) => opened.store.appendAlong(group, [])));
    for (const streamId of streams) {
      const stored = await opened.store.readStream(streamId);
      expect(stored.map((e) => e.revision)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    }
  });
});
