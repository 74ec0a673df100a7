import { randomUUID } from 'node:crypto';
import type { EventMetadata, EventType } from '@ppr/contracts';
import type { AnyProjection } from '@ppr/projections';
import type { Pool } from 'pg';
import { migrateStorage } from '../src/bootstrap/prepare-storage';
import { loadConfig } from '../src/config/config';
import { type Database, openDatabase } from '../src/database/database';
import { createEventStore } from '../src/event-store/event-store.module';
import { comparePositions, type EventStore, type NewEvent, type Position, START } from '../src/event-store/event-store.port';
import { ProcessingHost, type ProcessingHostOptions } from '../src/processing/processing-host';
import { AdvisoryProcessorLocks, InProcessLocks } from '../src/processing/processor-locks';
import { projectionProcessor } from '../src/projections/projection-processor';
import { testSchema } from './test-schema';

export interface ReadSide {
  readonly db: Database;
  readonly store: EventStore;
  /** For runners' single-active lock: set on a real PostgreSQL only. */
  readonly lockUrl: string | undefined;
  close(): Promise<void>;
}

/** The event store and the read tables without the app: a real PostgreSQL (own schema) or embedded. */
export async function openReadSide(): Promise<ReadSide> {
  const schema = testSchema('rs', { poolSize: 8 });
  const config = loadConfig({ NODE_ENV: 'test', EVENT_STORE_POLL_MS: '100', ...schema.env });
  const db = await openDatabase(config);
  await migrateStorage(db, config);
  const store = await createEventStore(config, db);
  return {
    db,
    store,
    lockUrl: db.kind === 'postgres' ? db.url : undefined,
    async close() {
      await store.close();
      await db.close();
      await schema.drop();
    },
  };
}

function metadata(at: Date): EventMetadata {
  return {
    actor: { kind: 'system', id: null },
    correlationId: randomUUID(),
    causationId: null,
    occurredAt: at.toISOString(),
    schemaVersion: 1,
  };
}

/** A deterministic pseudo-random sequence, so a failing history can be reproduced from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

type Step = { type: EventType; data: Record<string, unknown> }[];

/**
 * Plausible histories for `tickets` tickets, with every event type, as appends (1 to 3 events each) in
 * an interleaved order across tickets. Returns the appends to run and the number of events in them.
 */
