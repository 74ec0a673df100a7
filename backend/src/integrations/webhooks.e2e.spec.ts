import type { WebhookDelivery, WebhookEndpoint, WebhookPayload } from '@ppr/contracts';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { firstAdmin } from '../../test/admin-helpers';
import type { Agent } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { FEED_EMAIL, writeTicket } from './testing/ticket-events';
import { eventually, WebhookReceiver } from './testing/webhook-receiver';

// Generous: the machine running the suite may be busy, and every wait here ends as soon as its condition holds.
jest.setTimeout(240_000);

let t: TestApp;
let admin: Agent;
let receiver: WebhookReceiver;

const nextTicketId = async (): Promise<number> => {
  const { rows } = await t.db.pool.query<{ id: number }>(`SELECT nextval('ticket_id_seq')::int AS id`);
  return rows[0]!.id;
};

async function register(path: string, body: Record<string, unknown> = {}): Promise<{ id: number; secret: string }> {
  const response = await admin
    .post('/api/admin/webhooks')
    .send({ url: `${receiver.url}${path}`, eventTypes: ['ticket.created', 'ticket.status_changed'], ...body })
    .expect(201);
  return response.body as { id: number; secret: string };
}

async function deliveries(id: number): Promise<WebhookDelivery[]> {
  return (await admin.get(`/api/admin/webhooks/${id}/deliveries`).expect(200)).body as WebhookDelivery[];
}

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  // A receiver on loopback needs the flag; a short backoff keeps the retries quick.
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_BASE_MS: '50' });
  admin = (await firstAdmin(t.app)).agent;
});

afterAll(async () => {
  await t?.close();
  await receiver?.stop();
});

