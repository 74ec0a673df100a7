import type { TicketDetail } from '@ppr/contracts';

/** A complete ticket as the API returns it, for tests. */
export function ticket(overrides: Partial<TicketDetail> = {}): TicketDetail {
  return {
    id: 1,
    reference: 'PPR-2026-1',
    businessName: 'Acme LLC',
    contactName: 'Pat Lee',
    email: 'pat@example.com',
    phone: '2025550100',
    address: null,
    serviceCategory: 'networking',
    issueDescription: 'The office Wi-Fi drops every hour.',
    status: 'active',
    createdAt: '2026-11-20T15:00:00.000Z',
    lastUpdated: '2026-11-20T15:00:00.000Z',
    tawkToTicketId: null,
    stripePaymentIntentId: null,
    paymentStatus: 'completed',
    paymentNotes: null,
    paymentDisplay: 'Paid',
    adminNotes: null,
    userId: 7,
    engineerId: null,
    ...overrides,
  };
}
