import { EVENT_SCHEMAS, type EventType } from '@ppr/contracts';
import { ticketCreatedData } from '@ppr/projections/src/testing/ticket-created';
import {
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
  inOneStream,
} from '../../../test/builders';
import type { RecordedEvent } from '../../event-store/event-store.port';
import { renderEmail, type TicketEmailContext } from '../templates/ticket-emails';
import { type PlannedEmail, type PlanOptions, planTicketEmails } from './ticket-emails.plan';

const OPTIONS = { staffEmails: ['desk@potomacpc.example'], baseUrl: 'https://www.potomacpc.example' };

/** A ticket's stream, event by event: each call is one command (its own causation id unless given). */
function streamOf(...commands: { type: EventType; data: Record<string, unknown> }[][]): RecordedEvent[] {
  const events: RecordedEvent[] = [];
  commands.forEach((command, c) => {
    for (const event of command) {
      const revision = events.length;
      events.push({
        id: `00000000-0000-4000-8000-${String(revision).padStart(12, '0')}`,
        type: event.type,
        data: { ticketId: 1042, ...event.data },
        metadata: {
          actor: { kind: 'admin', id: '1' },
          correlationId: `c${c}`,
          causationId: `command-${c}`,
          occurredAt: '2026-03-04T15:16:17.000Z',
          schemaVersion: EVENT_SCHEMAS[event.type].version,
        },
        streamId: 'ticket-1042',
        revision,
        position: { commit: BigInt(revision + 1), prepare: 0n },
        recordedAt: new Date('2026-03-04T15:16:17.000Z'),
      });
    }
  });
  return events;
}

const created = ticketCreatedData({ issueDescription: 'The <printer> is offline & blinking' });
const activated = { type: 'TicketStatusChanged' as const, data: { from: 'pending_payment', to: 'active' } };

function kinds(stream: RecordedEvent[], index: number): string[] {
  return planTicketEmails(stream[index]!, stream, OPTIONS).map((email) => `${email.kind}:${email.to}`);
}

