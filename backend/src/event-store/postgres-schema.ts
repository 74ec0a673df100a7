import type { Pool, PoolClient } from 'pg';

/** SQLSTATE raised by es_append when the stream is not at the expected revision. */
export const WRONG_EXPECTED_REVISION_SQLSTATE = 'ESWEV';

/** Expected-revision codes understood by es_append (a revision is >= 0). */
export const EXPECTED_NO_STREAM = -1;
export const EXPECTED_ANY = -2;
export const EXPECTED_STREAM_EXISTS = -3;

/**
 * The event store's tables and its append function. Idempotent: run at every start.
 *
 * Global order: every event carries the id of the transaction that wrote it. Readers only read events
 * whose transaction id is below the oldest transaction still running (pg_snapshot_xmin), and order by
 * (transaction id, position). An event can therefore never appear behind a position a reader has passed,
 * however the writers' commits interleave.
 */
export const EVENT_STORE_DDL = `
CREATE TABLE IF NOT EXISTS es_streams (
  stream_id text PRIMARY KEY,
  revision bigint NOT NULL
);

CREATE TABLE IF NOT EXISTS es_events (
  position bigserial PRIMARY KEY,
  tx_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  event_id uuid NOT NULL UNIQUE,
  stream_id text NOT NULL,
  stream_revision bigint NOT NULL,
  type text NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (stream_id, stream_revision)
);

CREATE INDEX IF NOT EXISTS es_events_global_order ON es_events (tx_id, position);

CREATE OR REPLACE FUNCTION es_append(
  p_stream text,
  p_expected bigint,
  p_ids uuid[],
  p_types text[],
  p_data jsonb[],
  p_metadata jsonb[]
) RETURNS TABLE (next_revision bigint, tx_id xid8, last_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_count integer := coalesce(array_length(p_ids, 1), 0);
  v_current bigint;
  v_last bigint;
BEGIN
  IF v_count = 0 THEN
    RAISE EXCEPTION 'es_append needs at least one event';
  END IF;
  -- The global order is (transaction id, position). A transaction id is given at a transaction's first
  -- write, so the stream lock below must come before any write: then a later writer of the same stream
  -- always has a larger transaction id, and a stream's events stay in revision order in the global order.
  IF pg_current_xact_id_if_assigned() IS NOT NULL THEN
    RAISE EXCEPTION 'es_append must be the first write of its transaction';
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended(p_stream, 7262));

  -- One statement moves the stream's revision and tells where it was (-1: the stream is new). A wrong
  -- expected revision raises below, which undoes this statement with everything else.
  INSERT INTO es_streams AS s (stream_id, revision) VALUES (p_stream, v_count - 1)
    ON CONFLICT (stream_id) DO UPDATE SET revision = s.revision + v_count
    RETURNING s.revision - v_count INTO v_current;

  IF (p_expected = ${EXPECTED_NO_STREAM} AND v_current <> -1)
     OR (p_expected = ${EXPECTED_STREAM_EXISTS} AND v_current = -1)
     OR (p_expected >= 0 AND v_current <> p_expected) THEN
    RAISE EXCEPTION USING ERRCODE = '${WRONG_EXPECTED_REVISION_SQLSTATE}',
      MESSAGE = 'wrong expected revision', DETAIL = v_current::text;
  END IF;

  WITH inserted AS (
    INSERT INTO es_events (event_id, stream_id, stream_revision, type, data, metadata)
    SELECT e.id, p_stream, v_current + e.ord, e.type, e.data, e.metadata
      FROM unnest(p_ids, p_types, p_data, p_metadata) WITH ORDINALITY AS e(id, type, data, metadata, ord)
      ORDER BY e.ord
    RETURNING es_events.position
  )
  SELECT max(inserted.position) INTO v_last FROM inserted;

  RETURN QUERY SELECT v_current + v_count, pg_current_xact_id(), v_last;
END
$fn$;
`;

/** Creates the event store's tables and function, once, even when several processes start together. */
export async function ensureEventStoreSchema(db: Pool | PoolClient): Promise<void> {
  const client = 'release' in db ? db : await db.connect();
  try {
    await client.query('BEGIN');
    // Serializes concurrent starts: CREATE ... IF NOT EXISTS is not safe against itself.
    await client.query('SELECT pg_advisory_xact_lock(7262001)');
    await client.query(EVENT_STORE_DDL);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    if (!('release' in db)) (client as PoolClient).release();
  }
}
