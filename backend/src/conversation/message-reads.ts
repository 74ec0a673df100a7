import type { Pool } from 'pg';

/** Who reads a conversation: the ticket's customer, or staff (one marker for the whole team). */
export type ReaderSide = 'customer' | 'staff';

/** The messages a side has to read: the other side's, public ones only (a customer never sees internal notes; staff write those). */
const AUTHOR_FOR: Record<ReaderSide, 'customer' | 'staff'> = { customer: 'staff', staff: 'customer' };

/**
 * Marks the conversation read by `side` up to `revision` (the ticket stream's revision of the newest message the
 * reader saw). A marker only moves forward: an older read that finishes last does not unread anything.
 */
export async function markRead(pool: Pool, ticketId: number, side: ReaderSide, revision: number): Promise<void> {
  await pool.query(
    `INSERT INTO ticket_message_reads (ticket_id, side, read_revision) VALUES ($1, $2, $3)
     ON CONFLICT (ticket_id, side) DO UPDATE SET read_revision = EXCLUDED.read_revision, read_at = now()
     WHERE ticket_message_reads.read_revision < EXCLUDED.read_revision`,
    [ticketId, side, revision],
  );
}

/** For each of these tickets with any, how many of the other side's public messages `side` has not read. */
export async function unreadCounts(pool: Pool, side: ReaderSide, ticketIds: readonly number[]): Promise<Map<number, number>> {
  if (ticketIds.length === 0) return new Map();
  const { rows } = await pool.query<{ ticket_id: number; unread: number }>(
    `SELECT m.ticket_id, count(*)::int AS unread
     FROM ticket_messages AS m
     LEFT JOIN ticket_message_reads AS r ON r.ticket_id = m.ticket_id AND r.side = $1
     WHERE m.ticket_id = ANY($2::int[]) AND m.author_kind = $3 AND m.visibility = 'public'
       AND m.revision > coalesce(r.read_revision, -1)
     GROUP BY m.ticket_id`,
    [side, ticketIds, AUTHOR_FOR[side]],
  );
  return new Map(rows.map((row) => [row.ticket_id, row.unread]));
}

/** The read marker of one side, -1 when it never read the conversation. */
export async function readRevision(pool: Pool, ticketId: number, side: ReaderSide): Promise<number> {
  const { rows } = await pool.query<{ read_revision: string }>(
    'SELECT read_revision FROM ticket_message_reads WHERE ticket_id = $1 AND side = $2',
    [ticketId, side],
  );
  return rows[0] ? Number(rows[0].read_revision) : -1;
}

export { AUTHOR_FOR };
