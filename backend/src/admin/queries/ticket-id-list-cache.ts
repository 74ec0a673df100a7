import type { ReadDatabase } from '@ppr/projections';
import type { Kysely } from 'kysely';
import { ticketTableVersion } from './ticket-count-cache';

/** Offsets from which a text search is paged from a remembered id list (page 51 and on at 10 a page). */
export const DEEP_SEARCH_OFFSET = 500;
/** Ids remembered at most, over all lists (4 bytes each: 16 MB); the least recently used list goes first. */
const MAX_IDS = 4_000_000;

/**
 * Deep pages of a text search. A substring search cannot seek: its matches are found by the trigram index in
 * no useful order, so page 5,000 of 62,000 matches fetches, rechecks and sorts every match (about 250 ms at
 * a million tickets), and walking a sort index instead reads 16 entries per match. So the ordered ids of a
 * search (its filters, sort and order) are read once, with one statement, and remembered with the version of
 * the read table read *before* (see ticketTableVersion and TicketCountCache, which works the same way); any
 * page of that search is then a slice of the list and a primary-key read of its rows, until the table
 * changes. The list's length is the search's exact total at that version.
 */
export class TicketIdListCache {
  private readonly entries = new Map<string, { readonly version: string; readonly ids: Int32Array }>();
  private size = 0;

  constructor(
    private readonly db: Kysely<ReadDatabase>,
    /** The first offset paged from a list: shallower pages are cheap with the sort indexes. */
    readonly minOffset: number = DEEP_SEARCH_OFFSET,
  ) {}

  /** The ordered ids for `key`, from memory while the table is unchanged, else from `read`. */
  async ids(key: string, read: () => Promise<readonly number[]>): Promise<Int32Array> {
    const version = await ticketTableVersion(this.db);
    const cached = this.entries.get(key);
    if (version !== null && cached?.version === version) {
      // Most recently used last: eviction takes the first.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached.ids;
    }
    const ids = Int32Array.from(await read());
    this.forget(key);
    if (version !== null && ids.length <= MAX_IDS) {
      this.entries.set(key, { version, ids });
      this.size += ids.length;
      for (const oldest of this.entries.keys()) {
        if (this.size <= MAX_IDS) break;
        this.forget(oldest);
      }
    }
    return ids;
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.size -= entry.ids.length;
  }
}
