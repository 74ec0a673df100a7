import type { AdminTicket, AdminTicketListQuery, AdminTicketSort, ResponseFilter } from '@ppr/contracts';
import { type ReadDatabase, toTicketDetail } from '@ppr/projections';
import { type Kysely, type SelectQueryBuilder, type Selectable, sql } from 'kysely';
import { REFUND_AFTER_MS, RESPONSE_DUE_MS, responseClock } from './response-clock';
import type { TicketCountCache } from './ticket-count-cache';
import type { TicketIdListCache } from './ticket-id-list-cache';

type Tickets = ReadDatabase['tickets'];
export type TicketRow = Selectable<Tickets>;
type TicketQuery = SelectQueryBuilder<ReadDatabase, 'tickets', object>;

/**
 * The read table's column for each sort of the list; `id` breaks ties in the same direction, so pages are
 * stable. The time left on the response clock sorts by `awaiting_since`: the older the payment, the less
 * time left; a ticket without a running clock (NULL) has unlimited time, last ascending, first descending.
 */
const SORT_COLUMNS = {
  createdAt: 'created_at',
  businessName: 'business_name',
  contactName: 'contact_name',
  status: 'status',
  responseDue: 'awaiting_since',
} as const satisfies Record<AdminTicketSort, keyof Tickets>;

/** `%`, `_` and the escape character itself match literally in the admin's search text. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

function byResponse(builder: TicketQuery, filter: ResponseFilter, now: Date): TicketQuery {
  const dueSince = new Date(now.getTime() - RESPONSE_DUE_MS);
  switch (filter) {
    case 'due':
      return builder.where('awaiting_since', '>', dueSince);
    case 'overdue':
      return builder.where('awaiting_since', '<=', dueSince);
    case 'answered':
      return builder.where('first_response_at', 'is not', null);
    case 'refund_eligible': {
      // Paid through the gateway (a waiver holds no money; a payment recorded by hand starts no clock) and
      // nobody responded within 24 hours: still waiting after 24 hours, or answered later than that.
      const refundSince = new Date(now.getTime() - REFUND_AFTER_MS);
      return builder
        .where('payment_status', '=', 'completed')
        .where('fee_waiver', 'is', null)
        .where((eb) =>
          eb.or([
            eb('awaiting_since', '<=', refundSince),
            eb('first_response_at', '>=', sql<Date>`fee_settled_at + make_interval(secs => ${REFUND_AFTER_MS / 1000})`),
          ]),
        );
    }
    default: {
      const unhandled: never = filter;
      return unhandled;
    }
  }
}

function filtered(db: Kysely<ReadDatabase>, query: AdminTicketListQuery, now: Date): TicketQuery {
  let builder: TicketQuery = db.selectFrom('tickets');
  if (query.status) builder = builder.where('status', '=', query.status);
  if (query.search) {
    // search_text is lower(...) of the searched fields: lower() the pattern the same way, in PostgreSQL.
    const pattern = `%${escapeLike(query.search)}%`;
    builder = builder.where('search_text', 'like', sql<string>`lower(${pattern})`);
  }
  if (query.response) builder = byResponse(builder, query.response, now);
  // The conversation's last public message is the customer's (partial index tickets_waiting_on_us_idx).
  if (query.waiting === 'us') builder = builder.where('last_message_by', '=', 'customer');
  return builder;
}

/**
 * The two statements of a list request: the number of matching tickets, and one page of them. Exposed so
 * that bench/admin-list.ts can print the plans of exactly what the API runs.
 */
export function adminTicketQueries(db: Kysely<ReadDatabase>, query: AdminTicketListQuery, now: Date) {
  const offset = (query.page - 1) * query.limit;
  const column = SORT_COLUMNS[query.sortBy];
  const order = query.sortOrder;
  // The page's ids first, then their rows: skipping `offset` entries of an index that holds the sort key
  // and the id (an index-only scan) costs far less than fetching and dropping `offset` whole rows, which
  // is what page 5,000 would otherwise do. PostgreSQL's default NULL placement (last ascending, first
  // descending) is what the indexes give, and it fits the one nullable sort: a ticket without a running
  // clock has all the time in the world.
  const ordered = filtered(db, query, now).select('id').orderBy(column, order).orderBy('id', order);
  const ids = ordered.limit(query.limit).offset(offset);
  return {
    offset,
    /** Every matching id in the list's order (what TicketIdListCache remembers for a text search). */
    allIds: ordered,
    count: filtered(db, query, now).select((eb) => eb.fn.countAll<string>().as('total')),
    page: db
      .selectFrom(ids.as('page'))
      .innerJoin('tickets', 'tickets.id', 'page.id')
      .selectAll('tickets')
      .orderBy(`tickets.${column}`, order)
      .orderBy('tickets.id', order),
  };
}

/**
 * One page of the admin list and the number of tickets that match. Every input was validated (zod) before
 * it gets here and values travel as parameters; "now" is the caller's (injected) clock. Totals that do not
 * depend on the time come through `counts` (exact, recounted whenever the table changed). A page past the
 * end answers no rows without reading any. Deep pages of a text search come through `idLists`.
 */
export async function listAdminTicketRows(
  db: Kysely<ReadDatabase>,
  query: AdminTicketListQuery,
  now: Date,
  counts?: TicketCountCache,
  idLists?: TicketIdListCache,
): Promise<{ rows: TicketRow[]; total: number }> {
  const queries = adminTicketQueries(db, query, now);
  // A deep page of a text search: from the search's remembered ids (the response filters depend on the time).
  if (idLists && query.search && !query.response && queries.offset >= idLists.minOffset) {
    const key = JSON.stringify([query.status ?? null, query.waiting ?? null, query.search, query.sortBy, query.sortOrder]);
    const ids = await idLists.ids(key, async () => (await queries.allIds.execute()).map((row) => row.id));
    return { rows: await rowsInOrder(db, [...ids.subarray(queries.offset, queries.offset + query.limit)]), total: ids.length };
  }
  // The total and the page from one snapshot: a batch of the projection committed between two statements
  // would otherwise make them disagree (a total of 10 beside 11 rows). Read only, so it holds no lock.
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (snapshot) => {
      const inSnapshot = adminTicketQueries(snapshot, query, now);
      const count = async (): Promise<number> => Number((await inSnapshot.count.executeTakeFirstOrThrow()).total);
      const total =
        counts && !query.response
          ? await counts.total(JSON.stringify([query.status ?? null, query.waiting ?? null, query.search ?? null]), count, snapshot)
          : await count();
      if (inSnapshot.offset >= total) return { rows: [], total };
      return { rows: await inSnapshot.page.execute(), total };
    });
}

/** The rows of these ids, in this order. */
async function rowsInOrder(db: Kysely<ReadDatabase>, ids: readonly number[]): Promise<TicketRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('tickets').selectAll().where('id', 'in', ids).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function findAdminTicketRow(db: Kysely<ReadDatabase>, id: number): Promise<TicketRow | null> {
  return (await db.selectFrom('tickets').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/**
 * A read-table row as the admin API shows it at `now`; `engineerName` comes from the engineers table,
 * `unreadMessages` from the conversation's read markers (conversation/message-reads.ts).
 */
export function toAdminTicket(row: TicketRow, engineerName: string | null, now: Date, unreadMessages: number): AdminTicket {
  return {
    ...toTicketDetail(row),
    engineerName,
    ...responseClock(row, now),
    unreadMessages,
    waitingOnUs: row.last_message_by === 'customer',
  };
}