export function generateHistory(tickets: number, firstId: number, seed = 7): { stream: string; events: NewEvent[] }[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const perTicket: { stream: string; steps: Step[] }[] = [];
  const statuses = ['pending_payment', 'active', 'resolved', 'canceled'] as const;
  for (let n = 0; n < tickets; n++) {
    const ticketId = firstId + n;
    const steps: Step[] = [];
    steps.push([
      {
        type: 'TicketCreated',
        data: {
          ticketId,
          businessName: `${pick(['Capitol', 'Potomac', 'Beltway', 'Rock Creek'])} ${pick(['Dental', 'Law', 'Realty', 'Bakery'])} ${n}`,
          contactName: pick(['Maya Patel', "Dana O'Neil", 'Sam Lee', 'José Álvarez']),
          email: `owner${n}@example.com`,
          phone: '(703) 555-0100',
          address: next() < 0.5 ? null : `${n} Wilson Blvd, Arlington, VA`,
          serviceCategory: pick(['windows', 'networking', 'storage', 'cybersecurity']),
          issueDescription: `Problem number ${n}: <b>the printer</b> '; DROP TABLE tickets; --`,
          userId: next() < 0.3 ? 1 + Math.floor(next() * 50) : null,
          feeCents: 4900,
        },
      },
    ]);
    let status: (typeof statuses)[number] = 'pending_payment';
    const r = next();
    const paid = r < 0.6;
    if (paid) {
      steps.push([
        { type: 'TicketPaymentReceived', data: { ticketId, paymentIntentId: `pi_${n}`, amountCents: 4900, currency: 'usd' } },
        { type: 'TicketStatusChanged', data: { ticketId, from: status, to: 'active' } },
      ]);
      status = 'active';
    } else if (r < 0.8) {
      const kind = pick(['free_diagnostic', 'zero_cost'] as const);
      steps.push([
        {
          type: 'TicketFeeWaived',
          data: {
            ticketId,
            kind,
            notes: kind === 'zero_cost' ? 'Zero-cost diagnostic fee' : 'Free diagnostic service',
            paymentIntentId: kind === 'zero_cost' ? 'zero_cost_diagnostic' : null,
          },
        },
        { type: 'TicketStatusChanged', data: { ticketId, from: status, to: 'active' } },
      ]);
      status = 'active';
    }
    // Staff's first action on a paid or waived ticket carries TicketResponded along.
    let awaitingResponse = r < 0.8;
    const byStaff = (step: Step): Step => {
      if (!awaitingResponse) return step;
      awaitingResponse = false;
      return [...step, { type: 'TicketResponded', data: { ticketId } }];
    };
    const extra = 6 + Math.floor(next() * 6);
    for (let k = 0; k < extra; k++) {
      const kind = next();
      if (kind < 0.25) {
        const to = pick(statuses.filter((s) => s !== status));
        steps.push(byStaff([{ type: 'TicketStatusChanged', data: { ticketId, from: status, to } }]));
        status = to;
      } else if (kind < 0.45) {
        steps.push(
          byStaff([
            {
              type: 'TicketNotesUpdated',
              data: { ticketId, notes: `Visit ${k}: replaced ${pick(['the switch', 'a drive', 'the battery'])}` },
            },
          ]),
        );
      } else if (kind < 0.55) {
        steps.push([
          {
            type: 'TicketPaymentUpdated',
            data: {
              ticketId,
              stripePaymentIntentId: next() < 0.5 ? null : `pi_manual_${n}_${k}`,
              paymentStatus: pick(['pending', 'completed', 'refunded'] as const),
              paymentNotes: next() < 0.5 ? null : 'Adjusted by staff',
            },
          },
        ]);
      } else if (kind < 0.58 && paid) {
        steps.push([
          {
            type: 'TicketPaymentRefunded',
            data: {
              ticketId,
              paymentIntentId: next() < 0.5 ? null : `pi_${n}`,
              amountCents: 4900,
              currency: 'usd',
              reason: next() < 0.5 ? null : 'Out of scope',
            },
          },
        ]);
      } else if (kind < 0.6) {
        steps.push(byStaff([{ type: 'TicketEngineerAssigned', data: { ticketId, engineerId: pick([1, 2, 3, null]) } }]));
      } else if (kind < 0.62) {
        steps.push([{ type: 'TicketLinkedToCustomer', data: { ticketId, userId: 1 + Math.floor(next() * 50) } }]);
      } else if (kind < 0.7) {
        // The conversation: the customer writes (reopening a resolved ticket), or staff reply or note internally.
        const customer = next() < 0.5;
        const visibility = customer || next() < 0.6 ? 'public' : 'internal';
        const posted = {
          type: 'TicketMessagePosted' as const,
          data: {
            ticketId,
            messageId: randomUUID(),
            author: customer ? { kind: 'customer', id: null, name: 'Maya Patel' } : { kind: 'staff', id: '1', name: 'sam' },
            visibility,
            via: customer && next() < 0.3 ? 'email' : 'portal',
            body: `Message ${k} on ticket ${ticketId}: <i>is it fixed?</i>\nSecond line`,
            attachments:
              next() < 0.2
                ? [{ id: randomUUID(), filename: 'photo.png', contentType: 'image/png', sizeBytes: 2048, sha256: 'a'.repeat(64) }]
                : [],
          },
        };
        if (customer) {
          const reopens = status === 'resolved';
          steps.push(reopens ? [posted, { type: 'TicketStatusChanged', data: { ticketId, from: 'resolved', to: 'active' } }] : [posted]);
          if (reopens) status = 'active';
        } else {
          steps.push(visibility === 'public' ? byStaff([posted]) : [posted]);
        }
      } else {
        const failed = kind > 0.9;
        const notification = {
          notificationId: randomUUID(),
          idempotencyKey: randomUUID(),
          ticketId,
          userId: null,
          notificationType: pick(['ticket-created', 'payment-received', 'status-update', 'resolved'] as const),
          emailTo: `owner${n}@example.com`,
          subject: `Ticket PPR-2026-${ticketId}`,
          emailContent: `<p>Update ${k} for ticket ${ticketId}</p>`,
        };
        steps.push([
          failed
            ? { type: 'NotificationFailed', data: { ...notification, errorMessage: 'connect ECONNREFUSED' } }
            : { type: 'NotificationSent', data: notification },
        ]);
      }
    }
    perTicket.push({ stream: `ticket-${ticketId}`, steps });
  }
  // Interleave: take the next step of a random ticket until all are used.
  const appends: { stream: string; events: NewEvent[] }[] = [];
  const open = perTicket.map((t) => ({ ...t, at: 0 }));
  let clock = Date.UTC(2026, 0, 5, 14);
  while (open.length > 0) {
    const i = Math.floor(next() * open.length);
    const ticket = open[i]!;
    const step = ticket.steps[ticket.at++]!;
    clock += 1000;
    const stream = step[0]!.type.startsWith('Notification') ? `notifications-${ticket.stream}` : ticket.stream;
    appends.push({ stream, events: step.map((e) => ({ type: e.type, data: e.data, metadata: metadata(new Date(clock)) })) });
    if (ticket.at === ticket.steps.length) open.splice(i, 1);
  }
  return appends;
}

