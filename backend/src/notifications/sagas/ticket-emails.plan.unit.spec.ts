import { EVENT_SCHEMAS, type EventType } from '@ppr/contracts';
import { ticketCreatedData } from '@ppr/projections/src/testing/ticket-created';
import type { RecordedEvent } from '../../event-store/event-store.port';
import { renderEmail } from '../templates/ticket-emails';
import { planTicketEmails } from './ticket-emails.plan';

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
