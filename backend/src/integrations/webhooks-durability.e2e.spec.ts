import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import type { WebhookEndpoint, WebhookPayload } from '@ppr/contracts';
import { Webhook } from 'standardwebhooks';
import { createApp } from '../app';
import { loadConfig } from '../config/config';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import type { EventStore } from '../event-store/event-store.port';
import { EVENT_STORE } from '../event-store/event-store.tokens';
import { firstAdmin, loginAdmin } from '../../test/admin-helpers';
import { testSchema } from '../../test/test-schema';
import { writeTicket } from './testing/ticket-events';
import { UNREADABLE_SECRET } from './webhook-dispatcher';
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
  let admin: { username: string; password: string } | undefined;
  /** A logged-in admin on `app`: the schema's first admin, set up by whichever test runs first (each may run alone). */
  const adminOn = async (app: INestApplication) => {
    if (admin) return loginAdmin(app, admin);
    const setup = await firstAdmin(app);
    admin = setup.admin;
    return setup.agent;
  };

  it('keeps a failing delivery and its retry schedule across a restart', async () => {
    const first = await start({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_BASE_MS: '2500' });
    let endpointId: number;
    let before: Row;
    try {
      const agent = await adminOn(first);
      receiver.answer = () => 503;
      endpointId = (
        await agent
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
      const agent = await adminOn(second);
      const log = (await agent.get(`/api/admin/webhooks/${endpointId}/deliveries`).expect(200)).body as { status: string }[];
      expect(log.map((row) => row.status)).toEqual(['succeeded']);
    } finally {
      await second.close();
    }
  });

  it('refuses private and loopback URLs unless WEBHOOK_ALLOW_PRIVATE_URLS is true, when registering and when sending', async () => {
    const app = await start({ WEBHOOK_RETRY_BASE_MS: '50' });
    try {
      const agent = await adminOn(app);
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

  it('keeps signing secrets sealed at rest: plain ones are sealed at start, and another session secret holds deliveries back without losing them', async () => {
    const secret1 = 'first-session-secret-for-the-sealing-test-0123456789';
    const env = (sessionSecret: string) => ({
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RETRY_BASE_MS: '200',
      SESSION_SECRET: sessionSecret,
    });
    const legacySecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const stored = async (app: INestApplication) =>
      (
        await db(app).pool.query<{ url: string; secret: string }>(
          `SELECT url, secret FROM webhook_endpoints WHERE url LIKE '%/sealed' OR url LIKE '%/legacy' ORDER BY id`,
        )
      ).rows;
    const verified = (path: string, secret: string) =>
      receiver
        .to(path)
        .map((entry) => (new Webhook(secret).verify(entry.body, entry.headers as Record<string, string>) as WebhookPayload).type);

    receiver.answer = () => 200;
    let app = await start(env(secret1));
    let registered: { id: number; secret: string };
    try {
      const agent = await adminOn(app);
      registered = (
        await agent
          .post('/api/admin/webhooks')
          .send({ url: `${receiver.url}/sealed`, eventTypes: ['ticket.created'] })
          .expect(201)
      ).body as { id: number; secret: string };
      // An endpoint stored by a version that kept secrets in plain text.
      await db(app).pool.query(`INSERT INTO webhook_endpoints (url, event_types, secret) VALUES ($1, $2, $3)`, [
        `${receiver.url}/legacy`,
        ['ticket.created'],
        legacySecret,
      ]);
      // (The plain one is sealed by the next start, or by this one's if its start-up pass comes after the insert.)
      const rows = await stored(app);
      expect(rows[0]!.secret).toMatch(/^sealed\.v1\./);
      expect(rows[0]!.secret).not.toContain(registered.secret.slice('whsec_'.length, 20));
    } finally {
      await app.close();
    }

    // Restarted under the same session secret: the plain secret is sealed, and both endpoints' deliveries verify.
    app = await start(env(secret1));
    try {
      const rows = await eventually(async () => {
        const current = await stored(app);
        return current.every((row) => row.secret.startsWith('sealed.v1.')) ? current : undefined;
      }, 'the plain secret to be sealed');
      expect(rows.map((row) => row.secret).join(' ')).not.toContain(legacySecret.slice('whsec_'.length));
      await writeTicket(store(app), nextTicketId(app));
      await eventually(() => (receiver.to('/sealed').length >= 1 && receiver.to('/legacy').length >= 1 ? true : undefined), 'deliveries');
      expect(verified('/sealed', registered.secret)).toEqual(['ticket.created']);
      expect(verified('/legacy', legacySecret)).toEqual(['ticket.created']);
    } finally {
      await app.close();
    }

    // Another session secret opens neither: nothing is sent unsigned or signed wrongly. The endpoints are
    // disabled, saying why, and their deliveries wait with their attempts and retry window untouched.
    let sealedBefore: string[] = [];
    app = await start(env('another-session-secret-nobody-sealed-with-0123456789'));
    try {
      await writeTicket(store(app), nextTicketId(app));
      const held = await eventually(async () => {
        const { rows } = await db(app).pool.query<{
          enabled: boolean;
          reason: string | null;
          status: string;
          error: string | null;
          attempts: number;
        }>(
          `SELECT e.enabled, e.disabled_reason AS reason, d.status, d.last_error AS error, d.attempts
           FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
           WHERE (e.url LIKE '%/sealed' OR e.url LIKE '%/legacy') AND d.status <> 'succeeded'`,
        );
        return rows.length === 2 && rows.every((row) => row.error !== null) ? rows : undefined;
      }, 'the endpoints to be disabled');
      expect(held).toEqual([
        { enabled: false, reason: UNREADABLE_SECRET, status: 'pending', error: UNREADABLE_SECRET, attempts: 0 },
        { enabled: false, reason: UNREADABLE_SECRET, status: 'pending', error: UNREADABLE_SECRET, attempts: 0 },
      ]);
      const agent = await adminOn(app);
      const listed = (await agent.get('/api/admin/webhooks').expect(200)).body as WebhookEndpoint[];
      expect(listed.filter((endpoint) => /\/(sealed|legacy)$/.test(endpoint.url)).map((endpoint) => endpoint.disabledReason)).toEqual([
        UNREADABLE_SECRET,
        UNREADABLE_SECRET,
      ]);
      expect(receiver.to('/sealed')).toHaveLength(1);
      expect(receiver.to('/legacy')).toHaveLength(1);
      // As they were: nothing here could open them, so nothing sealed them again.
      sealedBefore = (await stored(app)).map((row) => row.secret);
    } finally {
      await app.close();
    }

    // A rotation: the new secret with the first as SESSION_SECRET_PREVIOUS. The secrets open again and are sealed
    // under the new one; the endpoints enabled again, what waited goes out, signed with each one's own secret.
    const secret2 = 'second-session-secret-for-the-sealing-test-0123456789';
    app = await start({ ...env(secret2), SESSION_SECRET_PREVIOUS: secret1 });
    try {
      await eventually(async () => {
        const now = (await stored(app)).map((row) => row.secret);
        return now.every((value, index) => value !== sealedBefore[index] && value.startsWith('sealed.v1.')) ? true : undefined;
      }, 'the secrets to be sealed under the new session secret');
      const agent = await adminOn(app);
      for (const endpoint of (await agent.get('/api/admin/webhooks').expect(200)).body as WebhookEndpoint[]) {
        if (/\/(sealed|legacy)$/.test(endpoint.url))
          await agent.patch(`/api/admin/webhooks/${endpoint.id}`).send({ enabled: true }).expect(200);
      }
      await eventually(
        () => (receiver.to('/sealed').length >= 2 && receiver.to('/legacy').length >= 2 ? true : undefined),
        'the waiting deliveries',
      );
      expect(verified('/sealed', registered.secret)).toEqual(['ticket.created', 'ticket.created']);
      expect(verified('/legacy', legacySecret)).toEqual(['ticket.created', 'ticket.created']);
    } finally {
      await app.close();
    }

    // The rotation over (the previous secret dropped): the secrets open under the new one alone.
    app = await start(env(secret2));
    try {
      await writeTicket(store(app), nextTicketId(app));
      await eventually(() => (receiver.to('/sealed').length >= 3 && receiver.to('/legacy').length >= 3 ? true : undefined), 'deliveries');
      expect(verified('/sealed', registered.secret)).toHaveLength(3);
      expect(verified('/legacy', legacySecret)).toHaveLength(3);
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
      const agent = await adminOn(a);
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
