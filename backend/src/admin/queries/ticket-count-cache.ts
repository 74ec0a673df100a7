import type { ReadDatabase } from '@ppr/projections';
import type { Kysely } from 'kysely';

/** Distinct filters remembered at most; the oldest is forgotten first. */
const MAX_ENTRIES = 500;

/**
 * The version the tickets read table is at: the tickets projection's checkpoint (position and time of its
 * last write), or null when the projection has no checkpoint yet. The table changes only in the projection's
 * batches, each of which moves the checkpoint in the same transaction (a replay's swap sets it too), so an
 * unchanged version means an unchanged table.
 */
export async function ticketTableVersion(db: Kysely<ReadDatabase>): Promise<string | null> {
  const row = await db
    .selectFrom('processor_checkpoints')
    .select(['position_commit', 'position_prepare', 'updated_at'])
    .where('name', '=', 'tickets')
    .executeTakeFirst();
  return row ? `${row.position_commit}/${row.position_prepare}@${row.updated_at.toISOString()}` : null;
}

/**
 * Exact totals of the admin list without counting a million rows on every page: a count is remembered
 * with the tickets projection's checkpoint (position and time of its last write) read *before* counting,
 * and reused only while the checkpoint is unchanged. The tickets table changes only in the projection's
 * batches, each of which moves the checkpoint in the same transaction (a replay's swap sets it too), so an
 * unchanged checkpoint means an unchanged table. A count that saw a newer batch than its key is simply
 * recomputed at the next request, when the checkpoint has moved on. Counts that depend on the time (the
 * response filters) are never cached.
 */
export class TicketCountCache {
  private readonly entries = new Map<string, { readonly version: string; readonly total: number }>();

  constructor(private readonly db: Kysely<ReadDatabase>) {}

  /** `db`: where to read the version, the same snapshot `count` reads in (the cache's own database by default). */
  async total(key: string, count: () => Promise<number>, db: Kysely<ReadDatabase> = this.db): Promise<number> {
    const version = await ticketTableVersion(db);
    const cached = this.entries.get(key);
    if (version !== null && cached?.version === version) return cached.total;
    const total = await count();
    if (version !== null) {
      this.entries.delete(key);
      this.entries.set(key, { version, total });
      if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    }
    return total;
  }
}