describe('which emails a ticket event sends', () => {
  it('a creation: ticket-created to the customer', () => {
    const stream = streamOf([{ type: 'TicketCreated', data: created }]);
    expect(kinds(stream, 0)).toEqual(['ticket-created:maya@example.com']);
  });

  it('a payment: payment-received and a staff alert; its activation sends nothing more', () => {
    const stream = streamOf(
      [{ type: 'TicketCreated', data: created }],
      [{ type: 'TicketPaymentReceived', data: { paymentIntentId: 'pi_1', amountCents: 4900, currency: 'usd' } }, activated],
    );
    expect(kinds(stream, 1)).toEqual(['payment-received:maya@example.com', 'staff-alert:desk@potomacpc.example']);
    expect(kinds(stream, 2)).toEqual([]);
  });

  it('a waiver: a staff alert only', () => {
    const stream = streamOf([
      { type: 'TicketCreated', data: created },
      { type: 'TicketFeeWaived', data: { kind: 'zero_cost', notes: 'x', paymentIntentId: null } },
      activated,
    ]);
    expect(kinds(stream, 1)).toEqual(['staff-alert:desk@potomacpc.example']);
    expect(kinds(stream, 2)).toEqual([]);
  });

  it('a status change by staff: status-update, or resolved instead when the status becomes resolved', () => {
    const stream = streamOf(
      [{ type: 'TicketCreated', data: created }],
      [activated],
      [{ type: 'TicketStatusChanged', data: { from: 'active', to: 'resolved' } }],
    );
    expect(kinds(stream, 1)).toEqual(['status-update:maya@example.com']);
    expect(kinds(stream, 2)).toEqual(['resolved:maya@example.com']);
  });

  describe('the conversation', () => {
    const message = (n: number, kind: 'customer' | 'staff', visibility: 'public' | 'internal' = 'public', attachments = 0) => ({
      type: 'TicketMessagePosted' as const,
      data: {
        messageId: `00000000-0000-4000-8000-00000000000${n}`,
        author: kind === 'customer' ? { kind, id: null, name: 'Maya Chen' } : { kind, id: '1', name: 'sam' },
        visibility,
        via: 'portal',
        body: `Message ${n}`,
        attachments: Array.from({ length: attachments }, (_, a) => ({
          id: `00000000-0000-4000-8000-0000000000a${a}`,
          filename: `photo${a}.png`,
          contentType: 'image/png',
          sizeBytes: 10,
          sha256: 'a'.repeat(64),
        })),
      },
    });
    const plan = (stream: RecordedEvent[], index: number, options: PlanOptions = OPTIONS): PlannedEmail[] =>
      planTicketEmails(stream[index]!, stream, options);

    it('a public staff reply: ticket-reply to the customer, quoting the three public messages before it, newest first; never an internal note', () => {
      const stream = streamOf(
        [{ type: 'TicketCreated', data: created }],
        [message(1, 'customer')],
        [message(2, 'staff')],
        [message(3, 'staff', 'internal')],
        [message(4, 'customer')],
        [message(5, 'customer')],
        [message(6, 'staff', 'public', 2)],
      );
      const [email, ...others] = plan(stream, 6);
      expect(others).toEqual([]);
      expect(email).toMatchObject({ kind: 'ticket-reply', to: 'maya@example.com', customer: true, replyToTicket: false });
      expect(email!.context.message).toEqual({
        authorName: 'sam',
        body: 'Message 6',
        attachmentCount: 2,
        attachmentsPlural: true,
        byEmail: false,
      });
      expect(email!.context.earlier!.map((m) => m.body)).toEqual(['Message 5', 'Message 4', 'Message 2']);
      expect(email!.context.earlier![0]!.when).toBe('Mar 4, 2026, 10:16 AM');
      expect(email!.context.ticketUrl).toBe('https://www.potomacpc.example/ticket/1042');
      const rendered = renderEmail(email!.kind, email!.context);
      expect(rendered.text).not.toContain('Message 3');
      expect(rendered.text).toContain('Open your request to answer: https://www.potomacpc.example/ticket/1042');
      // With replies by email set up, the email says so and is sent with the ticket's Reply-To.
      const byEmail = plan(stream, 6, { ...OPTIONS, replyByEmail: true })[0]!;
      expect(byEmail.replyToTicket).toBe(true);
      expect(renderEmail(byEmail.kind, byEmail.context).text).toContain('Reply to this email to answer');
    });

    it("a customer's message: an alert to each staff address; an internal note: nothing", () => {
      const stream = streamOf(
        [{ type: 'TicketCreated', data: created }],
        [message(1, 'customer', 'public', 1)],
        [message(2, 'staff', 'internal')],
      );
      expect(kinds(stream, 1)).toEqual(['customer-message:desk@potomacpc.example']);
      expect(plan(stream, 1)[0]!.context).toMatchObject({
        reopened: false,
        adminUrl: 'https://www.potomacpc.example/admin/dashboard?ticket=1042',
      });
      expect(kinds(stream, 2)).toEqual([]);
      expect(planTicketEmails(stream[1]!, stream, { ...OPTIONS, staffEmails: [] })).toEqual([]);
      // With an (active) engineer on the ticket, the alert is theirs instead of the desk's.
      const toEngineer = planTicketEmails(stream[1]!, stream, { ...OPTIONS, assignedEngineerEmail: 'dee@potomacpc.example' });
      expect(toEngineer.map((email) => `${email.kind}:${email.to}`)).toEqual(['customer-message:dee@potomacpc.example']);
    });

    it("a customer's message that reopens a resolved ticket: the alert says so, and the reopening sends no status email", () => {
      const stream = streamOf(
        [{ type: 'TicketCreated', data: created }],
        [{ type: 'TicketStatusChanged', data: { from: 'pending_payment', to: 'resolved' } }],
        [message(1, 'customer'), { type: 'TicketStatusChanged', data: { from: 'resolved', to: 'active' } }],
      );
      expect(plan(stream, 2)[0]!.context.reopened).toBe(true);
      expect(renderEmail('customer-message', plan(stream, 2)[0]!.context).text).toContain('the message reopened it');
      expect(kinds(stream, 3)).toEqual([]);
    });
  });

  it('other events and streams without a creation: nothing', () => {
    const stream = streamOf([{ type: 'TicketCreated', data: created }], [{ type: 'TicketNotesUpdated', data: { notes: 'Called' } }]);
    expect(kinds(stream, 1)).toEqual([]);
    expect(kinds(streamOf([activated]), 0)).toEqual([]);
  });

  it('no staff alert without STAFF_ALERT_EMAILS', () => {
    const stream = streamOf(
      [{ type: 'TicketCreated', data: created }],
      [{ type: 'TicketFeeWaived', data: { kind: 'zero_cost', notes: 'x', paymentIntentId: null } }],
    );
    expect(planTicketEmails(stream[1]!, stream, { ...OPTIONS, staffEmails: [] })).toEqual([]);
  });
});

