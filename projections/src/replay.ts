import { randomUUID } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import type { Pool, PoolClient } from 'pg';
import { applyOperations, quoteIdentifier } from './apply';
import { lockCheckpoint, writeCheckpoint } from './checkpoints';
import { type EventSource, type Position, type RecordedEvent, START } from './event-source';
import { READ_MIGRATION_SET, runMigrations } from './migrate';
import { type AnyProjection, type AnyRowOperation, PoisonedEventError } from './projection';
import { inTransaction } from './transaction';

export interface ReplayProgress {
  readonly done: number;
  /** Events to read in all, when the store can count them. */
  readonly total: number | null;
  readonly eventsPerSecond: number;
  readonly etaSeconds: number | null;
  readonly phase: 'rebuilding' | 'swapping' | 'done';
}

export interface ReplayOptions {
  readonly pool: Pool;
  readonly source: EventSource;
  readonly projections: readonly AnyProjection[];
  readonly batchSize?: number;
  readonly onProgress?: (progress: ReplayProgress) => void;
}

export interface ReplayResult {
  readonly events: number;
  readonly position: Position;
  readonly seconds: number;
}

function operationsFor(projections: readonly AnyProjection[], events: readonly RecordedEvent[]): Map<AnyProjection, AnyRowOperation[]> {
  const byProjection = new Map<AnyProjection, AnyRowOperation[]>(projections.map((p) => [p, []]));
  for (const event of events) {
    for (const projection of projections) {
      if (!projection.eventTypes.includes(event.type)) continue;
      try {
        byProjection.get(projection)!.push(...projection.project(event));
      } catch (reason) {
        throw new PoisonedEventError(projection.name, event, reason);
      }
    }
  }
  return byProjection;
}

/**
 * Rebuilds projections from position 0 into fresh tables (a schema of their own, created by the read
 * side's migrations), while the app keeps serving the old tables; then, in one transaction that holds the
 * projections' checkpoint rows (pausing their live runners), applies the last events, swaps the tables in
 * and moves the checkpoints. Writes nothing but read tables: no email, no webhook.
 */
export async function replay(options: ReplayOptions): Promise<ReplayResult> {
  const { pool, source, projections } = options;
  const batchSize = options.batchSize ?? 5000;
  const replaySchema = `replay_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const started = Date.now();
  const total = source.countAfter ? await source.countAfter(START) : null;
  let done = 0;
  const report = (phase: ReplayProgress['phase']): void => {
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    const eventsPerSecond = done / seconds;
    const etaSeconds = total !== null && eventsPerSecond > 0 ? Math.max(total - done, 0) / eventsPerSecond : null;
    options.onProgress?.({ done, total, eventsPerSecond, etaSeconds, phase });
  };

  const { rows } = await pool.query<{ schema: string }>('SELECT current_schema() AS schema');
  const liveSchema = rows[0]!.schema;
  await pool.query(`CREATE SCHEMA ${quoteIdentifier(replaySchema)}`);

  const applyEvents = async (client: PoolClient, events: readonly RecordedEvent[]): Promise<void> => {
    for (const [projection, operations] of operationsFor(projections, events)) {
      await applyOperations(client, projection, operations, replaySchema);
    }
  };

  try {
    // Not destroyed afterwards: destroying a kysely instance ends the pool, which the caller goes on using.
    await runMigrations(new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) }), READ_MIGRATION_SET, replaySchema);

    // 1. Rebuild, batch by batch, without holding anything the app needs.
    let position = START;
    for (;;) {
      const events = await source.readAll(position, batchSize);
      if (events.length === 0) break;
      await inTransaction(pool, (client) => applyEvents(client, events));
      position = events[events.length - 1]!.position;
      done += events.length;
      report('rebuilding');
    }

    // 2. Swap: hold the checkpoints, apply what arrived meanwhile, move the tables in.
    report('swapping');
    await inTransaction(pool, async (client) => {
      for (const projection of projections) await lockCheckpoint(client, projection.name);
      for (;;) {
        const events = source.readAllUsing
          ? await source.readAllUsing(client, position, batchSize)
          : await source.readAll(position, batchSize);
        if (events.length === 0) break;
        await applyEvents(client, events);
        position = events[events.length - 1]!.position;
        done += events.length;
      }
      for (const projection of projections) {
        for (const table of projection.tables) {
          await client.query(`DROP TABLE IF EXISTS ${quoteIdentifier(liveSchema)}.${quoteIdentifier(table.name)}`);
          await client.query(
            `ALTER TABLE ${quoteIdentifier(replaySchema)}.${quoteIdentifier(table.name)} SET SCHEMA ${quoteIdentifier(liveSchema)}`,
          );
        }
        await writeCheckpoint(client, projection.name, position);
      }
    });
    report('done');
    return { events: done, position, seconds: (Date.now() - started) / 1000 };
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(replaySchema)} CASCADE`);
  }
}
