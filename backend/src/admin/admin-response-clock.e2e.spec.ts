import { type Actor, type AdminTicket, adminTicketListSchema } from '@ppr/contracts';
import { created, firstAdmin, seed, seedTickets } from '../../test/admin-helpers';
import type { Agent } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import type { Clock } from '../common/clock';
import { CLOCK } from '../common/common.tokens';

const T0 = Date.parse('2026-03-04T15:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const at = (offset: number) => new Date(T0 + offset);
const gateway: Actor = { kind: 'system', id: 'payment-gateway' };
const staff: Actor = { kind: 'admin', id: '1' };

/**
 * The response clock (contact within one hour of payment; refund when nobody responds within 24 hours),
 * with the app's injected clock pinned by the test: the list's "now" and the time stamped on the events the
 * admin's commands append are both the pinned time.
 */
describe('the response clock: due, overdue, answered, refund-eligible', () => {
  let t: TestApp;
  let admin: Agent;
  let now: number;
  const ids: Record<string, number> = {};

  const paid = (offset: number) => [
    seed('TicketPaymentReceived', { paymentIntentId: `pi_${offset}`, amountCents: 4900, currency: 'usd' }, at(offset), gateway),
    seed('TicketStatusChanged', { from: 'pending_payment', to: 'active' }, at(offset), gateway),
  ];
  const responded = (offset: number) => [
    seed('TicketNotesUpdated', { notes: 'Called the customer' }, at(offset), staff),
    seed('TicketResponded', {}, at(offset), staff),
  ];

  beforeAll(async () => {
    t = await createTestApp();
    ({ agent: admin } = await firstAdmin(t.app));
    const clock = t.app.get<Clock>(CLOCK, { strict: false });
    jest.spyOn(clock, 'now').mockImplementation(() => new Date(now));
    now = T0 + 30 * MINUTE;

    const open = (name: string) => seed('TicketCreated', created({ businessName: name }), at(-48 * HOUR));
    const histories: Record<string, ReturnType<typeof seed>[]> = {
      dueSoon: [open('Due Soon'), ...paid(0)],
      overdue: [open('Overdue'), ...paid(-2 * HOUR)],
      toAnswer: [open('To Answer'), ...paid(-2 * HOUR)],
      unanswered25h: [open('Unanswered 25h'), ...paid(-25 * HOUR)],
      answeredLate: [open('Answered Late'), ...paid(-30 * HOUR), ...responded(-3 * HOUR)],
      answeredOnTime: [open('Answered On Time'), ...paid(-30 * HOUR), ...responded(-29 * HOUR - 30 * MINUTE)],
      waived25h: [
        open('Waived 25h'),
        seed(
          'TicketFeeWaived',
          { kind: 'free_diagnostic', notes: 'Free diagnostic service', paymentIntentId: null },
          at(-25 * HOUR),
          staff,
        ),
      ],
      unpaid: [open('Unpaid')],
      refunded: [
        open('Refunded'),
        ...paid(-30 * HOUR),
        seed('TicketPaymentRefunded', { paymentIntentId: 'pi_x', amountCents: 4900, currency: 'usd', reason: null }, at(-2 * HOUR), staff),
      ],
    };
    const names = Object.keys(histories);
    const seeded = await seedTickets(t, Object.values(histories));
    names.forEach((name, n) => (ids[name] = seeded[n]!));
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await t?.close();
  });

  async function list(query: Record<string, string | number> = {}): Promise<AdminTicket[]> {
    const response = await admin
      .get('/api/admin/tickets')
      .query({ limit: 100, ...query })
      .expect(200);
    return adminTicketListSchema.parse(response.body).tickets;
  }
  const named = (tickets: AdminTicket[]) => tickets.map((ticket) => ticket.businessName);
  async function ticket(name: string): Promise<AdminTicket> {
    return (await admin.get(`/api/admin/tickets/${ids[name]}`).expect(200)).body as AdminTicket;
  }

  it('shows when the fee was settled, when contact is due, and the state at the pinned time', async () => {
    expect(await ticket('dueSoon')).toMatchObject({
      feeSettledAt: at(0).toISOString(),
      responseDueAt: at(HOUR).toISOString(),
      firstResponseAt: null,
      responseState: 'due',
      refundEligible: false,
    });
    expect(await ticket('overdue')).toMatchObject({ responseState: 'overdue', refundEligible: false });
    expect(await ticket('unanswered25h')).toMatchObject({ responseState: 'overdue', refundEligible: true });
    expect(await ticket('answeredLate')).toMatchObject({
      responseState: 'answered',
      firstResponseAt: at(-3 * HOUR).toISOString(),
      refundEligible: true,
    });
    expect(await ticket('answeredOnTime')).toMatchObject({ responseState: 'answered', refundEligible: false });
    // A waived fee starts the clock too, but holds no money to refund.
    expect(await ticket('waived25h')).toMatchObject({ responseState: 'overdue', refundEligible: false });
    expect(await ticket('unpaid')).toMatchObject({ feeSettledAt: null, responseDueAt: null, responseState: 'none', refundEligible: false });
    expect(await ticket('refunded')).toMatchObject({ feeSettledAt: null, responseState: 'none', refundEligible: false });
  });

  it('filters response=due|overdue|answered|refund_eligible', async () => {
    expect(named(await list({ response: 'due' }))).toEqual(['Due Soon']);
    expect(named(await list({ response: 'overdue', sortBy: 'responseDue', sortOrder: 'asc' }))).toEqual([
      'Unanswered 25h',
      'Waived 25h',
      'Overdue',
      'To Answer',
    ]);
    expect(named(await list({ response: 'answered', sortBy: 'businessName', sortOrder: 'asc' }))).toEqual([
      'Answered Late',
      'Answered On Time',
    ]);
    expect(named(await list({ response: 'refund_eligible', sortBy: 'businessName', sortOrder: 'asc' }))).toEqual([
      'Answered Late',
      'Unanswered 25h',
    ]);
  });

  it('sorts by the time left: least first (asc) or most first (desc); no running clock counts as unlimited time', async () => {
    const ascending = named(await list({ sortBy: 'responseDue', sortOrder: 'asc' }));
    expect(ascending.slice(0, 5)).toEqual(['Unanswered 25h', 'Waived 25h', 'Overdue', 'To Answer', 'Due Soon']);
    expect(ascending).toHaveLength(9);
    const descending = named(await list({ sortBy: 'responseDue', sortOrder: 'desc' }));
    expect(descending.slice(-5)).toEqual(['Due Soon', 'To Answer', 'Overdue', 'Waived 25h', 'Unanswered 25h']);
    expect(descending.slice(0, 4).sort()).toEqual(['Answered Late', 'Answered On Time', 'Refunded', 'Unpaid']);
  });

  it("a staff action through the API stops the clock at the injected clock's time", async () => {
    now = T0 + 40 * MINUTE;
    const answer = await admin.patch(`/api/admin/tickets/${ids.toAnswer}/status`).send({ status: 'resolved' }).expect(200);
    expect(answer.body).toMatchObject({ responseState: 'answered', firstResponseAt: at(40 * MINUTE).toISOString(), refundEligible: false });
    const events = await t.store.readStream(`ticket-${ids.toAnswer}`);
    expect(events.slice(-2).map((event) => [event.type, event.metadata.occurredAt])).toEqual([
      ['TicketStatusChanged', at(40 * MINUTE).toISOString()],
      ['TicketResponded', at(40 * MINUTE).toISOString()],
    ]);
    // A second action is not a first response.
    await admin.patch(`/api/admin/tickets/${ids.toAnswer}/notes`).send({ notes: 'Follow-up' }).expect(200);
    expect((await t.store.readStream(`ticket-${ids.toAnswer}`)).filter((event) => event.type === 'TicketResponded')).toHaveLength(1);
    expect(named(await list({ response: 'overdue' }))).not.toContain('To Answer');
  });

  it('due turns overdue exactly one hour after payment', async () => {
    now = T0 + HOUR - 1;
    expect((await ticket('dueSoon')).responseState).toBe('due');
    expect(named(await list({ response: 'due' }))).toEqual(['Due Soon']);
    now = T0 + HOUR;
    expect((await ticket('dueSoon')).responseState).toBe('overdue');
    expect(await list({ response: 'due' })).toEqual([]);
    expect(named(await list({ response: 'overdue' }))).toContain('Due Soon');
  });

  it('an unanswered paid ticket becomes refund-eligible exactly 24 hours after payment', async () => {
    now = T0 + 24 * HOUR - 1;
    expect((await ticket('dueSoon')).refundEligible).toBe(false);
    expect(named(await list({ response: 'refund_eligible' }))).not.toContain('Due Soon');
    now = T0 + 24 * HOUR;
    expect((await ticket('dueSoon')).refundEligible).toBe(true);
    expect(named(await list({ response: 'refund_eligible' }))).toContain('Due Soon');
    // Answering now does not take the refund policy back: the 24 hours have passed.
    await admin.patch(`/api/admin/tickets/${ids.dueSoon}/notes`).send({ notes: 'Sorry for the wait' }).expect(200);
    expect(await ticket('dueSoon')).toMatchObject({ responseState: 'answered', refundEligible: true });
  });
});
