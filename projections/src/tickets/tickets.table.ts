import type {
  FeeWaiverKind,
  MessageAttachment,
  MessageAuthorKind,
  MessageChannel,
  MessageVisibility,
  PaymentStatus,
  TicketStatus,
} from '@ppr/contracts';
import type { ColumnType } from 'kysely';

/** Timestamps are written as ISO strings and read back as Dates. */
type Timestamp = ColumnType<Date, string, string>;
type NullableTimestamp = ColumnType<Date | null, string | null, string | null>;
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
  status: TicketStatus;
  payment_status: PaymentStatus;
  stripe_payment_intent_id: string | null;
  payment_notes: string | null;
  fee_waiver: FeeWaiverKind | null;
  admin_notes: string | null;
  user_id: number | null;
  engineer_id: number | null;
  tawk_to_ticket_id: string | null;
  created_at: Timestamp;
  last_updated: Timestamp;
  /** 'Refunded' | '$0 Diagnostic' | 'Paid' | 'Free Diagnostic' | 'Not Paid', derived by PostgreSQL. */
  payment_display: GeneratedAlways<string>;
  /** Lower-cased business name, contact name, email and reference, for the admin search. */
  search_text: GeneratedAlways<string>;
  /** When the fee was paid (by the gateway) or waived: the response clock starts. NULL: no clock. */
  fee_settled_at: NullableTimestamp;
  /** The first staff action (status, notes, engineer) after that (TicketResponded). */
  first_response_at: NullableTimestamp;
  /** fee_settled_at while nobody has responded, else NULL (derived by PostgreSQL). */
  awaiting_since: GeneratedAlways<Date | null>;
  /** Who wrote the last public message of the conversation, and when (NULL: no message yet). */
  last_message_by: MessageAuthorKind | null;
  last_message_at: NullableTimestamp;
  /** The stream revision of the customer's latest message, and of staff's latest public one (unread counts). */
  customer_message_revision: ColumnType<string | null, number | null, number | null>;
  staff_message_revision: ColumnType<string | null, number | null, number | null>;
}

/** One row per message of a ticket's conversation (TicketMessagePosted), in stream order. */
export interface TicketMessagesTable {
  id: string;
  ticket_id: number;
  /** The event's revision on the ticket's stream: the thread's order. bigint, read back as a string. */
  revision: ColumnType<string, number, number>;
  author_kind: MessageAuthorKind;
  author_id: string | null;
  author_name: string;
  visibility: MessageVisibility;
  via: MessageChannel;
  body: string;
  attachments: MessageAttachment[];
  created_at: Timestamp;
}
