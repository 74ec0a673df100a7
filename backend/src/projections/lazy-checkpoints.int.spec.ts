import { testMetadata } from '../../test/event-store-fixtures';
import type { EventMetadata } from '@ppr/contracts';
import { advanceCheckpoint, comparePositions, type Position, type Projection, readCheckpoint } from '@ppr/projections';
import { openReadSide, projectionHost, type ReadSide } from '../../test/read-side';

/**
 * A batch with nothing for a processor costs it no transaction: its position moves in memory and the row
 * catches up lazily, with the next batch that writes, after `checkpointFlushMs`, or when the processor stops;
 * never backwards, never over another tenure's or a replay's move.
 */
jest.setTimeout(60_000);

function metadata(): EventMetadata {
  return testMetadata({ kind: 'admin', id: '1' });
}

const notes = (ticketId: number, text: string) => ({ type: 'TicketNotesUpdated', data: { ticketId, notes: text }, metadata: metadata() });

interface Tables {
  lazy_rows: { id: string; text: string };
}

/** Writes only notes that start with `row:`; every other event is nothing to it. */
const picky: Projection<'picky', Tables> = {
  name: 'picky',
  tables: [{ name: 'lazy_rows', key: 'id', keyType: 'text' }],
  eventTypes: ['TicketNotesUpdated'],
  project: (event) => {
    const text = (event.data as { notes: string }).notes;
    return text.startsWith('row:') ? [{ kind: 'insert', table: 'lazy_rows', key: text, values: { id: text, text } }] : [];
  },
};

/** The checkpoint row's version: any UPDATE of the row, even to the same values, changes it. */
async function rowVersion(side: ReadSide, name: string): Promise<string> {
  const { rows } = await side.db.pool.query<{ version: string }>(
    'SELECT xmin::text AS version FROM processor_checkpoints WHERE name = $1',
    [name],
  );
  return rows[0]!.version;
}

describe('lazy checkpoints: a batch with nothing for a projection costs it no transaction', () => {
  let side: ReadSide;
  beforeAll(async () => {
    side = await openReadSide();
    await side.db.pool.query('CREATE TABLE lazy_rows (id text PRIMARY KEY, text text NOT NULL)');
  });
  afterAll(async () => {
    await side?.close();
  });

  it('moves the position at once, the row later (flush, next write, stop), never backwards', async () => {
    const stream = `ticket-${2_000_000 + Math.floor(Math.random() * 1000)}`;
    const first = await side.store.append(stream, [notes(1, 'row:first')], 'any');
    const runner = projectionHost(side, [picky], { checkpointFlushMs: 60_000 });
    await runner.start();
    try {
      expect(await runner.waitFor(['picky'], first.position, 30_000)).toBe(true);
      expect((await readCheckpoint(side.db.pool, 'picky')).position).toEqual(first.position);

      // Ten appends with nothing for the projection: the runner reaches them, the row stays where it was.
      const version = await rowVersion(side, 'picky');
      let last: Position = first.position;
      for (let i = 0; i < 10; i++) last = (await side.store.append(stream, [notes(1, `nothing ${i}`)], 'any')).position;
      expect(await runner.waitFor(['picky'], last, 30_000)).toBe(true);
      expect(runner.positionOf('picky')).toEqual(last);
      // Not one write to the row (the runner used to commit a checkpoint-only transaction per batch).
      expect(await rowVersion(side, 'picky')).toBe(version);
      expect((await readCheckpoint(side.db.pool, 'picky')).position).toEqual(first.position);

      // The next batch that writes moves the row past everything before it, in its own transaction.
      const written = await side.store.append(stream, [notes(1, 'row:second')], 'any');
      expect(await runner.waitFor(['picky'], written.position, 30_000)).toBe(true);
      expect((await readCheckpoint(side.db.pool, 'picky')).position).toEqual(written.position);

      // Nothing again, then the runner stops: the row catches up on the way out.
      const tail = await side.store.append(stream, [notes(1, 'nothing at the end')], 'any');
      expect(await runner.waitFor(['picky'], tail.position, 30_000)).toBe(true);
      expect((await readCheckpoint(side.db.pool, 'picky')).position).toEqual(written.position);
    } finally {
      await runner.stop();
    }
    const stored = await readCheckpoint(side.db.pool, 'picky');
    expect(stored.state).toBe('running');
    expect(comparePositions(stored.position, (await side.store.headPosition())!)).toBe(0);
    const { rows } = await side.db.pool.query<{ id: string }>('SELECT id FROM lazy_rows ORDER BY id');
    expect(rows.map((r) => r.id)).toEqual(['row:first', 'row:second']);
  });

  it('catches the row up on a timer while nothing else comes', async () => {
    const runner = projectionHost(side, [picky], { checkpointFlushMs: 50 });
    await runner.start();
    try {
      const before = await readCheckpoint(side.db.pool, 'picky');
      const quiet = await side.store.append('ticket-2000999', [notes(1, 'nothing, then quiet')], 'any');
      expect(comparePositions(quiet.position, before.position)).toBeGreaterThan(0);
      expect(await runner.waitFor(['picky'], quiet.position, 30_000)).toBe(true);
      const deadline = Date.now() + 30_000;
      while (comparePositions((await readCheckpoint(side.db.pool, 'picky')).position, quiet.position) < 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 10));
      }
      expect((await readCheckpoint(side.db.pool, 'picky')).position).toEqual(quiet.position);
    } finally {
      await runner.stop();
    }
  });

  it('advances a checkpoint only from where the runner left it, under its generation, and never backwards', async () => {
    await side.db.pool.query(`INSERT INTO processor_checkpoints (name) VALUES ('lazy-check') ON CONFLICT DO NOTHING`);
    const at = (commit: bigint, prepare: bigint): Position => ({ commit, prepare });
    expect(await advanceCheckpoint(side.db.pool, 'lazy-check', 0, at(0n, 0n), at(10n, 5n))).toBe(true);
    // Someone else moved it (a replay): a runner that still thinks it is at 10/5 does not move it.
    await side.db.pool.query(`UPDATE processor_checkpoints SET position_commit = 20, position_prepare = 1 WHERE name = 'lazy-check'`);
    expect(await advanceCheckpoint(side.db.pool, 'lazy-check', 0, at(10n, 5n), at(30n, 1n))).toBe(false);
    // Backwards is refused without even asking the database.
    expect(await advanceCheckpoint(side.db.pool, 'lazy-check', 0, at(20n, 1n), at(15n, 0n))).toBe(false);
    expect((await readCheckpoint(side.db.pool, 'lazy-check')).position).toEqual(at(20n, 1n));
    // Another process took the lock since (a new generation): the one that lost it does not move it.
    await side.db.pool.query(`UPDATE processor_checkpoints SET generation = generation + 1 WHERE name = 'lazy-check'`);
    expect(await advanceCheckpoint(side.db.pool, 'lazy-check', 0, at(20n, 1n), at(30n, 1n))).toBe(false);
    expect(await advanceCheckpoint(side.db.pool, 'lazy-check', 1, at(20n, 1n), at(25n, 1n))).toBe(true);
    // A stopped processor does not move either.
    await side.db.pool.query(`UPDATE processor_checkpoints SET state = 'failed' WHERE name = 'lazy-check'`);
    expect(await advanceCheckpoint(side.db.pool, 'lazy-check', 1, at(25n, 1n), at(30n, 1n))).toBe(false);
    expect((await readCheckpoint(side.db.pool, 'lazy-check')).position).toEqual(at(25n, 1n));
  });
});
