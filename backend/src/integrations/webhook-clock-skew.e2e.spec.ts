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

/** The process's clock runs this far ahead of the database's (exaggerated: a few seconds is what drifts). */
const SKEW_MS = 10 * 60_000;

/** The embedded database reads the process's clock itself, so there the two clocks cannot differ: skipped. */
const onPostgres = process.env.DATABASE_URL ? describe : describe.skip;

/**
 * A failed delivery's next attempt is set by the database (now() + the backoff); the sender must wait for it by
 * that same clock. Measured with the process's clock, a process clock ahead of the database's made every wait 0:
 * the sender asked the database again and again, as fast as it answered, until the skew had passed.
 */
onPostgres('webhook retries, process clock ahead of the database', () => {
  const schema = testSchema('test');
  const receiver = new WebhookReceiver();
  let app: INestApplication;
  let skewed: jest.SpyInstance<number, []> | undefined;

  beforeAll(async () => {
    await receiver.start();
    app = await createApp(
      loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        EVENT_STORE_POLL_MS: '100',
        DATA_DIR: 'memory',
        ...schema.env,
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_RETRY_BASE_MS: '60000',
      }),
      { serveSpa: false, logger: false },
    );
  });
  afterAll(async () => {
    skewed?.mockRestore();
    await app?.close();
    await receiver.stop();
    await schema.drop();
  });

  it('waits for a retry instead of asking the database in a loop', async () => {
    const pool = app.get<Database>(DATABASE).pool;
    const store = app.get<EventStore>(EVENT_STORE);
    const { agent } = await firstAdmin(app);
    receiver.answer = () => 503;
    await agent
      .post('/api/admin/webhooks')
      .send({ url: `${receiver.url}/skew`, eventTypes: ['ticket.created'] })
      .expect(201);
    await writeTicket(store, async () => (await pool.query<{ id: number }>(`SELECT nextval('ticket_id_seq')::int AS id`)).rows[0]!.id);
    await eventually(async () => {
      const { rows } = await pool.query<{ attempts: number }>('SELECT attempts FROM webhook_deliveries');
      return rows[0]?.attempts === 1 ? true : undefined;
    }, 'the first failed attempt');

    const realNow = Date.now.bind(Date);
    skewed = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + SKEW_MS);
    const { rows } = await pool.query<{ ms: number }>(`SELECT (extract(epoch FROM now()) * 1000)::float8 AS ms`);
    expect(Date.now() - Number(rows[0]!.ms)).toBeGreaterThan(SKEW_MS / 2);

    const query = jest.spyOn(pool, 'query');
    try {
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      // A statement is a string or (a named, prepared one) a config object with its text.
      const textOf = (statement: unknown): string => {
        if (typeof statement === 'string') return statement;
        const text = (statement as { text?: unknown } | null)?.text;
        return typeof text === 'string' ? text : '';
      };
      const asks = query.mock.calls.filter(([statement]) => /webhook_deliveries/.test(textOf(statement))).length;
      // The sender looks at least once a second while a retry is a minute away: about 3 times in 3 s, not hundreds.
      expect(asks).toBeLessThan(15);
    } finally {
      query.mockRestore();
    }
    // And the retry is not sent early either.
    expect(receiver.to('/skew')).toHaveLength(1);
  });
});
