import { QueryBus } from '@nestjs/cqrs';
import { accountMessages, type TicketDetail, ticketDetailSchema } from '@ppr/contracts';
import request from 'supertest';
import { aSupportRequest } from '../../test/builders';
import { browser, verifiedCustomer, newCustomer } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { FindGuestTicketsByEmailQuery } from '../tickets/queries/customer-ticket.queries';

const request1 = aSupportRequest();

/** Polls until the read side shows what the test expects (it may follow the event store by a moment). */
async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('customer tickets', () => {
  let t: TestApp;
  const raw = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a logged-in customer owns the tickets they submit and reads them in full', async () => {
    const { agent, customer, id } = await verifiedCustomer(t.app, t.db);
    const created = await agent
      .post('/api/support-request')
      .send({ ...request1, email: customer.email })
      .expect(201);
    const [event] = await t.store.readStream(`ticket-${created.body.id}`);
    expect(event!.data).toMatchObject({ userId: id });
    expect(event!.metadata.actor).toEqual({ kind: 'customer', id: String(id) });

    const list = await eventually(
      async () => (await agent.get('/api/customer/tickets').expect(200)).body as TicketDetail[],
      (tickets) => tickets.length === 1,
    );
    expect(list.map((ticket) => ticket.id)).toEqual([created.body.id]);
    ticketDetailSchema.array().parse(list);

    const detail = await eventually(
      async () => agent.get(`/api/tickets/${created.body.id}`),
      (response) => response.status === 200,
    );
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id: created.body.id, userId: id, issueDescription: request1.issueDescription });
    // Their own ticket's summary too, also from a later session.
    const later = browser(t.app);
    await later.post('/api/customer/login').send({ email: customer.email, password: customer.password }).expect(200);
    await later.get(`/api/ticket/${created.body.id}`).expect(200);
  });

  it("another customer's ticket is the same 404 as a ticket that does not exist", async () => {
    const owner = await verifiedCustomer(t.app, t.db);
    const created = await owner.agent
      .post('/api/support-request')
      .send({ ...request1, email: owner.customer.email })
      .expect(201);
    await eventually(
      () => owner.agent.get(`/api/tickets/${created.body.id}`),
      (r) => r.status === 200,
    );

    const intruder = await verifiedCustomer(t.app, t.db);
    for (const path of [`/api/tickets/${created.body.id}`, `/api/ticket/${created.body.id}`]) {
      const theirs = await intruder.agent.get(path).expect(404);
      const missing = await intruder.agent.get(path.replace(String(created.body.id), '987654321')).expect(404);
      expect(theirs.body).toEqual({ message: 'Ticket not found' });
      expect(missing.body).toEqual(theirs.body);
    }
    const list = await intruder.agent.get('/api/customer/tickets').expect(200);
    expect(list.body).toEqual([]);
  });

  it('a guest reads only the summaries its own browser submitted', async () => {
    const guest = browser(t.app);
    const created = await guest
      .post('/api/support-request')
      .send({ ...request1, email: 'guest@example.com' })
      .expect(201);
    await guest.get(`/api/ticket/${created.body.id}`).expect(200);
    // Another visitor, or the same person without the cookie, cannot enumerate ids.
    await browser(t.app).get(`/api/ticket/${created.body.id}`).expect(404);
    await raw().get(`/api/ticket/${created.body.id}`).expect(404);
    await raw()
      .get(`/api/ticket/${created.body.id - 1}`)
      .expect(404);
  });

  it('needs a login for the customer endpoints', async () => {
    for (const path of ['/api/customer/tickets', '/api/tickets/1']) {
      const response = await raw().get(path).expect(401);
      expect(response.body).toEqual({ message: accountMessages.notLoggedIn });
    }
    await browser(t.app).post('/api/customer/link-tickets').expect(401);
  });

  it('links the guest tickets of the verified address (any case), not other people’s', async () => {
    const customer = newCustomer();
    const mine = await browser(t.app)
      .post('/api/support-request')
      .send({ ...request1, email: customer.email.toUpperCase() })
      .expect(201);
    const notMine = await browser(t.app)
      .post('/api/support-request')
      .send({ ...request1, email: 'someone-else@example.com' })
      .expect(201);

    const { agent, id } = await verifiedCustomer(t.app, t.db, customer);
    await eventually(
      () => t.app.get(QueryBus).execute(new FindGuestTicketsByEmailQuery(customer.email)),
      (tickets) => tickets.length === 1,
    );
    const linked = await agent.post('/api/customer/link-tickets').expect(200);
    expect(linked.body.linked).toBe(1);
    expect(linked.body.tickets.map((ticket: TicketDetail) => ticket.id)).toEqual([mine.body.id]);
    expect(linked.body.tickets[0].userId).toBe(id);

    const events = await t.store.readStream(`ticket-${mine.body.id}`);
    expect(events.at(-1)).toMatchObject({
      type: 'TicketLinkedToCustomer',
      data: { ticketId: mine.body.id, userId: id },
      metadata: { actor: { kind: 'customer', id: String(id) } },
    });
    expect((await t.store.readStream(`ticket-${notMine.body.id}`)).map((e) => e.type)).toEqual(['TicketCreated']);

    // Read-your-writes: the list right after the link already shows it.
    const list = (await agent.get('/api/customer/tickets').expect(200)).body as TicketDetail[];
    expect(list.map((ticket) => ticket.id)).toEqual([mine.body.id]);
    // Linking again attaches nothing new and writes no event.
    const again = await eventually(
      async () => (await agent.post('/api/customer/link-tickets').expect(200)).body as { linked: number },
      (body) => body.linked === 0,
    );
    expect(again.linked).toBe(0);
    expect(await t.store.readStream(`ticket-${mine.body.id}`)).toHaveLength(events.length);
  });

  it('an unverified customer may log in and see tickets but not link guest tickets', async () => {
    const customer = newCustomer();
    await browser(t.app)
      .post('/api/support-request')
      .send({ ...request1, email: customer.email })
      .expect(201);
    const agent = browser(t.app);
    await agent.post('/api/customer/register').send(customer).expect(201);
    // Unverified: it logs in by its username (its address is nobody's until verified).
    await agent.post('/api/customer/login').send({ email: customer.username, password: customer.password }).expect(200);
    await agent.get('/api/customer/tickets').expect(200);
    const refused = await agent.post('/api/customer/link-tickets').expect(403);
    expect(refused.body).toEqual({ message: accountMessages.verifyBeforeLinking });
  });
});