/** What a test expects of one planned email: its kind, recipient, customer or staff, account; some of its context. */
type ExpectedEmail = Pick<PlannedEmail, 'kind' | 'to' | 'customer' | 'userId'> & { readonly context?: Partial<TicketEmailContext> };

/**
 * Given/when/then for the email plan: the history and the event are one ticket stream (revisions in order); the
 * emails planned for the event are compared with `then`'s, in order (kind, recipient, customer or staff, the
 * account exactly; the context's given fields).
 */
function given(...history: RecordedEvent[]) {
  return {
    when(event: RecordedEvent, options: PlanOptions = STAFF_OPTIONS) {
      const stream = inOneStream([...history, event]);
      const planned = () => planTicketEmails(stream[stream.length - 1]!, stream, options);
      return {
        then(expected: readonly ExpectedEmail[]): void {
          expect(planned()).toEqual(
            expected.map(({ context, ...email }) => ({ ...email, context: expect.objectContaining(context ?? {}) })),
          );
        },
        thenNoEmail(): void {
          expect(planned()).toEqual([]);
        },
      };
    },
  };
}

const STAFF_OPTIONS: PlanOptions = {
  staffEmails: ['desk@potomacpc.example', 'owner@potomacpc.example'],
  baseUrl: 'https://www.potomacpc.example',
};
const ADMIN_URL = 'https://www.potomacpc.example/admin/dashboard?ticket=1042';
const CUSTOMER = 'maya@example.com';

