import { adminTicketListQuerySchema } from '@ppr/contracts';
import type { ReadDatabase } from '@ppr/projections';
import type { Kysely } from 'kysely';
import { aSupportRequest } from '../../../test/builders';
import { browser } from '../../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { READ_DB } from '../../projections/projections.tokens';
import { listAdminTicketRows } from './admin-tickets.read-model';
import { TicketCountCache } from './ticket-count-cache';

const ticketData = aSupportRequest();

/**
 * The admin list's total and its page come from one snapshot of the read table. A ticket the projection
 * writes between the count and the page is in neither. Writing one in the middle needs a second connection
 * while the list's transaction is open: on PostgreSQL only (the embedded database has one connection, on
 * which the two statements cannot be split by a write in the first place).
 */
const onPostgres = process.env.DATABASE_URL ? describe : describe.skip;

onPostgres('the admin list: total and page agree while tickets are written', () => {
  let t: TestApp;
  let readDb: Kysely<ReadDatabase>;

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_FORM_LIMIT_PER_HOUR: '1000' });
    readDb = t.app.get<Kysely<ReadDatabase>>(READ_DB);
    for (let i = 0; i < 3; i++) await browser(t.app).post('/api/support-request').send(ticketData).expect(201);
  });
  afterAll(async () => {
    await t?.close();
    jest.restoreAllMocks();
  });

  it.each([
    ['counted', true],
    ['cached count', false],
  ])('a ticket written between the %s and the page is in neither', async (_, fresh) => {
    const counts = new TicketCountCache(readDb);
    const query = adminTicketListQuerySchema.parse({ limit: '50' });
    if (!fresh) await listAdminTicketRows(readDb, query, new Date(), counts);
    const total = counts.total.bind(counts);
    jest.spyOn(counts, 'total').mockImplementationOnce(async (...args) => {
      const counted = await total(...args);
      // Answers once the tickets read table shows it (read-your-writes), before the list reads its page.
      await browser(t.app).post('/api/support-request').send(ticketData).expect(201);
      return counted;
    });
    const before = await listAdminTicketRows(readDb, query, new Date(), counts);
    expect(before.rows).toHaveLength(before.total);
    const after = await listAdminTicketRows(readDb, query, new Date(), counts);
    expect(after.total).toBe(before.total + 1);
    expect(after.rows).toHaveLength(after.total);
  });
});
