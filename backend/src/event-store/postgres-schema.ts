import { inTransaction } from '@ppr/projections';
import type { Pool, PoolClient } from 'pg';

/** SQLSTATE raised by es_append when the stream is not at the expected revision. */
export const WRONG_EXPECTED_REVISION_SQLSTATE = 'ESWEV';

/** Expected-revision codes understood by es_append (a revision is >= 0). */
export const EXPECTED_NO_STREAM = -1;
export const EXPECTED_ANY = -2;
export const EXPECTED_STREAM_EXISTS = -3;

/**
 * The expected-revision check of the append functions (PL/pgSQL), with the stream's revision before the
 * append in `v_current` (-1 for a new stream): one text for all. `hint`, an expression, goes in the error's
 * HINT (es_append_many names the stream).
 */
function checkExpectedRevision(expected: string, hint?: string): string {
  return `IF (${expected} = ${EXPECTED_NO_STREAM} AND v_current <> -1)
     OR (${expected} = ${EXPECTED_STREAM_EXISTS} AND v_current = -1)
     OR (${expected} >= 0 AND v_current <> ${expected}) THEN
    RAISE EXCEPTION USING ERRCODE = '${WRONG_EXPECTED_REVISION_SQLSTATE}',
      MESSAGE = 'wrong expected revision', DETAIL = v_current::text${hint ? `, HINT = ${hint}` : ''};
  END IF;`;
}

