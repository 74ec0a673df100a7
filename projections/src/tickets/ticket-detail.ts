import type { PaymentDisplay, TicketDetail } from '@ppr/contracts';
import type { Selectable } from 'kysely';
import type { TicketsTable } from './tickets.table';

/** A tickets read-table row as the API shows it: one mapping for the customer and the admin views. */
export function toTicketDetail(row: Selectable<TicketsTable>): TicketDetail {
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
    status: row.status,
    createdAt: row.created_at.toISOString(),
    lastUpdated: row.last_updated.toISOString(),
    tawkToTicketId: row.tawk_to_ticket_id,
    stripePaymentIntentId: row.stripe_payment_intent_id,
    paymentStatus: row.payment_status,
    paymentNotes: row.payment_notes,
    paymentDisplay: row.payment_display as PaymentDisplay,
    adminNotes: row.admin_notes,
    userId: row.user_id,
    engineerId: row.engineer_id,
  };
}
