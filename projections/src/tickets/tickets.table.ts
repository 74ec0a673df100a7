import type { ColumnType } from 'kysely';

/** Timestamps are written as ISO strings and read back as Dates. */
type Timestamp = ColumnType<Date, string, string>;
/** Filled by PostgreSQL (generated columns): readable, never written. */
type GeneratedAlways<T> = ColumnType<T, never, never>;

/** One row per ticket: the admin list, the customer dashboard and the ticket detail read it. */
export interface TicketsTable {
  id: number;
  reference: string;
  business_name: string;
  contact_name: string;
  email: string;
  phone: string;
  address: string | null;
  service_category: string;
  issue_description: string;
  status: string;
  payment_status: string;
  stripe_payment_intent_id: string | null;
  payment_notes: string | null;
  fee_waiver: string | null;
  admin_notes: string | null;
  user_id: number | null;
  engineer_id: number | null;
  tawk_to_ticket_id: string | null;
  created_at: Timestamp;
  last_updated: Timestamp;
  /** '$0 Diagnostic' | 'Paid' | 'Free Diagnostic' | 'Not Paid', derived by PostgreSQL. */
  payment_display: GeneratedAlways<string>;
  /** Lower-cased business name, contact name, email and reference, for the admin search. */
  search_text: GeneratedAlways<string>;
}
