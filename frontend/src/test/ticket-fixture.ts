import type { AdminTicket, CustomerTicket, TicketDetail } from '@ppr/contracts';

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

/** A ticket as GET /api/customer/tickets lists it: with its count of unread staff replies. */
export function customerTicket(overrides: Partial<CustomerTicket> = {}): CustomerTicket {
  const { unreadMessages = 0, ...rest } = overrides;
  return { ...ticket(rest), unreadMessages };
}

/** A ticket as the admin list shows it: paid, no response clock running, nothing in its conversation. */
export function adminTicket(overrides: Partial<AdminTicket> = {}): AdminTicket {
  const {
    paymentDisplay = 'Paid',
    engineerName = null,
    feeSettledAt = null,
    responseDueAt = null,
    firstResponseAt = null,
    responseState = 'none',
    refundEligible = false,
    unreadMessages = 0,
    waitingOnUs = false,
    ...rest
  } = overrides;
  return {
    ...ticket(rest),
    paymentDisplay,
    engineerName,
    feeSettledAt,
    responseDueAt,
    firstResponseAt,
    responseState,
    refundEligible,
    unreadMessages,
    waitingOnUs,
  };
}
