import {
  type Projection,
  PROJECTIONS,
  ProjectionRunner,
  projectionStatus,
  readCheckpoint,
  replay,
  SimulatedCrash,
  START,
} from '@ppr/projections';
import { appendHistory, digestReadTables, generateHistory, openReadSide, type ReadSide } from '../../test/read-side';

jest.setTimeout(240_000);

async function head(side: ReadSide) {
  return (await side.store.headPosition()) ?? START;
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
    const runner = new ProjectionRunner({ source: side.store, pool: side.db.pool, projections: PROJECTIONS, ...(side.lockUrl ? { lockConnectionString: side.lockUrl } : {}) });
    await runner.start();
    try {
      const appends = generateHistory(1000, 1_000_000);
      const types = new Set(appends.flatMap((a) => a.events.map((e) => e.type)));
      expect([...types].sort()).toEqual(
        [
          'NotificationFailed',
          'NotificationSent',
          'TicketCreated',
          'TicketFeeWaived',
          'TicketLinkedToCustomer',
          'TicketNotesUpdated',
          'TicketPaymentReceived',
          'TicketPaymentUpdated',
          'TicketStatusChanged',
        ].sort(),
      );
      const total = await appendHistory(side.store, appends);
      expect(total).toBeGreaterThanOrEqual(10_000);
      expect(await runner.waitFor(['tickets', 'email-log'], await head(side), 120_000)).toBe(true);
    } finally {
      await runner.stop();
    }

    const live = await digestReadTables(side.db.pool);
    expect(live.ticketRows).toBe(1000);
    expect(live.notificationRows).toBeGreaterThan(0);

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

  it('after a crash mid-batch, a restarted runner ends with exactly what a clean replay gives', async () => {
    await appendHistory(side.store, generateHistory(150, 2_000_000, 11));
    let batches = 0;
    const crashing = new ProjectionRunner({
      source: side.store,
      pool: side.db.pool,
      projections: PROJECTIONS,
      batchSize: 50,
      faults: {
        afterApply(projection) {
          // The fifth batch of the tickets projection dies after writing its rows, before its checkpoint.
          if (projection === 'tickets' && ++batches === 5) throw new SimulatedCrash('killed mid-batch');
        },
      },
    });
    // Start from scratch so the crash happens early in the history.
    await side.db.pool.query(`UPDATE projection_checkpoints SET position_commit = 0, position_prepare = 0`);
    await side.db.pool.query('TRUNCATE tickets, email_notifications');
    await crashing.start();
    const deadline = Date.now() + 60_000;
    while (batches < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    await crashing.stop();
    expect(batches).toBe(5);

    // The crashed batch left nothing: the checkpoint is the end of batch four and the rows match it.
    const afterCrash = await readCheckpoint(side.db.pool, 'tickets');
    const { rows } = await side.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM tickets');
    expect(rows[0]!.n).toBeGreaterThan(0);
    expect(afterCrash.position.commit).toBeGreaterThan(0n);
    const restarted = new ProjectionRunner({ source: side.store, pool: side.db.pool, projections: PROJECTIONS });
    await restarted.start();
    expect(await restarted.waitFor(['tickets', 'email-log'], await head(side), 120_000)).toBe(true);
    await restarted.stop();
    const recovered = await digestReadTables(side.db.pool);

    await replay({ pool: side.db.pool, source: side.store, projections: PROJECTIONS });
    expect(await digestReadTables(side.db.pool)).toEqual(recovered);
  });

  it('two runners started for the same projection apply each event once', async () => {
    await side.db.pool.query('CREATE TABLE IF NOT EXISTS applied_events (event_id uuid NOT NULL, stream text NOT NULL)');
    const counting: Projection = {
      name: 'applied-events',
      tables: [{ name: 'applied_events', key: 'event_id', keyType: 'uuid' }],
      eventTypes: ['TicketCreated', 'TicketStatusChanged', 'TicketNotesUpdated', 'TicketPaymentReceived', 'TicketFeeWaived', 'TicketPaymentUpdated', 'TicketLinkedToCustomer', 'NotificationSent', 'NotificationFailed'],
      project: (event) => [{ kind: 'insert', table: 'applied_events', key: event.id, values: { event_id: event.id, stream: event.streamId } }],
    };
    const options = {
      source: side.store,
      pool: side.db.pool,
      projections: [counting],
      batchSize: 25,
      lockRetryMs: 50,
      ...(side.lockUrl ? { lockConnectionString: side.lockUrl } : {}),
    };
    const first = new ProjectionRunner(options);
    const second = new ProjectionRunner(options);
    await Promise.all([first.start(), second.start()]);
    // Appends arrive while both run.
    await appendHistory(side.store, generateHistory(100, 3_000_000, 23));
    const target = await head(side);
    const reached = await Promise.race([first.waitFor(['applied-events'], target, 120_000), second.waitFor(['applied-events'], target, 120_000)]);
    expect(reached).toBe(true);
    await Promise.all([first.stop(), second.stop()]);

    const { rows } = await side.db.pool.query<{ applied: number; distinct_events: number }>(
      'SELECT count(*)::int AS applied, count(DISTINCT event_id)::int AS distinct_events FROM applied_events',
    );
    const totalEvents = side.store.countAfter ? await side.store.countAfter(START) : rows[0]!.distinct_events;
    expect(rows[0]).toEqual({ applied: totalEvents, distinct_events: totalEvents });
  });

  it('stops a projection at a poisoned event with the error in its status, and keeps the others running', async () => {
    const poisoned: Projection = {
      name: 'fragile',
      tables: [],
      eventTypes: ['TicketNotesUpdated'],
      project: (event) => {
        if ((event.data as { notes?: string }).notes === 'poison') throw new Error('cannot read these notes');
        return [];
      },
    };
    const runner = new ProjectionRunner({ source: side.store, pool: side.db.pool, projections: [poisoned, ...PROJECTIONS] });
    await side.store.append('ticket-1000001', [
      { type: 'TicketNotesUpdated', data: { ticketId: 1_000_001, notes: 'poison' }, metadata: { actor: { kind: 'admin', id: '1' }, correlationId: 'c', causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 } },
    ], 'any');
    await runner.start();
    try {
      const target = await head(side);
      expect(await runner.waitFor(['fragile'], target, 20_000)).toBe(false);
      expect(await runner.waitFor(['tickets'], target, 60_000)).toBe(true);
    } finally {
      await runner.stop();
    }
    const status = await projectionStatus(side.db.pool, side.store, [poisoned, ...PROJECTIONS]);
    const fragile = status.projections.find((p) => p.name === 'fragile')!;
    expect(fragile.state).toBe('failed');
    expect(fragile.error).toMatch(/cannot read these notes/);
    expect(fragile.errorEventId).toEqual(expect.any(String));
    expect(status.projections.find((p) => p.name === 'tickets')).toMatchObject({ state: 'running', error: null });
    const { rows } = await side.db.pool.query<{ admin_notes: string }>('SELECT admin_notes FROM tickets WHERE id = 1000001');
    expect(rows[0]!.admin_notes).toBe('poison');
  });
});
