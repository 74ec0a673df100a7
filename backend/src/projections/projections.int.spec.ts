import { randomUUID } from 'node:crypto';
import { testMetadata } from '../../test/event-store-fixtures';
import { type EventMetadata, TICKET_EVENT_TYPES } from '@ppr/contracts';
import {
  advanceCheckpoint,
  type AnyProjection,
  type ProcessorCheckpoint as Checkpoint,
  type Position,
  type Projection,
  PROJECTIONS,
  type Queryable,
  projectionStatus,
  readCheckpoint,
  replay,
  START,
} from '@ppr/projections';
import type { NewEvent } from '../event-store/event-store.port';
import { appendHistory, digestReadTables, generateHistory, openReadSide, projectionHost, type ReadSide } from '../../test/read-side';

jest.setTimeout(240_000);

/** How long a poisoned projection may take to stop: seconds, not a retry loop's forever. */
const STOPS_WITHIN_MS = 10_000;

async function head(side: ReadSide): Promise<Position> {
  return (await side.store.headPosition()) ?? START;
}

function metadata(): EventMetadata {
  return testMetadata({ kind: 'admin', id: '1' });
}

/** A TicketNotesUpdated event with a known id, for projections that read the notes. */
function notes(ticketId: number, text: string): NewEvent & { id: string } {
  return { id: randomUUID(), type: 'TicketNotesUpdated', data: { ticketId, notes: text }, metadata: metadata() };
}