describe('webhooks', () => {
  it('signs per Standard Webhooks, retries a failing receiver, and acknowledges the event once, in order per ticket', async () => {
    const { id, secret } = await register('/flaky');
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    receiver.answer = (path, count) => (path === '/flaky' && count <= 3 ? 500 : 200);
    const ticketId = await writeTicket(t.store, nextTicketId);

    await eventually(
      () => (receiver.to('/flaky').filter((entry) => entry.status === 200).length >= 2 ? true : undefined),
      'two acknowledged deliveries',
    );
    const requests = receiver.to('/flaky');
    expect(requests.map((entry) => entry.status)).toEqual([500, 500, 500, 200, 200]);

    const verifier = new Webhook(secret);
    const payloads = requests.map((entry) => verifier.verify(entry.body, entry.headers as Record<string, string>) as WebhookPayload);
    // The created event four times under one webhook-id (retries keep the id), then the status change: never before.
    expect(payloads.map((payload) => payload.type)).toEqual([
      'ticket.created',
      'ticket.created',
      'ticket.created',
      'ticket.created',
      'ticket.status_changed',
    ]);
    expect(new Set(requests.slice(0, 4).map((entry) => entry.headers['webhook-id'])).size).toBe(1);
    expect(requests[4]!.headers['webhook-id']).not.toBe(requests[0]!.headers['webhook-id']);
    expect(payloads[0]!.data).toMatchObject({ type: 'ticket.created', ticketId, version: 1 });
    // Without includePersonalData the endpoint never gets the contact's details.
    expect(requests.map((entry) => entry.body).join('\n')).not.toContain(FEED_EMAIL);
    // A forged body does not verify.
    expect(() =>
      verifier.verify(requests[3]!.body.replace('networking', 'hardware'), requests[3]!.headers as Record<string, string>),
    ).toThrow();

    const log = await eventually(async () => {
      const rows = await deliveries(id);
      return rows.length === 2 && rows.every((row) => row.status === 'succeeded') ? rows : undefined;
    }, 'the delivery log');
    expect(log.map((row) => [row.eventType, row.status, row.attempts, row.responseCode, row.nextAttemptAt])).toEqual([
      ['ticket.status_changed', 'succeeded', 1, 200, null],
      ['ticket.created', 'succeeded', 4, 200, null],
    ]);
    // Acknowledged once: nothing was sent again for the created event after its 200.
    await writeTicket(t.store, nextTicketId);
    await eventually(() => (receiver.to('/flaky').length >= 7 ? true : undefined), 'the next ticket’s deliveries');
    const createdId = requests[0]!.headers['webhook-id'];
    expect(receiver.to('/flaky').filter((entry) => entry.headers['webhook-id'] === createdId && entry.status === 200)).toHaveLength(1);
  });

  it('sends personal data only to endpoints registered for it, and redelivers on request', async () => {
    const { id } = await register('/personal', { includePersonalData: true, eventTypes: ['ticket.created'] });
    await writeTicket(t.store, nextTicketId);
    await eventually(() => (receiver.to('/personal').length >= 1 ? true : undefined), 'a delivery');
    expect(receiver.to('/personal')[0]!.body).toContain(FEED_EMAIL);
    const [delivery] = await eventually(async () => {
      const rows = await deliveries(id);
      return rows[0]?.status === 'succeeded' ? rows : undefined;
    }, 'the delivery to succeed');
    const redelivered = await admin.post(`/api/admin/webhooks/${id}/deliveries/${delivery!.id}/redeliver`).expect(202);
    expect(redelivered.body).toMatchObject({ id: delivery!.id, status: 'pending' });
    await eventually(() => (receiver.to('/personal').length >= 2 ? true : undefined), 'the redelivery');
    expect(receiver.to('/personal')[1]!.headers['webhook-id']).toBe(delivery!.messageId);
    await admin.post(`/api/admin/webhooks/${id}/deliveries/99999/redeliver`).expect(404);
  });

  it('disables an endpoint that answers 410 Gone', async () => {
    receiver.answer = (path) => (path === '/gone' ? 410 : 200);
    const { id } = await register('/gone');
    await writeTicket(t.store, nextTicketId);
    const endpoint = await eventually(async () => {
      const body = (await admin.get(`/api/admin/webhooks/${id}`).expect(200)).body as WebhookEndpoint;
      return body.enabled ? undefined : body;
    }, 'the endpoint to be disabled');
    expect(endpoint.disabledReason).toMatch(/410/);
    const log = await deliveries(id);
    expect(log.find((row) => row.eventType === 'ticket.created')).toMatchObject({ status: 'failed', responseCode: 410, attempts: 1 });
    expect(receiver.to('/gone')).toHaveLength(1);
    // An admin turns it back on: its waiting deliveries go out.
    receiver.answer = () => 200;
    await admin.patch(`/api/admin/webhooks/${id}`).send({ enabled: true }).expect(200);
    await eventually(() => (receiver.to('/gone').some((entry) => entry.status === 200) ? true : undefined), 'the waiting delivery');
  });

  it('lists, updates and deletes endpoints, and validates input', async () => {
    const { id, secret } = await register('/crud');
    const listed = (await admin.get('/api/admin/webhooks').expect(200)).body as WebhookEndpoint[];
    expect(listed.find((endpoint) => endpoint.id === id)).toMatchObject({
      url: `${receiver.url}/crud`,
      enabled: true,
      includePersonalData: false,
    });
    expect(JSON.stringify(listed)).not.toContain(secret);
    const updated = await admin
      .patch(`/api/admin/webhooks/${id}`)
      .send({ eventTypes: ['ticket.refunded'] })
      .expect(200);
    expect(updated.body.eventTypes).toEqual(['ticket.refunded']);
    expect((await admin.post('/api/admin/webhooks').send({ url: 'ftp://example.com/x', eventTypes: ['ticket.created'] })).status).toBe(400);
    expect((await admin.post('/api/admin/webhooks').send({ url: `${receiver.url}/x`, eventTypes: ['ticket.deleted'] })).status).toBe(400);
    expect((await admin.patch(`/api/admin/webhooks/${id}`).send({})).status).toBe(400);
    await admin.delete(`/api/admin/webhooks/${id}`).expect(204);
    await admin.delete(`/api/admin/webhooks/${id}`).expect(404);
    await admin.get(`/api/admin/webhooks/${id}/deliveries`).expect(404);
    expect((await request(t.app.getHttpServer()).get('/api/admin/webhooks')).status).toBe(401);
  });
});
