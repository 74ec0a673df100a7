import type { AddressInfo } from 'node:net';
import { accountMessages, integrationEventSchema } from '@ppr/contracts';
import { firstAdmin } from '../../test/admin-helpers';
import { aSupportRequest } from '../../test/builders';
import { type Agent, browser, verifiedCustomer } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { SseConnection } from './testing/sse-client';
import { eventually } from './testing/webhook-receiver';

jest.setTimeout(120_000);

const support = aSupportRequest();

let t: TestApp;
let base: string;
let admin: Agent;

beforeAll(async () => {
  t = await createTestApp({ INTEGRATIONS_HEARTBEAT_SECONDS: '1' });
  await t.app.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  admin = (await firstAdmin(t.app)).agent;
});

afterAll(async () => {
  await t?.close();
});

/** A verified customer with one ticket of their own, and the session cookie an EventSource would send. */
async function ownerWithTicket(): Promise<{ agent: Agent; cookie: string; ticketId: number }> {
  const { agent, customer } = await verifiedCustomer(t.app, t.db);
  const created = await agent
    .post('/api/support-request')
    .send({ ...support, email: customer.email })
    .expect(201);
  const ticketId = created.body.id as number;
  await eventually(
    async () => ((await agent.get(`/api/tickets/${ticketId}`)).status === 200 ? true : undefined),
    'the ticket to be readable',
  );
  const login = await browser(t.app)
    .post('/api/customer/login')
    .send({ email: customer.username, password: customer.password })
    .expect(200);
  const cookie = (login.headers['set-cookie'] as unknown as string[]).map((value) => value.split(';')[0]).join('; ');
  return { agent, cookie, ticketId };
}

function feed(ticketId: number | string, cookie: string | undefined): SseConnection {
  return new SseConnection(`${base}/api/customer/tickets/${ticketId}/events`, cookie ? { cookie } : {});
}

describe('GET /api/customer/tickets/:id/events', () => {
  it('refuses anyone but the owner: 401 without a session, the same 404 for someone else’s ticket as for a missing one', async () => {
    const owner = await ownerWithTicket();
    const intruder = await ownerWithTicket();

    const anonymous = feed(owner.ticketId, undefined);
    await anonymous.opened;
    await anonymous.closed;
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.body)).toMatchObject({ message: accountMessages.notLoggedIn });

    const theirs = feed(owner.ticketId, intruder.cookie);
    const missing = feed(987654321, intruder.cookie);
    await Promise.all([theirs.opened, missing.opened]);
    await Promise.all([theirs.closed, missing.closed]);
    expect(theirs.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(JSON.parse(theirs.body)).toEqual(JSON.parse(missing.body));
    expect(theirs.messages).toHaveLength(0);

    // Not a ticket id at all: a clear 4xx, never a 500.
    const garbage = feed('abc', intruder.cookie);
    await garbage.opened;
    await garbage.closed;
    expect(garbage.status).toBeGreaterThanOrEqual(400);
    expect(garbage.status).toBeLessThan(500);
  });

  it('streams a status change of the owner’s ticket as it happens, and nothing of other tickets', async () => {
    const owner = await ownerWithTicket();
    const other = await ownerWithTicket();

    const connection = feed(owner.ticketId, owner.cookie);
    await connection.opened;
    expect(connection.status).toBe(200);
    // The first connection starts at the head: the ticket's creation is not replayed.
    await connection.waitFor(() => connection.comments > 0, 30_000, 'a heartbeat');
    expect(connection.events).toHaveLength(0);

    await admin.patch(`/api/admin/tickets/${other.ticketId}/status`).send({ status: 'canceled' }).expect(200);
    await admin.patch(`/api/admin/tickets/${owner.ticketId}/status`).send({ status: 'canceled' }).expect(200);

    await connection.waitFor(() => connection.events.length >= 1, 30_000, 'the status change');
    connection.close();
    const events = connection.events.map((message) => integrationEventSchema.parse(JSON.parse(message.data)));
    expect(events.map((event) => [event.type, event.ticketId])).toEqual([['ticket.status_changed', owner.ticketId]]);
    expect(events[0]!.data).toEqual({ from: 'pending_payment', to: 'canceled' });
    expect(connection.events[0]!.id).toBe(events[0]!.position);
  });

  it('a reconnect with Last-Event-ID resumes right after it', async () => {
    const owner = await ownerWithTicket();
    const first = feed(owner.ticketId, owner.cookie);
    await first.opened;
    await admin.patch(`/api/admin/tickets/${owner.ticketId}/status`).send({ status: 'canceled' }).expect(200);
    await first.waitFor(() => first.events.length >= 1, 30_000, 'the first change');
    first.close();
    const lastId = first.events[0]!.id!;

    await admin.patch(`/api/admin/tickets/${owner.ticketId}/notes`).send({ notes: 'Called back' }).expect(200);
    const second = new SseConnection(`${base}/api/customer/tickets/${owner.ticketId}/events`, {
      cookie: owner.cookie,
      'last-event-id': lastId,
    });
    await second.waitFor(() => second.events.length >= 1, 30_000, 'the missed change');
    second.close();
    const [missed] = second.events.map((message) => integrationEventSchema.parse(JSON.parse(message.data)));
    expect(missed).toMatchObject({ type: 'ticket.notes_updated', ticketId: owner.ticketId, data: {} });
    expect(second.events).toHaveLength(1);
  });

  it('never starts before the ticket’s own first event, even asked for ?from=0 (no read of the whole store)', async () => {
    const owner = await ownerWithTicket();
    await admin.patch(`/api/admin/tickets/${owner.ticketId}/notes`).send({ notes: 'Called back' }).expect(200);
    const connection = new SseConnection(`${base}/api/customer/tickets/${owner.ticketId}/events?from=0`, { cookie: owner.cookie });
    await connection.waitFor(() => connection.events.length >= 1, 30_000, 'the notes');
    await connection.waitFor(() => connection.comments > 0, 30_000, 'a heartbeat');
    connection.close();
    // The ticket's creation is its first event: the feed starts right after it.
    const events = connection.events.map((message) => integrationEventSchema.parse(JSON.parse(message.data)));
    expect(events.map((event) => event.type)).toEqual(['ticket.notes_updated']);
  });

  it('ends at its next heartbeat when the customer logs out, and streams nothing more', async () => {
    const owner = await ownerWithTicket();
    const connection = feed(owner.ticketId, owner.cookie);
    await connection.opened;
    expect(connection.status).toBe(200);
    await browser(t.app).post('/api/customer/logout').set('Cookie', owner.cookie).expect(200);
    await connection.closed;
    expect(connection.messages.at(-1)?.event).toBe('revoked');
    expect(connection.events).toEqual([]);
  });
});
