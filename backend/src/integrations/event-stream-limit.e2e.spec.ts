import { type AddressInfo, connect } from 'node:net';
import { integrationMessages } from '@ppr/contracts';
import request from 'supertest';
import { firstAdmin } from '../../test/admin-helpers';
import { aSupportRequest } from '../../test/builders';
import { type Agent, verifiedCustomer } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { SseConnection } from './testing/sse-client';
import { eventually } from './testing/webhook-receiver';

jest.setTimeout(120_000);

/**
 * One integration key, admin or customer holds at most EVENT_STREAMS_PER_CLIENT event streams at once (each
 * is a live subscriber that every event wakes): the next is a 429 with the limit in its message, also when
 * they all come at once, and a stream that closes makes room. Other clients are not affected.
 */
const LIMIT = 2;
const TOO_MANY = integrationMessages.tooManyStreams(LIMIT);

let t: TestApp;
let base: string;
let admin: Agent;
let adminCredentials: { username: string; password: string };
const open: SseConnection[] = [];

beforeAll(async () => {
  t = await createTestApp({ INTEGRATIONS_HEARTBEAT_SECONDS: '1', EVENT_STREAMS_PER_CLIENT: String(LIMIT) });
  await t.app.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  const first = await firstAdmin(t.app);
  admin = first.agent;
  adminCredentials = first.admin;
});

afterEach(() => {
  for (const connection of open.splice(0)) connection.close();
});

afterAll(async () => {
  await t?.close();
});

/** Opens `count` streams of `url` at once; answers them once all have their status. */
async function openAtOnce(count: number, url: string, headers: Record<string, string>): Promise<SseConnection[]> {
  const connections = Array.from({ length: count }, () => new SseConnection(url, headers));
  open.push(...connections);
  await Promise.all(connections.map((connection) => connection.opened));
  return connections;
}

const statuses = (connections: readonly SseConnection[]) => connections.map((connection) => connection.status).sort();

async function createKey(): Promise<string> {
  const created = await admin
    .post('/api/admin/integration-keys')
    .send({ name: 'Limited', scopes: ['events'] })
    .expect(201);
  return (created.body as { key: string }).key;
}

/** A session cookie of `path`'s login, as an EventSource would send it. */
async function cookieOf(path: string, credentials: Record<string, string>): Promise<string> {
  const login = await request(t.app.getHttpServer()).post(path).set('X-Requested-With', 'XMLHttpRequest').send(credentials).expect(200);
  return (login.headers['set-cookie'] as unknown as string[]).map((cookie) => cookie.split(';')[0]).join('; ');
}

describe('event streams per client', () => {
  it('an integration key: of five streams opened at once, two are served and three refused with 429; a closed one makes room', async () => {
    const key = await createKey();
    const url = `${base}/api/integrations/events?from=0`;
    const first = await openAtOnce(5, url, { authorization: `Bearer ${key}` });
    expect(statuses(first)).toEqual([200, 200, 429, 429, 429]);
    const refused = first.find((connection) => connection.status === 429)!;
    expect(JSON.parse(refused.body)).toEqual({ message: TOO_MANY });

    // Another key is not affected.
    const [other] = await openAtOnce(1, url, { authorization: `Bearer ${await createKey()}` });
    expect(other!.status).toBe(200);

    // Once one of the two closes (the server sees the socket go), the key may open another.
    first.find((connection) => connection.status === 200)!.close();
    await eventually(async () => {
      const [again] = await openAtOnce(1, url, { authorization: `Bearer ${key}` });
      return again!.status === 200 ? true : undefined;
    }, 'a stream of the key to be served again');
  });

  it('an admin: the limit holds across the admin’s sessions', async () => {
    const sessions = await Promise.all(
      [1, 2].map(() => cookieOf('/api/admin/login', { username: adminCredentials.username, password: adminCredentials.password })),
    );
    const [a, b] = await Promise.all(sessions.map((cookie) => openAtOnce(2, `${base}/api/admin/events`, { cookie })));
    expect(statuses([...a!, ...b!])).toEqual([200, 200, 429, 429]);
  });

  it('a customer: three streams of their ticket at once, two served', async () => {
    const { agent, customer } = await verifiedCustomer(t.app, t.db);
    const created = await agent
      .post('/api/support-request')
      .send(aSupportRequest({ email: customer.email }))
      .expect(201);
    const ticketId = created.body.id as number;
    await eventually(async () => ((await agent.get(`/api/tickets/${ticketId}`)).status === 200 ? true : undefined), 'the ticket');
    const cookie = await cookieOf('/api/customer/login', { email: customer.username, password: customer.password });
    const streams = await openAtOnce(3, `${base}/api/customer/tickets/${ticketId}/events`, { cookie });
    expect(statuses(streams)).toEqual([200, 200, 429]);
    // The customer's streams do not count against anyone else: the admin (who has none open now) is served.
    const [adminStream] = await openAtOnce(1, `${base}/api/admin/events`, {
      cookie: await cookieOf('/api/admin/login', { username: adminCredentials.username, password: adminCredentials.password }),
    });
    expect(adminStream!.status).toBe(200);
  });

  it('a client that hangs up while its key is being checked leaves no stream behind: its slot is free again', async () => {
    const key = await createKey();
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    // Each request is sent and its socket closed a few milliseconds later, while the server checks the key.
    for (let round = 0; round < 2; round += 1) {
      for (let delayMs = 0; delayMs < 10; delayMs += 1) {
        const socket = connect(port, '127.0.0.1');
        await new Promise<void>((resolve) => socket.once('connect', resolve));
        socket.write(`GET /api/integrations/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n\r\n`);
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        socket.destroy();
      }
    }
    // Every one of them let go of its slot: the key's streams are served again (without an event to fail on).
    await eventually(
      async () => {
        const [stream] = await openAtOnce(1, `${base}/api/integrations/events`, { authorization: `Bearer ${key}` });
        const status = stream!.status;
        stream!.close();
        return status === 200 ? true : undefined;
      },
      'a stream of the key to be served',
      5_000,
    );
  });
});
