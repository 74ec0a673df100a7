import { randomUUID } from 'node:crypto';
import { openStoreInOwnDatabase, testEvent as event, type TestStore } from '../../test/event-store-fixtures';
import { START } from './event-store.port';
import { RECORDED_AT_MS } from './postgres-event-store';

/**
 * The store reads `recorded_at` as milliseconds since 1970 (RECORDED_AT_MS in postgres-event-store.ts), not
 * through pg's parsing of the text form: the times must be the ones pg's own parsing gives, to the
 * millisecond, for any microseconds (truncated, as pg truncates them), and the other columns as stored.
 * On PostgreSQL (DATABASE_URL) in a database of its own: readAll reads up to the readers' horizon, which
 * another test file's open transaction in a shared database holds back (its appends would be missing);
 * else on the embedded database.
 */
describe('event columns as the PostgreSQL store reads them', () => {
  let opened: TestStore;

  beforeAll(async () => {
    opened = await openStoreInOwnDatabase('es_columns', { pollIntervalMs: 60_000 });
  });
  afterAll(async () => {
    await opened?.close();
  });

  it('gives recorded_at as pg parses it, whatever its microseconds, through readStream and readAll', async () => {
    const stream = `columns-${randomUUID()}`;
    const events = [event('A'), event('B'), event('C'), event('D')];
    const appended = await opened.store.append(stream, events, 'no_stream');
    // Times at the edges of a millisecond, and one before 1970.
    const times = [
      '2026-11-26 21:00:00.123999+00',
      '2026-11-26 21:00:00.999999+00',
      '2026-11-26 21:00:00.000001+00',
      '1969-12-31 23:59:59.998500+00',
    ];
    for (const [i, time] of times.entries()) {
      await opened.db.pool.query('UPDATE es_events SET recorded_at = $1::timestamptz WHERE event_id = $2', [time, events[i]!.id]);
    }
    const { rows } = await opened.db.pool.query<{ event_id: string; recorded_at: Date }>(
      'SELECT event_id, recorded_at FROM es_events WHERE stream_id = $1 ORDER BY stream_revision',
      [stream],
    );
    const parsedByPg = rows.map((row) => row.recorded_at.toISOString());
    expect(parsedByPg).toEqual([
      '2026-11-26T21:00:00.123Z',
      '2026-11-26T21:00:00.999Z',
      '2026-11-26T21:00:00.000Z',
      '1969-12-31T23:59:59.998Z',
    ]);

    const fromStream = await opened.store.readStream(stream);
    expect(fromStream.map((e) => e.recordedAt.toISOString())).toEqual(parsedByPg);
    let fromAll = await opened.store.readAll(START, 10_000);
    for (let last = fromAll; last.length === 10_000;) {
      last = await opened.store.readAll(last[last.length - 1]!.position, 10_000);
      fromAll = [...fromAll, ...last];
    }
    const mine = fromAll.filter((e) => e.streamId === stream);
    expect(mine.map((e) => e.recordedAt.toISOString())).toEqual(parsedByPg);
    expect(mine.map((e) => [e.id, e.type, e.revision, e.data, e.metadata])).toEqual(
      events.map((e, i) => [e.id, e.type, i, e.data, e.metadata]),
    );
    expect(mine[mine.length - 1]!.position).toEqual(appended.position);
  });

  it('gives the same milliseconds as exact numeric arithmetic, at the edges of a second, in any session time zone', async () => {
    const client = await opened.db.pool.connect();
    try {
      // Whole seconds from 1700 to 2240 (around 1970, 2038 and today), each with microseconds at the edges of a
      // millisecond and of the second; zones with whole-hour, half-hour, 45-minute and (before 1883) odd-second offsets.
      const zones = ['UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Eucla', 'Pacific/Chatham'];
      for (const zone of zones) {
        await client.query(`SELECT set_config('timezone', $1, false)`, [zone]);
        const { rows } = await client.query<{ checked: number; mismatches: number; first: string | null }>(
          `SELECT count(*)::int AS checked,
                  count(*) FILTER (WHERE ${RECORDED_AT_MS} <> floor(extract(epoch FROM recorded_at) * 1000)::float8)::int AS mismatches,
                  min(recorded_at::text) FILTER (WHERE ${RECORDED_AT_MS} <> floor(extract(epoch FROM recorded_at) * 1000)::float8) AS first
             FROM (SELECT to_timestamp(s::float8) + make_interval(secs => u / 1e6) AS recorded_at
                     FROM unnest(ARRAY[-8520336000, -2717640000, -1, 0, 1, 1795900000, 2147483647, 4102444800, 8520336000]::int8[]) AS s,
                          unnest(ARRAY[0, 1, 999, 1000, 1001, 123999, 500000, 998999, 999000, 999001, 999999]) AS u) AS t`,
        );
        expect({ zone, ...rows[0] }).toEqual({ zone, checked: 99, mismatches: 0, first: null });
      }
    } finally {
      await client.query(`RESET timezone`);
      client.release();
    }
  });
});
