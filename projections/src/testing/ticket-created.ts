import type { EventData } from '@ppr/contracts';

/**
 * The payload of a TicketCreated for tests, without its ticket id: Capitol Dental's networking request,
 * the visitor's (no account), at the standard fee. The backend's tests import it too, through
 * `@ppr/projections/src/testing/ticket-created` (the projections never import the backend).
 */
export function ticketCreatedData(
  overrides: Partial<Omit<EventData<'TicketCreated'>, 'ticketId'>> = {},
): Omit<EventData<'TicketCreated'>, 'ticketId'> {
  return {
    businessName: 'Capitol Dental',
    contactName: 'Maya Patel',
    email: 'maya@example.com',
    phone: '(703) 555-0100',
    address: null,
    serviceCategory: 'networking',
    issueDescription: 'The printer is offline',
    userId: null,
    feeCents: 4900,
    ...overrides,
  };
}