/**
 * The event store's tables and its append function. Idempotent: run at every start.
 *
 * Global order: every event carries the id of the transaction that wrote it. Readers only read events
 * whose transaction id is below the oldest transaction still running in this database (READ_HORIZON in
 * postgres-read.ts), and order by (transaction id, position). An event can therefore never appear
 * behind a position a reader has passed, however the writers' commits interleave.
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

-- Events' documents are compressed with lz4 where the server was built with it: an email's event carries
-- its rendered content (over the 2 KB TOAST threshold), which pglz compressed at every append, several
-- times slower. Only new values use it; both read back alike. Altered once, not at every start (the ALTER
-- locks the table). A server without lz4 (the embedded one, as built) keeps pglz.
DO $lz4$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals))
     AND EXISTS (SELECT 1 FROM pg_attribute
                  WHERE attrelid = 'es_events'::regclass AND attname IN ('data', 'metadata') AND attcompression <> 'l') THEN
    ALTER TABLE es_events ALTER COLUMN data SET COMPRESSION lz4, ALTER COLUMN metadata SET COMPRESSION lz4;
  END IF;
END
$lz4$;

-- The body of an append, once the stream's lock is held: moves the stream's revision, checks the expected
-- revision, inserts the events. Called by es_append, es_append_many and es_append_numbered only.
CREATE OR REPLACE FUNCTION es_append_locked(
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
  -- One statement moves the stream's revision and tells where it was (-1: the stream is new). A wrong
  -- expected revision raises below, which undoes this statement with everything else.
  INSERT INTO es_streams AS s (stream_id, revision) VALUES (p_stream, v_count - 1)
    ON CONFLICT (stream_id) DO UPDATE SET revision = s.revision + v_count
    RETURNING s.revision - v_count INTO v_current;

  ${checkExpectedRevision('p_expected')}

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

CREATE OR REPLACE FUNCTION es_append(
  p_stream text,
  p_expected bigint,
  p_ids uuid[],
  p_types text[],
  p_data jsonb[],
  p_metadata jsonb[]
) RETURNS TABLE (next_revision bigint, tx_id xid8, last_position bigint)
LANGUAGE plpgsql AS $fn$
BEGIN
  -- The global order is (transaction id, position). A transaction id is given at a transaction's first
  -- write, so the stream lock below must come before any write: then a later writer of the same stream
  -- always has a larger transaction id, and a stream's events stay in revision order in the global order.
  IF pg_current_xact_id_if_assigned() IS NOT NULL THEN
    RAISE EXCEPTION 'es_append must be the first write of its transaction';
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended(p_stream, 7262));
  RETURN QUERY SELECT * FROM es_append_locked(p_stream, p_expected, p_ids, p_types, p_data, p_metadata);
END
$fn$;

-- es_append for a single event, its fields as scalars: the usual append of a command. Saves encoding the
-- event's JSON as an array literal (every quote escaped) and parsing it back, and es_append_locked's
-- arrays, unnest and nested result set: about a tenth of the server's time per append (pgbench, 8 clients).
-- Its expected-revision check is es_append_locked's (checkExpectedRevision).
CREATE OR REPLACE FUNCTION es_append_one(
  p_stream text,
  p_expected bigint,
  p_id uuid,
  p_type text,
  p_data jsonb,
  p_metadata jsonb
) RETURNS TABLE (next_revision bigint, tx_id xid8, last_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_current bigint;
BEGIN
  IF pg_current_xact_id_if_assigned() IS NOT NULL THEN
    RAISE EXCEPTION 'es_append must be the first write of its transaction';
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended(p_stream, 7262));
  INSERT INTO es_streams AS s (stream_id, revision) VALUES (p_stream, 0)
    ON CONFLICT (stream_id) DO UPDATE SET revision = s.revision + 1
    RETURNING s.revision - 1 INTO v_current;

  ${checkExpectedRevision('p_expected')}

  INSERT INTO es_events (event_id, stream_id, stream_revision, type, data, metadata)
    VALUES (p_id, p_stream, v_current + 1, p_type, p_data, p_metadata)
    RETURNING es_events.position INTO last_position;
  next_revision := v_current + 1;
  tx_id := pg_current_xact_id();
  RETURN NEXT;
END
$fn$;

-- Takes the locks of several streams, each once and in one order (so two callers cannot deadlock on them),
-- before the transaction's first write, as es_append requires. p_caller names the caller in the error.
CREATE OR REPLACE FUNCTION es_lock_streams(p_streams text[], p_caller text) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  v_stream text;
BEGIN
  IF pg_current_xact_id_if_assigned() IS NOT NULL THEN
    RAISE EXCEPTION '% must be the first write of its transaction', p_caller;
  END IF;
  FOR v_stream IN SELECT DISTINCT s FROM unnest(p_streams) AS s ORDER BY s LOOP
    PERFORM pg_advisory_xact_lock(hashtextextended(v_stream, 7262));
  END LOOP;
END
$fn$;

-- Appends to several streams in one transaction (PostgresAppender.appendInTransaction), each at the revision
-- its caller expects: every stream's lock first (in one order, so two callers cannot deadlock on them), and
-- only then the writes, so the transaction id (given at the first write) comes after every lock, as es_append
-- requires. p_counts[i] events of the arrays that follow are stream i's, in order. A wrong expected revision
-- raises as es_append's does, with the stream in its HINT (which of several it was). Returns each stream's
-- result, in the order given.
CREATE OR REPLACE FUNCTION es_append_many(
  p_streams text[],
  p_expected bigint[],
  p_counts integer[],
  p_ids uuid[],
  p_types text[],
  p_data jsonb[],
  p_metadata jsonb[]
) RETURNS TABLE (ord integer, next_revision bigint, tx_id xid8, last_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_from integer := 1;
  v_to integer;
  v_current bigint;
BEGIN
  PERFORM es_lock_streams(p_streams, 'es_append_many');
  FOR i IN 1 .. coalesce(array_length(p_streams, 1), 0) LOOP
    v_to := v_from + p_counts[i] - 1;
    v_current := coalesce((SELECT s.revision FROM es_streams AS s WHERE s.stream_id = p_streams[i]), -1);
    ${checkExpectedRevision('p_expected[i]', 'p_streams[i]')}
    RETURN QUERY SELECT i, a.next_revision, a.tx_id, a.last_position
      FROM es_append_locked(p_streams[i], p_expected[i], p_ids[v_from:v_to], p_types[v_from:v_to],
                            p_data[v_from:v_to], p_metadata[v_from:v_to]) AS a;
    v_from := v_to + 1;
  END LOOP;
END
$fn$;

-- Single-event appends of concurrent callers, each to its stream at the revision its caller expects, in one
-- transaction (the store's group commit, see PostgresAppender.append): every stream's lock first, in one
-- order, then the appends in the order given, each seeing the ones before it. An append whose expected
-- revision does not hold writes nothing and answers the stream's revision with no position; the others are
-- written all the same. A duplicate event id fails the whole statement (the store then appends each alone).
CREATE OR REPLACE FUNCTION es_append_group(
  p_streams text[],
  p_expected bigint[],
  p_ids uuid[],
  p_types text[],
  p_data jsonb[],
  p_metadata jsonb[]
) RETURNS TABLE (ord integer, revision bigint, tx_id xid8, event_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_stream text;
  v_expected bigint;
  v_revision bigint;
BEGIN
  PERFORM es_lock_streams(p_streams, 'es_append_group');
  FOR i IN 1 .. coalesce(array_length(p_streams, 1), 0) LOOP
    v_stream := p_streams[i];
    v_expected := p_expected[i];
    v_revision := NULL;
    -- The stream's revision moves only when the expected revision holds, so nothing needs undoing.
    IF v_expected = ${EXPECTED_NO_STREAM} THEN
      INSERT INTO es_streams (stream_id, revision) VALUES (v_stream, 0)
        ON CONFLICT (stream_id) DO NOTHING
        RETURNING 0 INTO v_revision;
    ELSIF v_expected = ${EXPECTED_ANY} THEN
      INSERT INTO es_streams AS s (stream_id, revision) VALUES (v_stream, 0)
        ON CONFLICT (stream_id) DO UPDATE SET revision = s.revision + 1
        RETURNING s.revision INTO v_revision;
    ELSE
      UPDATE es_streams AS s SET revision = s.revision + 1
       WHERE s.stream_id = v_stream AND (v_expected = ${EXPECTED_STREAM_EXISTS} OR s.revision = v_expected)
      RETURNING s.revision INTO v_revision;
    END IF;
    IF v_revision IS NULL THEN
      ord := i;
      revision := coalesce((SELECT s.revision FROM es_streams AS s WHERE s.stream_id = v_stream), -1);
      tx_id := NULL;
      event_position := NULL;
    ELSE
      INSERT INTO es_events (event_id, stream_id, stream_revision, type, data, metadata)
        VALUES (p_ids[i], v_stream, v_revision, p_types[i], p_data[i], p_metadata[i])
        RETURNING es_events.position INTO event_position;
      ord := i;
      revision := v_revision;
      tx_id := pg_current_xact_id();
    END IF;
    RETURN NEXT;
  END LOOP;
END
$fn$;

-- Appends the first events of a new stream numbered from a sequence, in one statement: the stream is
-- p_prefix || nextval(p_sequence), and every event whose data has the top-level field p_id_field gets
-- the number there. Returns the number with the usual append result.
--
-- nextval may give the transaction its id before the stream's lock (it WAL-logs every 32 values), which
-- es_append refuses. It is safe here because the stream is new (expected: no stream): a writer that
-- appended to it before makes this append fail, and any later writer takes the stream's lock first and
-- only then gets its transaction id, after this one committed, so a larger one.
CREATE OR REPLACE FUNCTION es_append_numbered(
  p_sequence regclass,
  p_prefix text,
  p_id_field text,
  p_ids uuid[],
  p_types text[],
  p_data jsonb[],
  p_metadata jsonb[]
) RETURNS TABLE (stream_number bigint, next_revision bigint, tx_id xid8, last_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_number bigint := nextval(p_sequence);
  v_stream text := p_prefix || v_number;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(v_stream, 7262));
  RETURN QUERY SELECT v_number, a.next_revision, a.tx_id, a.last_position
    FROM es_append_locked(
      v_stream,
      ${EXPECTED_NO_STREAM},
      p_ids,
      p_types,
      ARRAY(
        SELECT CASE WHEN d.data ? p_id_field THEN jsonb_set(d.data, ARRAY[p_id_field], to_jsonb(v_number)) ELSE d.data END
          FROM unnest(p_data) WITH ORDINALITY AS d(data, ord)
         ORDER BY d.ord
      ),
      p_metadata
    ) AS a;
END
$fn$;
`;

/** Creates the event store's tables and function, once, even when several processes start together. */
export async function ensureEventStoreSchema(db: Pool | PoolClient): Promise<void> {
  await inTransaction(db, async (client) => {
    // Serializes concurrent starts: CREATE ... IF NOT EXISTS is not safe against itself.
    await client.query('SELECT pg_advisory_xact_lock(7262001)');
    await client.query(EVENT_STORE_DDL);
  });
}
