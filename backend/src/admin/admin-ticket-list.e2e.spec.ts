import { type AdminTicket, adminTicketListSchema, type TicketStatus } from '@ppr/contracts';
import request from 'supertest';
import { created, firstAdmin, seed, seedTickets } from '../../test/admin-helpers';
import { type Agent, verifiedCustomer } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWX'.split('');
const WORDS = [
  'Alpha',
  'Bravo',
  'Charlie',
  'Delta',
  'Echo',
  'Foxtrot',
  'Golf',
  'Hotel',
  'India',
  'Juliet',
  'Kilo',
  'Lima',
  'Mike',
  'November',
  'Oscar',
  'Papa',
  'Quebec',
  'Romeo',
  'Sierra',
  'Tango',
  'Uniform',
  'Victor',
  'Whiskey',
  'Xray',
];
const STATUSES: TicketStatus[] = ['pending_payment', 'active', 'resolved', 'canceled'];
const BASE = Date.UTC(2026, 0, 5, 14);

interface Seeded {
  readonly id: number;
  readonly businessName: string;
  readonly contactName: string;
  readonly status: TicketStatus;
  readonly createdAt: number;
}

/** The order the API must give: by the field, ties by id, both in the requested direction. */
function sorted(rows: readonly Seeded[], key: 'businessName' | 'contactName' | 'status' | 'createdAt', order: 'asc' | 'desc'): number[] {
  const sign = order === 'asc' ? 1 : -1;
  return [...rows]
    .sort((a, b) => {
      const x = a[key];
      const y = b[key];
      if (x !== y) return (x < y ? -1 : 1) * sign;
      return (a.id - b.id) * sign;
    })
    .map((row) => row.id);
}

