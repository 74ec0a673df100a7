import type { TicketDetail, TicketSummary } from '@ppr/contracts';
import { type ReadDatabase, toTicketDetail } from '@ppr/projections';
import type { Kysely } from 'kysely';

/* Query helpers over the ticket read table: plain functions taking the database first. */

export async function findTicket(db: Kysely<ReadDatabase>, id: number): Promise<TicketDetail | null> {
  const row = await db.selectFrom('tickets').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toTicketDetail(row) : null;
}

export async function findTicketSummary(db: Kysely<ReadDatabase>, id: number): Promise<TicketSummary | null> {
  const ticket = await findTicket(db, id);
  return ticket
    ? {
        id: ticket.id,
        reference: ticket.reference,
        createdAt: ticket.createdAt,
        paymentStatus: ticket.paymentStatus,
        paymentDisplay: ticket.paymentDisplay,
        serviceCategory: ticket.serviceCategory,
        issueDescription: ticket.issueDescription,
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
