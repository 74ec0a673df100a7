import { randomUUID } from 'node:crypto';
import { openTestStore, openTransaction, otherDatabase, testEvent as event, type TestStore } from '../../test/event-store-fixtures';
import { type Position, type RecordedEvent, START } from './event-store.port';

/**
 * The readers' horizon (READ_HORIZON in postgres-event-store.ts): events are read below the oldest transaction still open in this
 * database. One open in another database of the same server cannot write here and no longer hides
 * anything; one open here still does, whatever it is, so no event is ever read past and skipped.
 *
 * Other test files run against the same database at the same time, and their short transactions may hold
 * the horizon back for a moment: where an event must become readable, the test reads again until it is
 * (within a deadline), while the transaction under test is still open.
 */
jest.setTimeout(60_000);

const url = process.env.DATABASE_URL;
const maybe = url ? describe : describe.skip;

maybe(url ? 'the readers’ horizon on PostgreSQL' : 'skipped: DATABASE_URL is not set (the embedded database has one session)', () => {
  let opened: TestStore;

  beforeAll(async () => {
    opened = await openTestStore('es_horizon', { pollIntervalMs: 60_000, poolSize: 4 });
  });
  afterAll(async () => {
    await opened?.close();
  });

  const head = async (): Promise<Position> => (await opened.store.headPosition()) ?? START;
  /** Reads after `after` until `ids` are all there (or the deadline passes); returns what the last read got. */
  async function readUntil(after: Position, ids: readonly string[], deadlineMs = 10_000): Promise<RecordedEvent[]> {
    const deadline = Date.now() + deadlineMs;
    for (;;) {
      const read = await opened.store.readAll(after, 100);
      const got = new Set(read.map((e) => e.id));
      if (ids.every((id) => got.has(id)) || Date.now() > deadline) return read;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  it('reads an append while a transaction is open in another database (which holds the server-wide xmin)', async () => {
    const before = await head();
    const foreign = await openTransaction(otherDatabase(url!));
    try {
      const appended = event('AfterForeign');
      const result = await opened.store.append(`horizon-${randomUUID()}`, [appended], 'no_stream');
      // The server-wide rule would hide it: the foreign transaction is older and still open.
      const { rows } = await opened.db.pool.query<{ hidden: boolean }>(
        'SELECT pg_snapshot_xmin(pg_current_snapshot()) <= $1::text::xid8 AS hidden',
        [result.position.commit.toString()],
      );
      expect(rows[0]!.hidden).toBe(true);

      const read = await readUntil(before, [appended.id]);
      expect(read.map((e) => e.id)).toContain(appended.id);
      // Still open: it was read past it, not after it ended.
      const still = await foreign.client.query<{ open: boolean }>('SELECT pg_current_xact_id_if_assigned() IS NOT NULL AS open');
      expect(still.rows[0]!.open).toBe(true);
    } finally {
      await foreign.end();
    }
  });

  it('does not read past a transaction open in this database, even one that wrote nothing to the store', async () => {
    const before = await head();
    const local = await openTransaction(url!);
    let ended = false;
    try {
      const appended = event('AfterLocal');
      await opened.store.append(`horizon-${randomUUID()}`, [appended], 'no_stream');
      // Committed (a plain read sees it), not readable through the store while the older one is open.
      const { rows } = await opened.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM es_events WHERE event_id = $1', [
        appended.id,
      ]);
      expect(rows[0]!.n).toBe(1);
      expect((await opened.store.readAll(before, 100)).map((e) => e.id)).not.toContain(appended.id);
      expect(await opened.store.countAfter(before)).toBe(0);

      await local.end();
      ended = true;
      expect((await readUntil(before, [appended.id])).map((e) => e.id)).toContain(appended.id);
    } finally {
      if (!ended) await local.end();
    }
  });

  it('skips nothing: with a foreign transaction open, a later commit waits behind an earlier append still open here', async () => {
    const foreign = await openTransaction(otherDatabase(url!));
    try {
      const before = await head();
      const early = event('Early');
      const late = event('Late');
      await opened.store.transaction(async (tx) => {
        await opened.store.appendInTransaction(tx, [{ streamId: `horizon-${randomUUID()}`, events: [early], expected: 'no_stream' }]);
        // The later append gets the larger transaction id and commits first.
        await opened.store.append(`horizon-${randomUUID()}`, [late], 'no_stream');
        expect(await opened.store.readAll(before, 100)).toEqual([]);
      });
      const read = await readUntil(before, [early.id, late.id]);
      expect(read.map((e) => e.id)).toEqual([early.id, late.id]);
    } finally {
      await foreign.end();
    }
  });
});
