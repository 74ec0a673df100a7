import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { createApp } from '../app';
import { loadConfig } from '../config/config';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import type { EventStore } from '../event-store/event-store.port';
import { EVENT_STORE } from '../event-store/event-store.tokens';
import { firstAdmin, loginAdmin } from '../../test/admin-helpers';
import { testSchema } from '../../test/test-schema';
import { writeTicket } from './testing/ticket-events';
import { eventually, WebhookReceiver } from './testing/webhook-receiver';

// Generous: the machine running the suite may be busy, and every wait here ends as soon as its condition holds.
jest.setTimeout(240_000);

/**
 * The same database across two app instances (a restart): a schema of its own on DATABASE_URL, else an
 * embedded database in a folder on disk.
 */
const schema = testSchema('test');
const dataDir = schema.name === undefined ? mkdtempSync(join(tmpdir(), 'webhooks-restart-')) : undefined;

async function start(env: Record<string, string>): Promise<INestApplication> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    EVENT_STORE_POLL_MS: '100',
    ...schema.env,
    DATA_DIR: dataDir ?? 'memory',
    ...env,
  });
  return createApp(config, { serveSpa: false, logger: false });
}

const db = (app: INestApplication) => app.get<Database>(DATABASE);
const store = (app: INestApplication) => app.get<EventStore>(EVENT_STORE);
const nextTicketId = (app: INestApplication) => async () =>
  (await db(app).pool.query<{ id: number }>(`SELECT nextval('ticket_id_seq')::int AS id`)).rows[0]!.id;

interface Row {
  id: number;
  status: string;
  attempts: number;
  next_attempt_at: Date | null;
  message_id: string;
}

let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
});

afterAll(async () => {
  await receiver.stop();
  await schema.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('webhook durability and SSRF', () => {
  let admin: { username: string; password: string };

  it('keeps a failing delivery and its retry schedule across a restart', async () => {
    const first = await start({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_BASE_MS: '2500' });
    let endpointId: number;
    let before: Row;
    try {
      const setup = await firstAdmin(first);
      admin = setup.admin;
      receiver.answer = () => 503;
      endpointId = (
        await setup.agent
          .post('/api/admin/webhooks')
          .send({ url: `${receiver.url}/restart`, eventTypes: ['ticket.created'] })
          .expect(201)
      ).body.id as number;
      await writeTicket(store(first), nextTicketId(first));
      before = await eventually(async () => {
        const { rows } = await db(first).pool.query<Row>(
          'SELECT id, status, attempts, next_attempt_at, message_id FROM webhook_deliveries',
        );
        return rows[0]?.attempts === 1 ? rows[0] : undefined;
      }, 'the first failed attempt');
      expect(before.status).toBe('pending');
      expect(before.next_attempt_at).not.toBeNull();
    } finally {
      await first.close();
    }

    receiver.answer = () => 200;
    const second = await start({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_BASE_MS: '2500' });
    try {
      const after = await eventually(async () => {
        const { rows } = await db(second).pool.query<Row>(
          'SELECT id, status, attempts, next_attempt_at, message_id FROM webhook_deliveries',
        );
        return rows[0]?.status === 'succeeded' ? rows : undefined;
      }, 'the retried delivery');
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ id: before.id, attempts: 2, message_id: before.message_id });
      const sent = receiver.to('/restart');
      expect(sent.map((entry) => entry.status)).toEqual([503, 200]);
      expect(sent[1]!.headers['webhook-id']).toBe(before.message_id);
      // The new instance kept the schedule: no earlier than the retry time the first one had set.
      expect(sent[1]!.at).toBeGreaterThanOrEqual(before.next_attempt_at!.getTime());
      const agent = await loginAdmin(second, admin);
      const log = (await agent.get(`/api/admin/webhooks/${endpointId}/deliveries`).expect(200)).body as { status: string }[];
      expect(log.map((row) => row.status)).toEqual(['succeeded']);
    } finally {
      await second.close();
    }
  });

  it('refuses private and loopback URLs unless WEBHOOK_ALLOW_PRIVATE_URLS is true, when registering and when sending', async () => {
    const app = await start({ WEBHOOK_RETRY_BASE_MS: '50' });
    try {
      const agent = await loginAdmin(app, admin);
      for (const url of [
        `${receiver.url}/private`,
        'http://localhost:9/x',
        'http://[::1]:9/x',
        'http://169.254.169.254/latest/meta-data',
        'http://10.0.0.8/',
      ]) {
        const refused = await agent.post('/api/admin/webhooks').send({ url, eventTypes: ['ticket.created'] });
        expect(refused.status).toBe(400);
        expect(refused.body.message).toMatch(/private, loopback or link-local/);
      }
      const { rows: before } = await db(app).pool.query('SELECT count(*)::int AS n FROM webhook_endpoints');
      // An endpoint whose address became private after it was registered (what DNS rebinding would do).
      await db(app).pool.query(`INSERT INTO webhook_endpoints (url, event_types, secret) VALUES ($1, $2, $3)`, [
        `${receiver.url}/private`,
        ['ticket.created'],
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      ]);
      await writeTicket(store(app), nextTicketId(app));
      const row = await eventually(async () => {
        const { rows } = await db(app).pool.query<{ attempts: number; last_error: string }>(
          `SELECT d.attempts, d.last_error FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.url LIKE '%/private'`,
        );
        return rows[0] && rows[0].attempts >= 2 ? rows[0] : undefined;
      }, 'refused attempts');
      expect(row.last_error).toMatch(/private address/);
      expect(receiver.to('/private')).toHaveLength(0);
      expect(before[0]).toEqual({ n: 1 });
    } finally {
      await app.close();
    }
  });

  // Two instances on one embedded database cannot exist (one process owns it): this is PostgreSQL's case.
  (schema.name === undefined ? it.skip : it)('sends each delivery once with two instances running (single-active dispatcher)', async () => {
    const env = { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_BASE_MS: '50' };
    const [a, b] = await Promise.all([start(env), start(env)]);
    try {
      receiver.answer = () => 200;
      const agent = await loginAdmin(a, admin);
      await agent
        .post('/api/admin/webhooks')
        .send({ url: `${receiver.url}/pair`, eventTypes: ['ticket.created'] })
        .expect(201);
      for (let i = 0; i < 10; i++) {
        await writeTicket(store(a), nextTicketId(a));
        await writeTicket(store(b), nextTicketId(b));
      }
      await eventually(async () => {
        const { rows } = await db(a).pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
           WHERE e.url LIKE '%/pair' AND d.status = 'succeeded'`,
        );
        return rows[0]!.n === 20 ? true : undefined;
      }, 'twenty deliveries');
      const sent = receiver.to('/pair');
      expect(sent).toHaveLength(20);
      expect(new Set(sent.map((entry) => entry.headers['webhook-id'])).size).toBe(20);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