/** Polls the checkpoint row until the projection is marked failed; the checkpoint and how long it took. */
async function untilFailed(side: ReadSide, name: string): Promise<{ checkpoint: Checkpoint; ms: number }> {
  const started = Date.now();
  for (;;) {
    const checkpoint = await readCheckpoint(side.db.pool, name);
    const ms = Date.now() - started;
    if (checkpoint.state === 'failed' || ms > 60_000) return { checkpoint, ms };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('read side: projections, replay and status', () => {
  let side: ReadSide;
  beforeAll(async () => {
    side = await openReadSide();
  });
  afterAll(async () => {
    await side?.close();
  });

  it('projects a generated history of 10,000+ events live, and a replay into fresh tables gives identical rows', async () => {
    const runner = projectionHost(side, PROJECTIONS);
    await runner.start();
    try {
      const appends = generateHistory(1000, 1_000_000);
      const types = new Set(appends.flatMap((a) => a.events.map((e) => e.type)));
      expect([...types].sort()).toEqual([...TICKET_EVENT_TYPES, 'NotificationFailed', 'NotificationSent'].sort());
      const appended = await appendHistory(side.store, appends);
      expect(appended.events).toBeGreaterThanOrEqual(10_000);
      expect(await runner.waitFor(['tickets', 'email-log'], appended.last, 120_000)).toBe(true);
    } finally {
      await runner.stop();
    }

    const live = await digestReadTables(side.db.pool);
    expect(live.ticketRows).toBe(1000);
    expect(live.notificationRows).toBeGreaterThan(0);
    const { rows: refunded } = await side.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM tickets WHERE payment_status = 'refunded' AND payment_display = 'Refunded'`,
    );
    expect(refunded[0]!.n).toBeGreaterThan(0);

    const progress: number[] = [];
    const result = await replay({
      pool: side.db.pool,
      source: side.store,
      projections: PROJECTIONS,
      batchSize: 2000,
      onProgress: (p) => progress.push(p.done),
    });
    expect(result.events).toBeGreaterThanOrEqual(10_000);
    expect(progress.length).toBeGreaterThan(1);
    expect(await digestReadTables(side.db.pool)).toEqual(live);

    // The status function reports every projection at the head with no lag and no error.
    const status = await projectionStatus(side.db.pool, side.store, PROJECTIONS);
    for (const projection of status.projections) {
      expect(projection).toMatchObject({ state: 'running', error: null, checkpoint: status.head });
      if (side.store.countAfter) expect(projection.lag).toBe(0);
    }
  });

  it('after a crash mid-batch, nothing of that batch remains, and a restarted runner ends with exactly what a clean replay gives', async () => {
    const appended = await appendHistory(side.store, generateHistory(150, 2_000_000, 11));
    let batches = 0;
    let lastCommitted: Position | null = null;
    let crashed: Promise<void> | undefined;
    const crashing = projectionHost(side, PROJECTIONS, {
      batchSize: 50,
      hooks: {
        beforeCommit({ processor, events }) {
          if (processor !== 'tickets') return;
          batches += 1;
          if (batches < 5) {
            lastCommitted = events[events.length - 1]!.position;
          } else if (batches === 5) {
            // The fifth batch dies after writing its rows, before its commit: the process goes down
            // (the runner stops) and its connection with it (a transient error, as a real crash gives).
            crashed = crashing.stop();
            throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
          }
        },
      },
    });
    // Start from scratch so the crash happens early in the history.
    await side.db.pool.query(`UPDATE processor_checkpoints SET position_commit = 0, position_prepare = 0`);
    await side.db.pool.query('TRUNCATE tickets, ticket_messages, email_notifications');
    await crashing.start();
    const deadline = Date.now() + 60_000;
    while (!crashed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await crashed;
    expect(batches).toBe(5);

    // The crashed batch left nothing: the checkpoint is the end of batch four and the rows match it.
    const afterCrash = await readCheckpoint(side.db.pool, 'tickets');
    expect(afterCrash).toMatchObject({ state: 'running', position: lastCommitted });
    const { rows } = await side.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM tickets');
    expect(rows[0]!.n).toBeGreaterThan(0);

    const restarted = projectionHost(side, PROJECTIONS);
    await restarted.start();
    expect(await restarted.waitFor(['tickets', 'email-log'], appended.last, 120_000)).toBe(true);
    await restarted.stop();
    const recovered = await digestReadTables(side.db.pool);

    await replay({ pool: side.db.pool, source: side.store, projections: PROJECTIONS });
    expect(await digestReadTables(side.db.pool)).toEqual(recovered);
  });

  it('two runners started for the same projection apply each event once', async () => {
    await side.db.pool.query('CREATE TABLE applied_events (event_id uuid NOT NULL, stream text NOT NULL)');
    const counting: Projection<'applied-events', { applied_events: { event_id: string; stream: string } }> = {
      name: 'applied-events',
      tables: [{ name: 'applied_events', key: 'event_id', keyType: 'uuid' }],
      eventTypes: [...TICKET_EVENT_TYPES, 'NotificationSent', 'NotificationFailed'],
      project: (event) => [
        { kind: 'insert', table: 'applied_events', key: event.id, values: { event_id: event.id, stream: event.streamId } },
      ],
    };
    const options = { batchSize: 25, standbyMs: 50 };
    const first = projectionHost(side, [counting], options);
    const second = projectionHost(side, [counting], options);
    await Promise.all([first.start(), second.start()]);
    // Appends arrive while both run.
    const { last: target } = await appendHistory(side.store, generateHistory(100, 3_000_000, 23));
    const reached = await Promise.race([
      first.waitFor(['applied-events'], target, 120_000),
      second.waitFor(['applied-events'], target, 120_000),
    ]);
    expect(reached).toBe(true);
    await Promise.all([first.stop(), second.stop()]);

    const { rows } = await side.db.pool.query<{ applied: number; distinct_events: number }>(
      'SELECT count(*)::int AS applied, count(DISTINCT event_id)::int AS distinct_events FROM applied_events',
    );
    const totalEvents = side.store.countAfter ? await side.store.countAfter(START) : rows[0]!.distinct_events;
    expect(rows[0]).toEqual({ applied: totalEvents, distinct_events: totalEvents });
  });

  it('commits a batch and a checkpoint move without waiting for the disk flush, and only those', async () => {
    const settings: string[] = [];
    const setting = async (db: Queryable): Promise<string> =>
      (await db.query<{ value: string }>(`SELECT current_setting('synchronous_commit') AS value`)).rows[0]!.value;
    const runner = projectionHost(side, PROJECTIONS, {
      hooks: {
        async beforeCommit({ processor, tx }) {
          if (processor === 'tickets') settings.push(await setting(tx));
        },
      },
    });
    await runner.start();
    try {
      const { last } = await appendHistory(side.store, generateHistory(3, 4_000_000, 31));
      expect(await runner.waitFor(['tickets'], last, 60_000)).toBe(true);
    } finally {
      await runner.stop();
    }
    // Inside the batch's transaction, after its statement: that transaction's commit does not wait.
    expect(settings.length).toBeGreaterThan(0);
    expect(new Set(settings)).toEqual(new Set(['off']));
    // The lazy move of a checkpoint alone too; and only for its own transaction.
    const stored = await readCheckpoint(side.db.pool, 'email-log');
    const client = await side.db.pool.connect();
    try {
      await client.query('BEGIN');
      const ahead = { commit: stored.position.commit + 1n, prepare: stored.position.prepare + 1n };
      expect(await advanceCheckpoint(client, 'email-log', stored.generation, stored.position, ahead)).toBe(true);
      expect(await setting(client)).toBe('off');
      await client.query('ROLLBACK');
      expect(await setting(client)).toBe('on');
    } finally {
      client.release();
    }
    expect(await setting(side.db.pool)).toBe('on');
  });

  it('stops a projection at an event it cannot read, with the error in its status, and keeps the others running', async () => {
    const fragile: Projection<'fragile', Record<never, never>> = {
      name: 'fragile',
      tables: [],
      eventTypes: ['TicketNotesUpdated'],
      project: (event) => {
        if ((event.data as { notes?: string }).notes === 'poison') throw new Error('cannot read these notes');
        return [];
      },
    };
    const runner = projectionHost(side, [fragile, ...PROJECTIONS]);
    const poison = notes(1_000_001, 'poison');
    const { position: target } = await side.store.append('ticket-1000001', [poison], 'any');
    await runner.start();
    try {
      expect(await runner.waitFor(['fragile'], target, 20_000)).toBe(false);
      expect(await runner.waitFor(['tickets'], target, 60_000)).toBe(true);
    } finally {
      await runner.stop();
    }
    const status = await projectionStatus(side.db.pool, side.store, [fragile, ...PROJECTIONS]);
    expect(status.projections.find((p) => p.name === 'fragile')).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/cannot read these notes/),
      errorEventId: poison.id,
    });
    expect(status.projections.find((p) => p.name === 'tickets')).toMatchObject({ state: 'running', error: null });
    const { rows } = await side.db.pool.query<{ admin_notes: string }>('SELECT admin_notes FROM tickets WHERE id = 1000001');
    expect(rows[0]!.admin_notes).toBe('poison');
  });

  /**
   * Runs `projection` beside the app's projections, caught up to the head, then appends `events` in one
   * append (one transaction, so they reach the runner together, as one batch). Returns how the projection
   * stopped, and checks that the tickets projection goes on meanwhile and afterwards.
   */
  async function poisonInOneBatch(projection: AnyProjection, events: NewEvent[]): Promise<{ checkpoint: Checkpoint; ms: number }> {
    const runner = projectionHost(side, [projection, ...PROJECTIONS]);
    await runner.start();
    try {
      const before = await head(side);
      expect(await runner.waitFor([projection.name, 'tickets'], before, 60_000)).toBe(true);

      await side.store.append('ticket-1000002', events, 'any');
      const stopped = await untilFailed(side, projection.name);

      // The others go on: a later event reaches the tickets table; the stopped projection stays behind.
      const later = await side.store.append('ticket-1000002', [notes(1_000_002, 'after the poison')], 'any');
      expect(await runner.waitFor(['tickets'], later.position, 20_000)).toBe(true);
      expect(await runner.waitFor([projection.name], later.position, 1000)).toBe(false);
      const { rows } = await side.db.pool.query<{ admin_notes: string }>('SELECT admin_notes FROM tickets WHERE id = 1000002');
      expect(rows[0]!.admin_notes).toBe('after the poison');
      expect(await readCheckpoint(side.db.pool, 'tickets')).toMatchObject({ state: 'running', error: null });
      return stopped;
    } finally {
      await runner.stop();
    }
  }

  it('stops a projection whose batch inserts one row twice, at the second insert, within seconds', async () => {
    await side.db.pool.query('CREATE TABLE duplicate_rows (id text PRIMARY KEY, event_id uuid NOT NULL)');
    const duplicates: Projection<'duplicates', { duplicate_rows: { id: string; event_id: string } }> = {
      name: 'duplicates',
      tables: [{ name: 'duplicate_rows', key: 'id', keyType: 'text' }],
      eventTypes: ['TicketNotesUpdated'],
      project: (event) => {
        const text = (event.data as { notes: string }).notes;
        if (!text.startsWith('row:')) return [];
        return [{ kind: 'insert', table: 'duplicate_rows', key: text, values: { id: text, event_id: event.id } }];
      },
    };
    const key = `row:${randomUUID()}`;
    const [first, second] = [notes(1_000_002, key), notes(1_000_002, key)];

    const { checkpoint, ms } = await poisonInOneBatch(duplicates, [first, second]);

    expect(ms).toBeLessThan(STOPS_WITHIN_MS);
    // The event before the poisoned one is applied, and the checkpoint is right behind the poisoned one.
    const [poisoned] = await side.store.readAll(checkpoint.position, 1);
    expect(poisoned!.id).toBe(second.id);
    expect(checkpoint).toMatchObject({
      state: 'failed',
      errorEventId: second.id,
      error: `Processor duplicates cannot handle event ${second.id} (TicketNotesUpdated, ticket-1000002@${poisoned!.revision}): Row duplicate_rows/${key} inserted twice`,
    });
    const { rows } = await side.db.pool.query<{ event_id: string }>('SELECT event_id FROM duplicate_rows WHERE id = $1', [key]);
    expect(rows).toEqual([{ event_id: first.id }]);
  });

  it('stops a projection at the event whose row the database refuses, within seconds, having applied the events before it', async () => {
    await side.db.pool.query(`CREATE TABLE labelled_rows (id uuid PRIMARY KEY, label text NOT NULL CHECK (label <> ''))`);
    const labels: Projection<'labels', { labelled_rows: { id: string; label: string } }> = {
      name: 'labels',
      tables: [{ name: 'labelled_rows', key: 'id', keyType: 'uuid' }],
      eventTypes: ['TicketNotesUpdated'],
      project: (event) => {
        const text = (event.data as { notes: string }).notes;
        if (!text.startsWith('label:')) return [];
        return [{ kind: 'insert', table: 'labelled_rows', key: event.id, values: { id: event.id, label: text.slice('label:'.length) } }];
      },
    };
    const [good, refused, after] = [notes(1_000_002, 'label:fine'), notes(1_000_002, 'label:'), notes(1_000_002, 'label:also fine')];

    const { checkpoint, ms } = await poisonInOneBatch(labels, [good, refused, after]);

    expect(ms).toBeLessThan(STOPS_WITHIN_MS);
    expect(checkpoint).toMatchObject({ state: 'failed', errorEventId: refused.id });
    expect(checkpoint.error).toMatch(
      new RegExp(
        `^Processor labels cannot handle event ${refused.id} \\(TicketNotesUpdated, ticket-1000002@\\d+\\): .*violates check constraint "labelled_rows_label_check"`,
      ),
    );
    const { rows } = await side.db.pool.query<{ id: string }>('SELECT id FROM labelled_rows ORDER BY label');
    expect(rows).toEqual([{ id: good.id }]);
    const [poisoned] = await side.store.readAll(checkpoint.position, 1);
    expect(poisoned!.id).toBe(refused.id);
  });
});
