import type { SupportRequestInput } from '@ppr/contracts';
import type { TicketGrantsConfig } from '../src/auth/ticket-grants';
import type { CreateTicket } from '../src/tickets/domain/ticket.decide';

/**
 * The backend tests' one builder of requests and events: a valid body or event with plausible defaults,
 * the values a test depends on given as overrides (and only those, so that they stand out).
 *
 *   agent.post('/api/support-request').send(aSupportRequest({ email: customer.email }))
 *   given(aTicketCreatedEvent(), aTicketPaymentReceivedEvent()).when(aTicketStatusChangedEvent())...
 */

/** The fields of the website's support request form, every one of them text (none of the legacy fields); a type, not an interface, so that it is a `Record<string, string>`. */
export type SupportRequestBody = {
  readonly businessName: string;
  readonly contactName: string;
  readonly email: string;
  readonly phone: string;
  readonly address: string;
  readonly serviceCategory: string;
  readonly issueDescription: string;
};

/**
 * A body `POST /api/support-request` accepts (`supportRequestSchema`), and the `ticketData` of the payment
 * endpoints: Capitol Hill Dental's networking problem, `overrides` over it.
 */
export function aSupportRequest(overrides: Partial<SupportRequestBody> = {}): SupportRequestBody {
  const body: SupportRequestBody = {
    businessName: 'Capitol Hill Dental',
    contactName: 'Maya Patel',
    email: 'maya@capitolhilldental.example',
    phone: '(202) 555-0143',
    address: '410 E Capitol St, Washington, DC',
    serviceCategory: 'networking',
    issueDescription: 'The front desk printer and two workstations drop off the network every afternoon.',
    ...overrides,
  };
  return body satisfies SupportRequestInput;
}

/** A session secret for unit tests that sign something (grants cookies). */
export const TEST_SESSION_SECRET = 'a-session-secret-of-at-least-32-characters';

/** What the ticket grants read of the config, for unit tests: `TEST_SESSION_SECRET`, a day's idle time. */
export const TEST_TICKET_GRANTS_CONFIG: TicketGrantsConfig = {
  SESSION_SECRET: TEST_SESSION_SECRET,
  SESSION_SECRET_PREVIOUS: undefined,
  DATA_DIR: 'memory',
  SESSION_IDLE_HOURS: 24,
  NODE_ENV: 'test',
  APP_BASE_URL: undefined,
};

/** The decider's `CreateTicket` for ticket `ticketId` (Acme Dental's Wi-Fi), `overrides` over its data. */
export function aCreateTicketCommand(ticketId: number, overrides: Partial<CreateTicket['data']> = {}): CreateTicket {
  return {
    type: 'CreateTicket',
    data: {
      ticketId,
      businessName: 'Acme Dental',
      contactName: 'Dana',
      email: 'dana@example.com',
      phone: '7035550100',
      address: null,
      serviceCategory: 'networking',
      issueDescription: 'Wi-Fi drops every afternoon',
      userId: null,
      feeCents: 4900,
      waiveFee: false,
      ...overrides,
    },
  };
}

/**
 * Stored events of a ticket's stream (and of its notifications stream) for unit tests, one builder per
 * event type: the projections' specs use the same ones (the projections never import the backend).
 */
export {
  anEvent,
  aNotificationFailedEvent,
  aNotificationSentEvent,
  aTicketCreatedEvent,
  aTicketEngineerAssignedEvent,
  aTicketFeeWaivedEvent,
  aTicketLinkedToCustomerEvent,
  aTicketNotesUpdatedEvent,
  aTicketPaymentReceivedEvent,
  aTicketPaymentRefundedEvent,
  aTicketPaymentUpdatedEvent,
  aTicketRespondedEvent,
  aTicketStatusChangedEvent,
  type EventOptions,
  inOneStream,
  TICKET_ID,
} from '@ppr/projections/src/testing/ticket-events';