describe("ticket emails: given a ticket's stream, when an event, the emails planned", () => {
  const opened = aTicketCreatedEvent();
  /** A staff alert to each staff address, about the ticket now active, with how its fee was settled. */
  const staffAlerts = (settlement: string): ExpectedEmail[] =>
    STAFF_OPTIONS.staffEmails.map((to) => ({
      kind: 'staff-alert',
      to,
      customer: false,
      userId: null,
      context: { reference: 'PPR-2026-1042', status: 'active', settlement, adminUrl: ADMIN_URL },
    }));

  it("TicketCreated: ticket-created to the request's email, pending payment", () => {
    given()
      .when(opened)
      .then([
        {
          kind: 'ticket-created',
          to: CUSTOMER,
          customer: true,
          userId: null,
          context: { ticketId: 1042, reference: 'PPR-2026-1042', contactName: 'Maya Patel', status: 'pending_payment' },
        },
      ]);
  });

  it("TicketCreated by a customer: the email is about the customer's account", () => {
    given()
      .when(aTicketCreatedEvent({ userId: 7 }))
      .then([{ kind: 'ticket-created', to: CUSTOMER, customer: true, userId: 7 }]);
  });

  it("TicketPaymentReceived: payment-received with the event's amount to the customer, and a staff alert to each staff address", () => {
    given(opened)
      .when(aTicketPaymentReceivedEvent({ amountCents: 12500 }))
      .then([
        { kind: 'payment-received', to: CUSTOMER, customer: true, userId: null, context: { status: 'active', amount: '$125.00' } },
        ...staffAlerts('paid ($125.00)'),
      ]);
  });

  it('TicketPaymentReceived on a ticket linked to an account since: the customer email names that account, at the same address', () => {
    given(opened, aTicketLinkedToCustomerEvent({ userId: 9 }))
      .when(aTicketPaymentReceivedEvent())
      .then([{ kind: 'payment-received', to: CUSTOMER, customer: true, userId: 9 }, ...staffAlerts('paid ($49.00)')]);
  });

  it('TicketPaymentReceived without STAFF_ALERT_EMAILS: the customer email only', () => {
    given(opened)
      .when(aTicketPaymentReceivedEvent(), { ...STAFF_OPTIONS, staffEmails: [] })
      .then([{ kind: 'payment-received', to: CUSTOMER, customer: true, userId: null }]);
  });

  it('TicketFeeWaived: staff alerts only, saying which waiver', () => {
    given(opened)
      .when(aTicketFeeWaivedEvent({ kind: 'free_diagnostic' }))
      .then(staffAlerts('waived (free diagnostic)'));
    given(opened)
      .when(aTicketFeeWaivedEvent({ kind: 'zero_cost', notes: 'Zero-cost diagnostic fee', paymentIntentId: 'zero_cost_diagnostic' }))
      .then(staffAlerts('waived ($0 cost)'));
  });

  it('TicketStatusChanged by staff: status-update to the customer with the new status; resolved instead when it becomes resolved', () => {
    const paid = aTicketPaymentReceivedEvent();
    given(opened, paid)
      .when(aTicketStatusChangedEvent({ from: 'pending_payment', to: 'active' }))
      .then([{ kind: 'status-update', to: CUSTOMER, customer: true, userId: null, context: { status: 'active' } }]);
    given(opened)
      .when(aTicketStatusChangedEvent({ from: 'pending_payment', to: 'canceled' }))
      .then([{ kind: 'status-update', to: CUSTOMER, customer: true, userId: null, context: { status: 'canceled' } }]);
    given(opened, paid, aTicketStatusChangedEvent())
      .when(aTicketStatusChangedEvent({ from: 'active', to: 'resolved' }))
      .then([{ kind: 'resolved', to: CUSTOMER, customer: true, userId: null, context: { status: 'resolved' } }]);
  });

  it.each([
    ['the payment', aTicketPaymentReceivedEvent({}, { causationId: 'settle' })],
    ['the waiver', aTicketFeeWaivedEvent({}, { causationId: 'settle' })],
    ["an admin's payment recorded by hand", aTicketPaymentUpdatedEvent({ paymentStatus: 'completed' }, { causationId: 'settle' })],
  ])('TicketStatusChanged to active in the command of %s: no status-update of its own', (_, settled) => {
    given(opened, settled)
      .when(aTicketStatusChangedEvent({ from: 'pending_payment', to: 'active' }, { causationId: 'settle' }))
      .thenNoEmail();
  });

  it.each([
    ['TicketPaymentUpdated', aTicketPaymentUpdatedEvent()],
    ['TicketPaymentRefunded', aTicketPaymentRefundedEvent()],
    ['TicketNotesUpdated', aTicketNotesUpdatedEvent()],
    ['TicketLinkedToCustomer', aTicketLinkedToCustomerEvent()],
    ['TicketEngineerAssigned', aTicketEngineerAssignedEvent()],
    ['TicketResponded', aTicketRespondedEvent()],
  ])('%s: no email', (_, event) => {
    given(opened, aTicketPaymentReceivedEvent()).when(event).thenNoEmail();
  });
});

describe('rendering', () => {
  const context = { ...created, ticketId: 1042, reference: 'PPR-2026-1042', email: 'maya@example.com', status: 'active' };

  it('escapes customer text in the HTML part and keeps it verbatim in the plain part', () => {
    const email = renderEmail('ticket-created', context);
    expect(email.html).toContain('The &lt;printer&gt; is offline &amp; blinking');
    expect(email.text).toContain('The <printer> is offline & blinking');
    expect(email.subject).toBe('We received your support request PPR-2026-1042');
  });

  it('puts the business profile in the footer of both parts', () => {
    const email = renderEmail('resolved', context);
    for (const part of [email.html, email.text]) {
      expect(part).toContain('Potomac PC Repair');
      expect(part).toContain('(703) 555-0148');
      expect(part).toContain('Arlington, VA 22201');
    }
  });

  it('links the staff alert to the ticket in the admin portal', () => {
    const email = renderEmail('staff-alert', {
      ...context,
      settlement: 'paid ($49.00)',
      adminUrl: 'https://x.example/admin/dashboard?ticket=1042',
    });
    expect(email.html).toContain('href="https://x.example/admin/dashboard?ticket=1042"');
    expect(email.text).toContain('https://x.example/admin/dashboard?ticket=1042');
  });
});