describe('GET /api/admin/tickets: filters, sorts, pages, bad input', () => {
  let t: TestApp;
  let admin: Agent;
  const rows: Seeded[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    ({ agent: admin } = await firstAdmin(t.app));
    // 24 tickets whose fields sort differently (names sort alike in every collation: distinct capitals), two
    // created at the same instant and two with the same business name (ties broken by id), plus one with
    // LIKE's wildcards in its names.
    const specs = LETTERS.map((letter, n) => ({
      businessName: n === 11 ? `${WORDS[10]} Kitchens` : `${WORDS[n]} ${n % 2 === 0 ? 'Dental' : 'Law'}`,
      contactName: `${LETTERS[LETTERS.length - 1 - n]}ane Doe${n}`,
      email: `owner${n}@example.com`,
      status: STATUSES[n % 4]!,
      createdAt: BASE + (n === 6 ? 5 : n) * 60_000,
    }));
    specs[10] = { ...specs[10]!, businessName: `${WORDS[10]} Kitchens` };
    specs.push({
      businessName: 'Zulu 100% Uptime',
      contactName: 'Zed Under_Score',
      email: 'zulu@example.com',
      status: 'active',
      createdAt: BASE + 30 * 60_000,
    });
    const ids = await seedTickets(
      t,
      specs.map((spec) => {
        const at = new Date(spec.createdAt);
        const history = [
          seed('TicketCreated', created({ businessName: spec.businessName, contactName: spec.contactName, email: spec.email }), at),
        ];
        if (spec.status !== 'pending_payment') {
          history.push(seed('TicketStatusChanged', { from: 'pending_payment', to: spec.status }, at));
        }
        return history;
      }),
    );
    specs.forEach((spec, n) =>
      rows.push({
        id: ids[n]!,
        businessName: spec.businessName,
        contactName: spec.contactName,
        status: spec.status,
        createdAt: spec.createdAt,
      }),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  async function list(query: Record<string, string | number> = {}): Promise<{ tickets: AdminTicket[]; total: number }> {
    const response = await admin.get('/api/admin/tickets').query(query).expect(200);
    return adminTicketListSchema.parse(response.body);
  }
  const ids = (page: { tickets: AdminTicket[] }) => page.tickets.map((ticket) => ticket.id);

  it('answers { tickets, total }: 10 per page, newest first, by default', async () => {
    const page = await list();
    expect(page.total).toBe(25);
    expect(ids(page)).toEqual(sorted(rows, 'createdAt', 'desc').slice(0, 10));
    expect(page.tickets[0]).toMatchObject({ businessName: 'Zulu 100% Uptime', paymentStatus: 'pending', responseState: 'none' });
  });

  it('pages through the list, and past its end (no rows, the same total)', async () => {
    const all = sorted(rows, 'createdAt', 'desc');
    expect(ids(await list({ page: 2 }))).toEqual(all.slice(10, 20));
    const last = await list({ page: 3 });
    expect(ids(last)).toEqual(all.slice(20));
    expect(await list({ page: 4 })).toEqual({ tickets: [], total: 25 });
    expect(await list({ page: 1_000_000 })).toEqual({ tickets: [], total: 25 });
    expect(ids(await list({ limit: 1, page: 25 }))).toEqual([all[24]]);
    expect(ids(await list({ limit: 100 }))).toEqual(all);
    expect(ids(await list({ limit: 7, page: 2 }))).toEqual(all.slice(7, 14));
  });

  it.each(['createdAt', 'businessName', 'contactName', 'status'] as const)('sorts by %s in both orders, ties by id', async (sortBy) => {
    for (const sortOrder of ['asc', 'desc'] as const) {
      const expected = sorted(rows, sortBy, sortOrder);
      const first = await list({ sortBy, sortOrder, limit: 20 });
      const second = await list({ sortBy, sortOrder, limit: 20, page: 2 });
      expect([...ids(first), ...ids(second)]).toEqual(expected);
    }
  });

  it('filters by status (all or empty means any)', async () => {
    for (const status of STATUSES) {
      const page = await list({ status, limit: 100 });
      const expected = sorted(
        rows.filter((row) => row.status === status),
        'createdAt',
        'desc',
      );
      expect(ids(page)).toEqual(expected);
      expect(page.total).toBe(expected.length);
    }
    expect((await list({ status: 'all' })).total).toBe(25);
    expect((await list({ status: '' })).total).toBe(25);
  });

  it('searches business name, contact name, email and reference, ignoring case', async () => {
    const kitchens = await list({ search: 'kilo KITCHENS' });
    expect(kitchens.total).toBe(2);
    expect((await list({ search: 'xane doe0' })).tickets.map((ticket) => ticket.contactName)).toEqual(['Xane Doe0']);
    expect((await list({ search: 'OWNER1', limit: 100 })).total).toBe(11); // owner1, owner10..owner19
    const target = rows[3]!;
    const byReference = await list({ search: `ppr-2026-${target.id}` });
    expect(ids(byReference)).toEqual([target.id]);
    expect((await list({ search: '   ' })).total).toBe(25);
  });

  it('takes the LIKE wildcards and SQL in the search literally', async () => {
    expect(ids(await list({ search: '100%' }))).toEqual([rows[24]!.id]);
    expect(ids(await list({ search: '%' }))).toEqual([rows[24]!.id]);
    expect(ids(await list({ search: 'r_s' }))).toEqual([rows[24]!.id]);
    expect(ids(await list({ search: '\\' }))).toEqual([]);
    expect(await list({ search: "'; DROP TABLE tickets; --" })).toEqual({ tickets: [], total: 0 });
    expect((await list()).total).toBe(25);
  });

  it('combines filters, sort and page', async () => {
    const dental = rows.filter((row) => row.businessName.endsWith('Dental') && row.status === 'resolved');
    const page = await list({ search: 'dental', status: 'resolved', sortBy: 'businessName', sortOrder: 'asc', limit: 2 });
    expect(page.total).toBe(dental.length);
    expect(ids(page)).toEqual(sorted(dental, 'businessName', 'asc').slice(0, 2));
  });

  it.each([
    [{ limit: '0' }, 'limit must be at least 1'],
    [{ limit: '1000' }, 'limit must be at most 100'],
    [{ limit: '-1' }, 'limit must be a whole number'],
    [{ limit: 'ten' }, 'limit must be a whole number'],
    [{ page: '0' }, 'page must be at least 1'],
    [{ page: '1.5' }, 'page must be a whole number'],
    [{ page: '1000001' }, 'page must be at most 1000000'],
    [{ page: '99999999999999999999' }, 'page must be a whole number'],
    [{ sortBy: 'id' }, 'sortBy must be one of: createdAt, businessName, contactName, status, responseDue'],
    [{ sortBy: 'created_at; DROP TABLE tickets' }, 'sortBy must be one of: createdAt, businessName, contactName, status, responseDue'],
    [{ sortOrder: 'sideways' }, 'sortOrder must be one of: asc, desc'],
    [{ status: 'open' }, 'status must be one of: pending_payment, active, resolved, canceled'],
    [{ response: 'soon' }, 'response must be one of: due, overdue, answered, refund_eligible'],
    [{ search: 'x'.repeat(101) }, 'search must be at most 100 characters'],
    [{ sortby: 'status' }, 'Unknown query parameter "sortby"'],
  ])('refuses %j with a 400: %s', async (query, message) => {
    const response = await admin.get('/api/admin/tickets').query(query).expect(400);
    expect(response.body.message).toBe(message);
    expect(response.body.errors).toHaveLength(1);
  });

  it('refuses a repeated parameter (page=1&page=2) with a 400', async () => {
    const response = await admin.get('/api/admin/tickets?page=1&page=2').expect(400);
    expect(response.body.errors).toEqual([{ path: 'page', message: 'page must be a whole number' }]);
  });

  it('counts a new ticket at once: a remembered total is recounted whenever the read table changed', async () => {
    const before = await list({ search: 'dental' });
    await list({ search: 'dental' });
    const [id] = await seedTickets(t, [
      [seed('TicketCreated', created({ businessName: 'Yankee Dental', email: 'yankee@example.com' }), new Date(BASE + 60 * 60_000))],
    ]);
    const after = await list({ search: 'dental' });
    expect(after.total).toBe(before.total + 1);
    expect(ids(after)[0]).toBe(id);
    rows.push({
      id: id!,
      businessName: 'Yankee Dental',
      contactName: 'Maya Patel',
      status: 'pending_payment',
      createdAt: BASE + 60 * 60_000,
    });
    expect((await list()).total).toBe(26);
  });

  it('needs an admin: anonymous and customer sessions get the 401', async () => {
    await request(t.app.getHttpServer()).get('/api/admin/tickets').expect(401);
    const { agent } = await verifiedCustomer(t.app, t.db);
    await agent.get('/api/admin/tickets').expect(401);
    await agent.get(`/api/admin/tickets/${rows[0]!.id}`).expect(401);
  });

  it('GET /api/admin/tickets/:id answers one ticket; an unknown or malformed id is a 404', async () => {
    const one = await admin.get(`/api/admin/tickets/${rows[2]!.id}`).expect(200);
    expect(one.body).toMatchObject({ id: rows[2]!.id, businessName: rows[2]!.businessName, engineerName: null });
    await admin.get('/api/admin/tickets/999999').expect(404, { message: 'Ticket not found' });
    await admin.get('/api/admin/tickets/abc').expect(404);
    await admin.get('/api/admin/tickets/99999999999').expect(404);
  });
});
