/**
 * The admin ticket list at a million tickets, on a real PostgreSQL (DATABASE_URL, default the local test
 * database), over HTTP through the whole app.
 *
 *   npm run bench:admin-list
 *
 * Loads BENCH_TICKETS (default 1,000,000) rows into the tickets read table of a schema of its own (dropped
 * at the end), with the indexes the read-side migrations create, then measures GET /api/admin/tickets as an
 * admin: a text search, a status filter, the response filter and each sort in both orders, at page 1 and
 * at page 5,000 (limit 10), BENCH_REQUESTS (default 50) requests each after 5 warm-ups, one at a time.
 * Prints p50 and p95 per combination (target: p95 < 50 ms), each p50 over a baseline request's in the same run
 * (GET /api/admin/me: the machine's floor at that moment), the first (uncached) request, the load time, and
 * the plans PostgreSQL uses for the statements of each request (the count and the page, or for a deep page of a
 * text search the read of its ordered ids), from the same query builder the API runs.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { adminTicketListQuerySchema } from '@ppr/contracts';
import type { ReadDatabase } from '@ppr/projections';
import type { Kysely } from 'kysely';
import { adminTicketQueries } from '../backend/src/admin/queries/admin-tickets.read-model';
import { createApp } from '../backend/src/app';
import { loadConfig } from '../backend/src/config/config';
import type { Database } from '../backend/src/database/database';
import { DATABASE } from '../backend/src/database/database.tokens';
import { READ_DB } from '../backend/src/projections/projections.tokens';

const TICKETS = Number(process.env.BENCH_TICKETS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 50);
const WARM_UP = 5;
const DEEP_PAGE = 5000;
const TARGET_P95_MS = 50;

const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * A million plausible tickets in one statement. Fields come from a hash of the id, so every run loads the
 * same data: 20 business prefixes x 16 kinds ('Bakery' is 1 in 16, about 62,500 rows: enough for page 5,000
 * of a search), statuses 15/35/40/10 % (pending payment, active, resolved, canceled), fees paid (85 %),
 * waived (10 %) or refunded (5 %) on tickets past pending payment, one ticket every 31 seconds over the last
 * year. Resolved and canceled tickets were answered (a status change is a response); a fifth of the active
 * ones are still waiting for their first response, mostly long overdue (about 66,000: page 5,000 of the
 * response filter), a few of them paid within the last hour (due).
 */
const LOAD = `
  INSERT INTO tickets (id, reference, business_name, contact_name, email, phone, address, service_category, issue_description,
                       status, payment_status, stripe_payment_intent_id, payment_notes, fee_waiver, admin_notes, user_id,
                       engineer_id, tawk_to_ticket_id, created_at, last_updated, fee_settled_at, first_response_at)
  SELECT i, 'PPR-' || extract(year FROM created_at)::int || '-' || i,
         (ARRAY['Capitol','Potomac','Beltway','Rock Creek','Anacostia','Chevy Chase','Bethesda','Arlington','Alexandria','Tysons',
                'Reston','Herndon','Fairfax','Loudoun','Dupont','Georgetown','Shaw','Navy Yard','Foggy Bottom','Silver Spring'])[1 + h % 20]
           || ' ' || (ARRAY['Dental','Law','Realty','Bakery','Clinic','Accounting','Design','Logistics','Florist','Fitness',
                          'Insurance','Pharmacy','Studio','Consulting','Printing','Veterinary'])[1 + (h / 20) % 16]
           || ' ' || (i % 997),
         (ARRAY['Maya','Dana','Sam','José','Ana','Priya','Noah','Liam','Olivia','Emma','Ava','Mia','Lucas','Ethan','Zoe','Leah',
                'Omar','Yuki','Ivan','Chloe','Grace','Henry','Isaac','Jade'])[1 + (h / 320) % 24]
           || ' ' || (ARRAY['Patel','O''Neil','Lee','Álvarez','Ruiz','Kim','Nguyen','Smith','Brown','Garcia','Martin','Wilson',
                          'Clark','Lewis','Young','Hall','Allen','King','Wright','Scott','Green','Baker','Adams','Nelson'])[1 + (h / 7680) % 24],
         'owner' || i || '@example.com', '(703) 555-0100', NULL,
         (ARRAY['windows','networking','storage','cybersecurity','exchange','virtualization','troubleshooting'])[1 + h % 7],
         'Issue number ' || i, status,
         CASE WHEN status = 'pending_payment' THEN 'pending' WHEN fee = 'refunded' THEN 'refunded' ELSE 'completed' END,
         CASE WHEN status = 'pending_payment' OR fee = 'waived' THEN NULL ELSE 'pi_bench_' || i END,
         CASE WHEN status <> 'pending_payment' AND fee = 'waived' THEN 'Free diagnostic service' END,
         CASE WHEN status <> 'pending_payment' AND fee = 'waived' THEN 'free_diagnostic' END,
         NULL, NULL, NULL, NULL, created_at, created_at, settled,
         CASE WHEN settled IS NULL OR (status = 'active' AND (h / 7) % 5 = 0) THEN NULL
              ELSE settled + ((h % 50) + 1) * interval '1 minute' END
  FROM (
    SELECT i, h, created_at, status, fee,
           CASE WHEN status = 'pending_payment' OR fee = 'refunded' THEN NULL
                ELSE created_at + interval '5 minutes' - (h % 3) * interval '1 minute' END AS settled
    FROM (
      SELECT i, h, now() - i * interval '31 seconds' AS created_at,
             CASE WHEN (h / 1000) % 100 < 15 THEN 'pending_payment' WHEN (h / 1000) % 100 < 50 THEN 'active'
                  WHEN (h / 1000) % 100 < 90 THEN 'resolved' ELSE 'canceled' END AS status,
             CASE WHEN (h / 100) % 100 < 85 THEN 'paid' WHEN (h / 100) % 100 < 95 THEN 'waived' ELSE 'refunded' END AS fee
      FROM (SELECT i, (abs(hashint4(i)::bigint) % 2147483647)::int AS h FROM generate_series(1, $1::int) AS i) AS ids
    ) AS base
  ) AS rows`;

