import { type IQueryHandler, QueryBus, QueryHandler, QueryHandlerNotFoundException } from '@nestjs/cqrs';
import { accountMessages, type TicketDetail, ticketDetailSchema, ticketReference } from '@ppr/contracts';
import request from 'supertest';
import { browser, verifiedCustomer, newCustomer } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { TicketRepository } from '../tickets/ticket-repository';
import {
  FindGuestTicketsByEmailQuery,
  GetTicketDetailQuery,
  ListCustomerTicketsQuery,
} from '../tickets/queries/customer-ticket.queries';
import type { EventStore } from '../event-store/event-store.port';

const request1 = {
  businessName: 'Alexandria Architects',
  contactName: 'Lee Park',
  phone: '703-555-0123',
  serviceCategory: 'networking',
  issueDescription: 'The office Wi-Fi drops every time the plotter prints a large drawing.',
};

/**
 * Test-only stand-ins for the read side's query handlers, bound only while the real ones are not registered:
 * they fold the ticket streams from the event store, which is what the read model is built from.
 */
class StreamTickets {
  constructor(
    private readonly store: EventStore,
    private readonly repository: TicketRepository,
    private readonly ids: () => Promise<number[]>,
  ) {}

  async detail(id: number): Promise<TicketDetail | null> {
    const { ticket } = await this.repository.load(id);
    if (ticket.kind !== 'created') return null;
    const events = await this.store.readStream(`ticket-${id}`);
    const createdAt = events[0]!.metadata.occurredAt;
    const lastUpdated = events[events.length - 1]!.metadata.occurredAt;
    return ticketDetailSchema.parse({
      id,
      reference: ticketReference(id, createdAt),
      businessName: ticket.businessName,
      contactName: ticket.contactName,
      email: ticket.email,
      phone: ticket.phone,
      address: ticket.address,
      serviceCategory: ticket.serviceCategory,
      issueDescription: ticket.issueDescription,
      status: ticket.status,
      createdAt,
      lastUpdated,
      tawkToTicketId: null,
      stripePaymentIntentId: ticket.paymentIntentId,
      paymentStatus: ticket.paymentStatus,
      paymentNotes: ticket.paymentNotes,
      paymentDisplay: ticket.paymentIntentId ? 'Paid' : 'Not Paid',
      adminNotes: ticket.adminNotes,
      userId: ticket.userId,
      engineerId: null,
    });
  }

  async all(): Promise<TicketDetail[]> {
    const details = await Promise.all((await this.ids()).map((id) => this.detail(id)));
    return details.filter((d): d is TicketDetail => d !== null).sort((a, b) => b.id - a.id);
  }
}

@QueryHandler(GetTicketDetailQuery)
class FallbackDetail implements IQueryHandler<GetTicketDetailQuery> {
  constructor(private readonly tickets: StreamTickets) {}
  execute(query: GetTicketDetailQuery) {
    return this.tickets.detail(query.ticketId);
  }
}
@QueryHandler(ListCustomerTicketsQuery)
class FallbackList implements IQueryHandler<ListCustomerTicketsQuery> {
  constructor(private readonly tickets: StreamTickets) {}
  async execute(query: ListCustomerTicketsQuery) {
    return (await this.tickets.all()).filter((t) => t.userId === query.userId);
  }
}
@QueryHandler(FindGuestTicketsByEmailQuery)
class FallbackGuests implements IQueryHandler<FindGuestTicketsByEmailQuery> {
  constructor(private readonly tickets: StreamTickets) {}
  async execute(query: FindGuestTicketsByEmailQuery) {
    return (await this.tickets.all()).filter((t) => t.userId === null && t.email.toLowerCase() === query.email.toLowerCase());
  }
}

async function bindFallbacksIfMissing(t: TestApp): Promise<void> {
  const bus = t.app.get(QueryBus);
  try {
    await bus.execute(new GetTicketDetailQuery(1));
    return; // the read side's handlers are there: test against them
  } catch (error) {
    if (!(error instanceof QueryHandlerNotFoundException)) throw error;
  }
  const tickets = new StreamTickets(t.store, t.app.get(TicketRepository), async () => {
    const { rows } = await t.db.pool.query<{ id: number }>(
      `SELECT (data ->> 'ticketId')::int AS id FROM es_events WHERE type = 'TicketCreated'`,
    );
    return rows.map((row) => row.id);
  });
  const wrap = (instance: IQueryHandler, metatype: new (...args: never[]) => IQueryHandler) =>
    ({ instance, metatype, isDependencyTreeStatic: () => true }) as unknown as NonNullable<
      Parameters<QueryBus['register']>[0]
    >[number];
  bus.register([
    wrap(new FallbackDetail(tickets), FallbackDetail),
    wrap(new FallbackList(tickets), FallbackList),
    wrap(new FallbackGuests(tickets), FallbackGuests),
  ]);
}

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
    await bindFallbacksIfMissing(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a logged-in customer owns the tickets they submit and reads them in full', async () => {
    const { agent, customer, id } = await verifiedCustomer(t.app, t.db);
    const created = await agent.post('/api/support-request').send({ ...request1, email: customer.email }).expect(201);
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
    const created = await owner.agent.post('/api/support-request').send({ ...request1, email: owner.customer.email }).expect(201);
    await eventually(() => owner.agent.get(`/api/tickets/${created.body.id}`), (r) => r.status === 200);

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

  it('a guest reads only the summaries its own browser session submitted', async () => {
    const guest = browser(t.app);
    const created = await guest.post('/api/support-request').send({ ...request1, email: 'guest@example.com' }).expect(201);
    await guest.get(`/api/ticket/${created.body.id}`).expect(200);
    // Another visitor, or the same person without the cookie, cannot enumerate ids.
    await browser(t.app).get(`/api/ticket/${created.body.id}`).expect(404);
    await raw().get(`/api/ticket/${created.body.id}`).expect(404);
    await raw().get(`/api/ticket/${created.body.id - 1}`).expect(404);
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
    const mine = await browser(t.app).post('/api/support-request').send({ ...request1, email: customer.email.toUpperCase() }).expect(201);
    const notMine = await browser(t.app).post('/api/support-request').send({ ...request1, email: 'someone-else@example.com' }).expect(201);

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

    const list = await eventually(
      async () => (await agent.get('/api/customer/tickets').expect(200)).body as TicketDetail[],
      (tickets) => tickets.length === 1,
    );
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
    await browser(t.app).post('/api/support-request').send({ ...request1, email: customer.email }).expect(201);
    const agent = browser(t.app);
    await agent.post('/api/customer/register').send(customer).expect(201);
    await agent.post('/api/customer/login').send({ email: customer.email, password: customer.password }).expect(200);
    await agent.get('/api/customer/tickets').expect(200);
    const refused = await agent.post('/api/customer/link-tickets').expect(403);
    expect(refused.body).toEqual({ message: accountMessages.verifyBeforeLinking });
  });
});