/**
 * Appends a generated history with 8 concurrent writers (a stream's appends stay in order). Returns the
 * number of events and the last position among them: what a runner must reach to have applied them all.
 * (Not `headPosition()` afterwards: on a shared server, a transaction of another test holds back what
 * readers may see, so the head can lag behind appends that have committed.)
 */
export async function appendHistory(
  store: EventStore,
  appends: { stream: string; events: NewEvent[] }[],
): Promise<{ events: number; last: Position }> {
  const revisions = new Map<string, number>();
  // Writers take appends in the interleaved order; a stream's next append waits for its previous one.
  const chains = new Map<string, Promise<void>>();
  let events = 0;
  let last = START;
  let index = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (index < appends.length) {
        const append = appends[index++]!;
        const previous = chains.get(append.stream) ?? Promise.resolve();
        const mine = previous.then(async () => {
          const result = await store.append(append.stream, append.events, revisions.get(append.stream) ?? 'no_stream');
          revisions.set(append.stream, result.nextExpectedRevision);
          if (comparePositions(result.position, last) > 0) last = result.position;
        });
        chains.set(append.stream, mine);
        await mine;
        events += append.events.length;
      }
    }),
  );
  return { events, last };
}

/** A digest of every row of the read tables (generated columns included). */
export async function digestReadTables(
  pool: Pool,
): Promise<{ tickets: string; notifications: string; ticketRows: number; notificationRows: number }> {
  const { rows } = await pool.query<{ tickets: string; notifications: string; ticket_rows: number; notification_rows: number }>(`
    SELECT (SELECT md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t.id), '')) FROM tickets t) AS tickets,
           (SELECT md5(coalesce(string_agg(n::text, E'\\n' ORDER BY n.id), '')) FROM email_notifications n) AS notifications,
           (SELECT count(*)::int FROM tickets) AS ticket_rows,
           (SELECT count(*)::int FROM email_notifications) AS notification_rows`);
  const row = rows[0]!;
  return { tickets: row.tickets, notifications: row.notifications, ticketRows: row.ticket_rows, notificationRows: row.notification_rows };
}

/**
 * A processing host running `projections` on `side`, as the app runs them (the advisory locks on PostgreSQL),
 * without the rest of the app; not started.
 */
export function projectionHost(
  side: ReadSide,
  projections: readonly AnyProjection[],
  options: Partial<Omit<ProcessingHostOptions, 'pool' | 'store' | 'locks'>> & { readonly batchSize?: number } = {},
): ProcessingHost {
  const logger = options.logger ?? { log: () => undefined, warn: () => undefined, error: () => undefined };
  const host = new ProcessingHost({
    ...options,
    pool: side.db.pool,
    store: side.store,
    logger,
    locks: side.lockUrl ? new AdvisoryProcessorLocks({ connectionString: side.lockUrl, logger }) : new InProcessLocks(),
  });
  for (const projection of projections)
    host.register(projectionProcessor(projection, { ...(options.batchSize ? { maxBatch: options.batchSize } : {}) }));
  return host;
}
