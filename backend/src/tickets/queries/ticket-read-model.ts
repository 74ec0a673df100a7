import type { PaymentDisplay, PaymentStatus, TicketDetail, TicketStatus, TicketSummary } from '@ppr/contracts';
import type { ReadDatabase } from '@ppr/projections';
import type { Kysely, Selectable } from 'kysely';

type TicketRow = Selectable<ReadDatabase['tickets']>;

/** Query helpers over the ticket read table: plain functions taking the database first. */
export function toTicketDetail(row: TicketRow): TicketDetail {
  return {
    id: row.id,
    reference: row.reference,
    businessName: row.business_name,
    contactName: row.contact_name,
    email: row.email,
    phone: row.phone,
    address: row.address,
    serviceCategory: row.service_category,
    issueDescription: row.issue_description,
    status: row.status as TicketStatus,
    createdAt: row.created_at.toISOString(),
    lastUpdated: row.last_updated.toISOString(),
    tawkToTicketId: row.tawk_to_ticket_id,
    stripePaymentIntentId: row.stripe_payment_intent_id,
    paymentStatus: row.payment_status as PaymentStatus,
    paymentNotes: row.payment_notes,
    paymentDisplay: row.payment_display as PaymentDisplay,
    adminNotes: row.admin_notes,
    userId: row.user_id,
    engineerId: row.engineer_id,
  };
}

export async function findTicket(db: Kysely<ReadDatabase>, id: number): Promise<TicketDetail | null> {
  const row = await db.selectFrom('tickets').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toTicketDetail(row) : null;
}

export async function findTicketSummary(db: Kysely<ReadDatabase>, id: number): Promise<TicketSummary | null> {
  const row = await db
    .selectFrom('tickets')
    .select(['id', 'payment_status', 'service_category', 'issue_description'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        paymentStatus: row.payment_status as PaymentStatus,
        serviceCategory: row.service_category,
        issueDescription: row.issue_description,
      }
    : null;
}

export async function listCustomerTickets(db: Kysely<ReadDatabase>, userId: number): Promise<TicketDetail[]> {
  const rows = await db
    .selectFrom('tickets')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toTicketDetail);
}

export async function findGuestTicketsByEmail(db: Kysely<ReadDatabase>, email: string): Promise<TicketDetail[]> {
  const rows = await db
    .selectFrom('tickets')
    .selectAll()
    .where('user_id', 'is', null)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map(toTicketDetail);
}