interface Scenario {
  readonly name: string;
  /** Query parameters as the SPA sends them. */
  readonly query: Readonly<Record<string, string>>;
}

const SORTS = ['createdAt', 'businessName', 'contactName', 'status', 'responseDue'] as const;
const SCENARIOS: Scenario[] = [
  { name: 'search "bakery"', query: { search: 'bakery' } },
  { name: 'status=resolved', query: { status: 'resolved' } },
  { name: 'response=overdue', query: { response: 'overdue' } },
  { name: 'response=overdue by time left', query: { response: 'overdue', sortBy: 'responseDue', sortOrder: 'asc' } },
  ...SORTS.flatMap((sortBy) =>
    (['asc', 'desc'] as const).map((sortOrder) => ({ name: `sort ${sortBy} ${sortOrder}`, query: { sortBy, sortOrder } })),
  ),
];

async function load(db: Database, schema: string): Promise<number> {
  const client = await db.pool.connect();
  try {
    const started = performance.now();
    await client.query(`SET maintenance_work_mem = '512MB'`);
    // Loading into a table without its secondary indexes and building them afterwards is how a bulk load (a
    // replay) is done; the indexes are the migrations' own, recreated from their definitions.
    const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = 'tickets' AND indexname <> 'tickets_pkey'`,
      [schema],
    );
    for (const index of indexes) await client.query(`DROP INDEX "${schema}"."${index.indexname}"`);
    await client.query(LOAD, [TICKETS]);
    const inserted = performance.now();
    out(`  ${TICKETS.toLocaleString('en-US')} rows inserted in ${((inserted - started) / 1000).toFixed(1)} s`);
    for (const index of indexes) {
      const begun = performance.now();
      await client.query(index.indexdef);
      out(`  index ${index.indexname}: ${((performance.now() - begun) / 1000).toFixed(1)} s`);
    }
    await client.query('VACUUM (ANALYZE) tickets');
    return (performance.now() - started) / 1000;
  } finally {
    client.release();
  }
}

async function login(base: string): Promise<string> {
  const admin = { username: 'bench_admin', email: 'bench@potomacpc.example', password: 'Bench-Admin-Password-2026' };
  const headers = { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
  const created = await fetch(`${base}/api/admin/create`, { method: 'POST', headers, body: JSON.stringify(admin) });
  if (created.status !== 201) throw new Error(`Admin setup failed: ${created.status} ${await created.text()}`);
  const response = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ username: admin.username, password: admin.password }),
  });
  if (response.status !== 200) throw new Error(`Admin login failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith('ppr.sid='));
  if (!cookie) throw new Error('No session cookie');
  return cookie.split(';')[0]!;
}

const listPath = (query: Readonly<Record<string, string | number>>): string =>
  `/api/admin/tickets?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()}`;

async function measure(
  base: string,
  cookie: string,
  path: string,
): Promise<{ first: number; p50: number; p95: number; max: number; total: number; rows: number }> {
  const url = `${base}${path}`;
  const timings: number[] = [];
  let first = 0;
  let total = 0;
  let rows = 0;
  for (let n = 0; n < WARM_UP + REQUESTS; n++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { Cookie: cookie } });
    const body = (await response.json()) as { tickets?: unknown[]; total?: number; message?: string };
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${body.message ?? ''}`);
    if (n === 0) first = elapsed;
    if (n >= WARM_UP) timings.push(elapsed);
    total = body.total ?? 0;
    rows = body.tickets?.length ?? 0;
  }
  timings.sort((a, b) => a - b);
  return { first, p50: percentile(timings, 50), p95: percentile(timings, 95), max: timings.at(-1)!, total, rows };
}

/** EXPLAIN ANALYZE of one statement the API runs, indented. */
async function plan(
  db: Database,
  label: string,
  builder: { compile(): { sql: string; parameters: readonly unknown[] } },
): Promise<string[]> {
  const compiled = builder.compile();
  const { rows } = await db.pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF) ${compiled.sql}`, [...compiled.parameters]);
  return [`    ${label}:`, ...rows.map((row) => `      ${row['QUERY PLAN']}`)];
}

