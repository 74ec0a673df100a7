import { ADMIN_TICKET_SORTS, adminTicketListQuerySchema, SORT_ORDERS, type TicketStatus } from '@ppr/contracts';
import type { ReadDatabase } from '@ppr/projections';
import type { Kysely } from 'kysely';
import { created, seed, seedTickets } from '../../../test/admin-helpers';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { READ_DB } from '../../projections/projections.tokens';
import { listAdminTicketRows } from './admin-tickets.read-model';
import { TicketCountCache } from './ticket-count-cache';
import { DEEP_SEARCH_OFFSET, TicketIdListCache } from './ticket-id-list-cache';

const BASE = Date.UTC(2026, 2, 2, 9);
const STATUSES: TicketStatus[] = ['pending_payment', 'active', 'resolved', 'canceled'];
const NAMES = ['Dana', 'Ana', 'Sam', 'Zoe', 'Omar', 'Yuki', 'Ivan'];

describe('deep pages of a text search from a remembered id list (TicketIdListCache)', () => {
  let t: TestApp;
  let readDb: Kysely<ReadDatabase>;
  const now = new Date(BASE + 86_400_000);
  const parse = (query: Record<string, string>) => adminTicketListQuerySchema.parse(query);

  beforeAll(async () => {
    t = await createTestApp();
    readDb = t.app.get<Kysely<ReadDatabase>>(READ_DB);
    // 30 tickets; 20 are "Bakery" ones, with repeated names and times (ties broken by id) and every status.
    await seedTickets(
      t,
      Array.from({ length: 30 }, (_, n) => {
        const at = new Date(BASE + (n % 7) * 60_000);
        const history = [
          seed(
            'TicketCreated',
            created({
              businessName: n % 3 === 2 ? `Potomac Law ${n}` : `${['Rock Creek', 'Beltway', 'Capitol'][n % 3]} Bakery ${n % 4}`,
              contactName: `${NAMES[n % NAMES.length]} Lee`,
              email: `owner${n}@example.com`,
            }),
            at,
          ),
        ];
        const status = STATUSES[n % 4]!;
        if (status !== 'pending_payment') history.push(seed('TicketStatusChanged', { from: 'pending_payment', to: status }, at));
        return history;
      }),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('pages every sort, order and status filter exactly as the query does, past the end included', async () => {
    const cache = new TicketIdListCache(readDb, 0);
    for (const sortBy of ADMIN_TICKET_SORTS) {
      for (const sortOrder of SORT_ORDERS) {
        for (const status of [undefined, 'active']) {
          for (const page of [1, 2, 4, 7, 8]) {
            const query = parse({ search: 'BAKERY', sortBy, sortOrder, page: String(page), limit: '3', ...(status ? { status } : {}) });
            const direct = await listAdminTicketRows(readDb, query, now);
            const remembered = await listAdminTicketRows(readDb, query, now, new TicketCountCache(readDb), cache);
            const where = { sortBy, sortOrder, status, page };
            expect({ where, ids: remembered.rows.map((row) => row.id), total: remembered.total }).toEqual({
              where,
              ids: direct.rows.map((row) => row.id),
              total: direct.total,
            });
          }
        }
      }
    }
    expect((await listAdminTicketRows(readDb, parse({ search: 'bakery', limit: '3' }), now)).total).toBe(20);
  });

  it('reads a search once while the table is unchanged, and again once it changed', async () => {
    const cache = new TicketIdListCache(readDb, 0);
    let reads = 0;
    const counted = (ids: number[]) => async () => {
      reads += 1;
      return ids;
    };
    expect([...(await cache.ids('k', counted([3, 1, 2])))]).toEqual([3, 1, 2]);
    expect([...(await cache.ids('k', counted([9])))]).toEqual([3, 1, 2]);
    expect(reads).toBe(1);

    const query = parse({ search: 'bakery', page: '7', limit: '3', sortOrder: 'asc' });
    const before = await listAdminTicketRows(readDb, query, now, undefined, cache);
    const [id] = await seedTickets(t, [[seed('TicketCreated', created({ businessName: 'Shaw Bakery 9' }), new Date(BASE + 3_600_000))]]);
    const after = await listAdminTicketRows(readDb, query, now, undefined, cache);
    expect(after.total).toBe(before.total + 1);
    expect(after.rows.map((row) => row.id)).toEqual([...before.rows.map((row) => row.id), id]);
    expect([...(await cache.ids('k', counted([4, 5])))]).toEqual([4, 5]);
    expect(reads).toBe(2);
  });

  it('leaves shallow pages to the query (page 50 at 10 a page is the last one)', async () => {
    const cache = new TicketIdListCache(readDb);
    expect(cache.minOffset).toBe(DEEP_SEARCH_OFFSET);
    const read = jest.spyOn(cache, 'ids');
    await listAdminTicketRows(readDb, parse({ search: 'bakery', page: String(DEEP_SEARCH_OFFSET / 10) }), now, undefined, cache);
    expect(read).not.toHaveBeenCalled();
    const deep = await listAdminTicketRows(
      readDb,
      parse({ search: 'bakery', page: String(DEEP_SEARCH_OFFSET / 10 + 1) }),
      now,
      undefined,
      cache,
    );
    expect(read).toHaveBeenCalledTimes(1);
    expect(deep).toEqual({ rows: [], total: 21 });
  });
});
