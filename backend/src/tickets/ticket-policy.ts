import type { Pool } from 'pg';
import type { AppConfig } from '../config/config';

/*
 * Rules of the tickets module that other modules apply before a ticket exists (payments refuses a zero-cost
 * claim the waiver rule does not cover, and claims a paying intent for a ticket number before creating it).
 * One copy, public, so the rule cannot drift.
 */

/** The fee waiver rule: configured emails or contact names (case-insensitive) get a free diagnostic. */
export function feeIsWaived(
  config: Pick<AppConfig, 'FEE_WAIVER_EMAILS' | 'FEE_WAIVER_NAMES'>,
  email: string,
  contactName: string,
): boolean {
  return (
    config.FEE_WAIVER_EMAILS.includes(email.trim().toLowerCase()) || config.FEE_WAIVER_NAMES.includes(contactName.trim().toLowerCase())
  );
}

/** The next ticket number, from the PostgreSQL sequence (ticket streams are `ticket-{id}`). */
export async function nextTicketId(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ id: number }>(`SELECT nextval('ticket_id_seq') AS id`);
  return rows[0]!.id;
}