/** The plans of a combination: its count (run once per table version, see TicketCountCache) and its pages. */
async function explain(db: Database, readDb: Kysely<ReadDatabase>, query: Scenario['query']): Promise<string[]> {
  const first = adminTicketQueries(readDb, adminTicketListQuerySchema.parse({ ...query, page: '1' }), new Date());
  const deep = adminTicketQueries(readDb, adminTicketListQuerySchema.parse({ ...query, page: String(DEEP_PAGE) }), new Date());
  return [
    ...(await plan(db, 'count (uncached)', first.count)),
    ...(await plan(db, 'page 1', first.page)),
    ...(query.search
      ? await plan(db, `all ids (uncached; page ${DEEP_PAGE} is a slice of them)`, deep.allIds)
      : await plan(db, `page ${DEEP_PAGE}`, deep.page)),
  ];
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_admin_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const config = loadConfig({
    DATABASE_URL: url,
    DATABASE_SCHEMA: schema,
    DATABASE_POOL_SIZE: '10',
    DATA_DIR: 'memory',
    LOG_LEVEL: 'warn',
    EVENT_STORE_POLL_MS: '1000',
  });
  const app = await createApp(config, { serveSpa: false, logger: false });
  const db = app.get<Database>(DATABASE);
  const readDb = app.get<Kysely<ReadDatabase>>(READ_DB);
  let failures = 0;
  try {
    const version = (await db.pool.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
    out(`Admin list benchmark on PostgreSQL ${version} (schema ${schema}), ${REQUESTS} requests per combination, limit 10`);
    out(`\nLoading ${TICKETS.toLocaleString('en-US')} tickets into the read table...`);
    const seconds = await load(db, schema);
    out(`  loaded, indexed and analyzed in ${seconds.toFixed(1)} s`);

    const server = (await app.listen(0, '127.0.0.1')) as Server;
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const cookie = await login(base);
    // The floor on this machine, now: an admin request that reads one row by its key. The ratios to it tell
    // the list's own cost apart from a loaded machine's (other processes share the cores).
    const baseline = await measure(base, cookie, '/api/admin/me');
    out(`\nBaseline GET /api/admin/me: p50 ${baseline.p50.toFixed(1)} ms, p95 ${baseline.p95.toFixed(1)} ms`);

    out(`\nGET /api/admin/tickets over HTTP (ms; target p95 < ${TARGET_P95_MS}; x base: p50 over the baseline's p50)`);
    out(
      `  ${'combination'.padEnd(34)} ${'page'.padStart(5)} ${'first'.padStart(7)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'max'.padStart(7)} ${'x base'.padStart(7)} ${'total'.padStart(9)}`,
    );
    const plans: string[] = [];
    for (const scenario of SCENARIOS) {
      for (const page of [1, DEEP_PAGE]) {
        const query = { ...scenario.query, page };
        const result = await measure(base, cookie, listPath(query));
        const ok = result.p95 < TARGET_P95_MS;
        if (!ok) failures += 1;
        const cells = [result.first, result.p50, result.p95, result.max].map((ms) => ms.toFixed(1).padStart(7));
        const ratio = `${(result.p50 / baseline.p50).toFixed(1)}x`.padStart(7);
        const rows = result.rows === 10 ? '' : ` (${result.rows} rows)`;
        out(
          `  ${scenario.name.padEnd(34)} ${String(page).padStart(5)} ${cells.join(' ')} ${ratio} ${String(result.total).padStart(9)}${rows}${ok ? '' : '  over target'}`,
        );
      }
      plans.push(`  ${scenario.name}:`, ...(await explain(db, readDb, scenario.query)));
    }
    out(
      `\n${failures === 0 ? 'Every combination' : `${failures} of ${SCENARIOS.length * 2} combinations`} ${failures === 0 ? 'met' : 'missed'} the target.`,
    );
    out('\nTotals other than the response filters come from TicketCountCache: exact, counted once per version of the read table (a');
    out('static table here; in production every ticket event moves the version, and the next request counts again: the');
    out('"count (uncached)" plans below show what that costs). Pages of a text search from offset 500 on are slices of the');
    out('search\'s ordered ids, read once per version of the table (TicketIdListCache; the "all ids" plan is that read).');
    out('"first" is the first request of a combination, before any warm-up: it pays for those reads.');
    out('\nQuery plans (EXPLAIN ANALYZE of the statements the API runs):');
    for (const line of plans) out(line);
  } finally {
    await app.close();
    const admin = new (await import('pg')).Pool({ connectionString: url, max: 1 });
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
