import type { INestApplication } from '@nestjs/common';
import { createApp } from '../app';
import { loadConfig } from '../config/config';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import type { EventStore } from '../event-store/event-store.port';
import { EVENT_STORE } from '../event-store/event-store.tokens';
import { firstAdmin } from '../../test/admin-helpers';
import { testSchema } from '../../test/test-schema';
import { writeTicket } from './testing/ticket-events';
import { eventually, WebhookReceiver } from './testing/webhook-receiver';

jest.setTimeout(120_000);

/** The sender looks at least once a second while it waits: about 3 times in 3 s, not thousands. */
const WATCH_MS = 3_000;
const AT_MOST = 15;
/** The process's clock runs this far ahead of the database's (exaggerated: a few seconds is what drifts). */
const SKEW_MS = 10 * 60_000;
const onPostgres = process.env.DATABASE_URL ? it : it.skip;

/** How many statements on webhook_deliveries the app runs in WATCH_MS. */
async function statementsWhileWatching(pool: Database['pool']): Promise<number> {
  const query = jest.spyOn(pool, 'query');
  try {
    await new Promise((resolve) => setTimeout(resolve, WATCH_MS));
    // A statement is a string or (a named, prepared one) a config object with its text.
    const textOf = (statement: unknown): string => {
      if (typeof statement === 'string') return statement;
      const text = (statement as { text?: unknown } | null)?.text;
      return typeof text === 'string' ? text : '';
    };
    return query.mock.calls.filter(([statement]) => /webhook_deliveries/.test(textOf(statement))).length;
  } finally {
    query.mockRestore();
  }
}

/**
 * The webhook sender waits for the next delivery it could send, on both databases: when nothing is pending, when
 * the only pending deliveries wait behind a failed earlier one of their ticket (sent only after it), and when the
 * process's clock runs ahead of the database's. Each time, asking the database again at once would be a loop as
 * fast as the database answers.
 */
describe('webhook sender at rest', () => {
  const schema = testSchema('test');
  const receiver = new WebhookReceiver();
  let app: INestApplication;

  beforeAll(async () => {
    await receiver.start();
    app = await createApp(
      loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        EVENT_STORE_POLL_MS: '100',
        ...schema.env,
        DATA_DIR: 'memory',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_RETRY_BASE_MS: '60000',
      }),
      { serveSpa: false, logger: false },
    );
  });
  afterAll(async () => {
    await app?.close();
    await receiver.stop();
    await schema.drop();
  });

  it('does not query in a loop when nothing is pending', async () => {
    const pool = app.get<Database>(DATABASE).pool;
    expect(await statementsWhileWatching(pool)).toBeLessThan(AT_MOST);
  });

  it("does not query in a loop while a ticket's later delivery waits behind a failed earlier one", async () => {
    const pool = app.get<Database>(DATABASE).pool;
    const store = app.get<EventStore>(EVENT_STORE);
    const { agent } = await firstAdmin(app);
    receiver.answer = () => 503;
    await agent
      .post('/api/admin/webhooks')
      .send({ url: `${receiver.url}/held`, eventTypes: ['ticket.created', 'ticket.status_changed'] })
      .expect(201);
    await writeTicket(store, async () => (await pool.query<{ id: number }>(`SELECT nextval('ticket_id_seq')::int AS id`)).rows[0]!.id);
    await eventually(async () => {
      const { rows } = await pool.query<{ attempts: number; status: string }>(
        `SELECT attempts, status FROM webhook_deliveries ORDER BY id`,
      );
      // The created event failed once and waits a minute; the status change, due now, waits behind it.
      return rows.length === 2 && rows[0]!.attempts === 1 && rows[1]!.attempts === 0 ? true : undefined;
    }, 'the first failed attempt and the delivery held back behind it');

    expect(await statementsWhileWatching(pool)).toBeLessThan(AT_MOST);
    // The held-back delivery was not sent out of order meanwhile.
    expect(receiver.to('/held')).toHaveLength(1);
  });

  /**
   * The failed delivery's next attempt was set by the database (now() + the backoff); the sender must wait for it
   * by that same clock. Measured with the process's clock, a process clock ahead of the database's made every
   * wait 0 until the skew had passed. The embedded database reads the process's clock itself (the two cannot
   * differ there): skipped.
   */
  onPostgres('waits for the retry by the database clock when the process clock runs ahead of it', async () => {
    const pool = app.get<Database>(DATABASE).pool;
    const realNow = Date.now.bind(Date);
    const skewed = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + SKEW_MS);
    try {
      const { rows } = await pool.query<{ ms: number }>(`SELECT (extract(epoch FROM now()) * 1000)::float8 AS ms`);
      expect(Date.now() - Number(rows[0]!.ms)).toBeGreaterThan(SKEW_MS / 2);
      expect(await statementsWhileWatching(pool)).toBeLessThan(AT_MOST);
      // And the retry is not sent early either.
      expect(receiver.to('/held')).toHaveLength(1);
    } finally {
      skewed.mockRestore();
    }
  });
});
