import {
  BadRequestException,
  ConflictException,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  adminMessages,
  type AdminRefundResult,
  type AdminTicket,
  type AdminTicketList,
  type AdminTicketListQuery,
  type ApiError,
  paymentMessages,
  type TicketHistory,
  ticketNotificationsStreamId,
  ticketStreamId,
  TICKET_NOT_FOUND,
} from '@ppr/contracts';
import type { ReadDatabase } from '@ppr/projections';
import type { Kysely } from 'kysely';
import type { Request } from 'express';
import type { Clock } from '../common/clock';
import { CLOCK } from '../common/common.tokens';
import { requestContext } from '../common/request-context';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import type { EventStore, Position } from '../event-store/event-store.port';
import { EVENT_STORE } from '../event-store/event-store.tokens';
import { PaymentGatewayRequestError, PaymentGatewayUnavailableError } from '../payments/payment-gateway.port';
import { TicketPaymentsService } from '../payments/ticket-payments.service';
import { READ_DB } from '../projections/projections.tokens';
import { ReadYourWrites } from '../projections/read-your-writes';
import { unreadCounts } from '../conversation/message-reads';
import { HandleTicketCommand } from '../tickets/commands/handle-ticket.command';
import { adminUsernames } from './admin-users.repository';
import type { AdminPrincipal } from './admin.types';
import { engineerNames, findEngineer } from './engineers.repository';
import { actorAdminIds, engineerIds, ticketHistory, timeline } from './history/ticket-history';
import { findAdminTicketRow, listAdminTicketRows, toAdminTicket } from './queries/admin-tickets.read-model';
import { TicketCountCache } from './queries/ticket-count-cache';
import { TicketIdListCache } from './queries/ticket-id-list-cache';

/** A command on an existing ticket, as the tickets module takes it. */
type TicketCommand = ConstructorParameters<typeof HandleTicketCommand>[1];

function nameOf(engineerId: number | null, names: ReadonlyMap<number, string>): string | null {
  return engineerId === null ? null : (names.get(engineerId) ?? null);
}

/**
 * The admin's ticket screens: the list and one ticket from the read table, every command through the one
 * ticket command path (CommandBus → HandleTicketCommand) with the admin as actor, answering once the read
 * table shows the change, and the audit history from the event store.
 */
@Injectable()
export class AdminTicketsService {
  private readonly logger = new Logger(AdminTicketsService.name);
  private readonly counts: TicketCountCache;
  private readonly idLists: TicketIdListCache;

  constructor(
    private readonly commands: CommandBus,
    private readonly readYourWrites: ReadYourWrites,
    private readonly payments: TicketPaymentsService,
    @Inject(READ_DB) private readonly readDb: Kysely<ReadDatabase>,
    @Inject(DATABASE) private readonly db: Database,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.counts = new TicketCountCache(readDb);
    this.idLists = new TicketIdListCache(readDb);
  }

  /** One page of the list. "Now" comes from the injected clock: the response filters and states depend on it. */
  async list(query: AdminTicketListQuery): Promise<AdminTicketList> {
    const now = this.clock.now();
    const { rows, total } = await listAdminTicketRows(this.readDb, query, now, this.counts, this.idLists);
    const assigned = [...new Set(rows.flatMap((row) => (row.engineer_id === null ? [] : [row.engineer_id])))];
    const [names, unread] = await Promise.all([
      engineerNames(this.db.pool, assigned),
      unreadCounts(
        this.db.pool,
        'staff',
        rows.map((row) => row.id),
      ),
    ]);
    return {
      tickets: rows.map((row) => toAdminTicket(row, nameOf(row.engineer_id, names), now, unread.get(row.id) ?? 0)),
      total,
    };
  }

  async ticket(ticketId: number): Promise<AdminTicket> {
    const row = await findAdminTicketRow(this.readDb, ticketId);
    if (!row) throw new NotFoundException({ message: TICKET_NOT_FOUND } satisfies ApiError);
    const [names, unread] = await Promise.all([
      engineerNames(this.db.pool, row.engineer_id === null ? [] : [row.engineer_id]),
      unreadCounts(this.db.pool, 'staff', [row.id]),
    ]);
    return toAdminTicket(row, nameOf(row.engineer_id, names), this.clock.now(), unread.get(row.id) ?? 0);
  }

  /** Runs a command as this admin; answers the ticket once the read table has applied what was appended. */
  async run(ticketId: number, command: TicketCommand, admin: AdminPrincipal, request: Request): Promise<AdminTicket> {
    const context = requestContext(request, { kind: 'admin', id: String(admin.id) });
    const result = await this.commands.execute(new HandleTicketCommand(ticketId, command, context));
    // A command that changed nothing (the same one sent twice at once) waits for the change it found.
    await this.waitFor(result.current);
    return this.ticket(ticketId);
  }

  private waitFor(position: Position | null): Promise<void> {
    return this.readYourWrites.waitFor(['tickets'], position);
  }

  /**
   * Puts an engineer on the ticket (or takes them off with null). The engineer must exist (else 400) and be
   * active (else 409); the ticket's own rules are the decider's.
   */
  async assign(ticketId: number, engineerId: number | null, admin: AdminPrincipal, request: Request): Promise<AdminTicket> {
    if (engineerId !== null) {
      const engineer = await findEngineer(this.db.pool, engineerId);
      if (!engineer) {
        throw new BadRequestException({
          message: adminMessages.engineerNotFound,
          errors: [{ path: 'engineerId', message: adminMessages.engineerNotFound }],
        } satisfies ApiError);
      }
      if (!engineer.isActive) throw new ConflictException({ message: adminMessages.engineerInactive } satisfies ApiError);
    }
    return this.run(ticketId, { type: 'AssignEngineer', data: { engineerId } }, admin, request);
  }

  /**
   * A full refund through the payment gateway (TicketPaymentsService): recorded on the ticket when the
   * gateway confirms it, otherwise by its webhook later ('pending'). The gateway down is a 503 with the
   * spec's message; nothing is written then.
   */
  async refund(ticketId: number, reason: string | null, admin: AdminPrincipal, request: Request): Promise<AdminRefundResult> {
    const context = requestContext(request, { kind: 'admin', id: String(admin.id) });
    try {
      const { status, position } = await this.payments.refundTicket(ticketId, reason, context);
      await this.waitFor(position);
      return { refundStatus: status, ticket: await this.ticket(ticketId) };
    } catch (error) {
      if (error instanceof PaymentGatewayUnavailableError || error instanceof PaymentGatewayRequestError) {
        this.logger.error(`Refund of ticket ${ticketId} failed at the payment gateway: ${error.message}`);
        throw new HttpException({ message: paymentMessages.unavailable } satisfies ApiError, HttpStatus.SERVICE_UNAVAILABLE, {
          cause: error,
        });
      }
      throw error;
    }
  }

  /** The ticket's stream and its email outcomes' stream, merged by time (`timeline`), with what each changed. */
  async history(ticketId: number): Promise<TicketHistory> {
    const [ticketEvents, emailEvents] = await Promise.all([
      this.store.readStream(ticketStreamId(ticketId)),
      this.store.readStream(ticketNotificationsStreamId(ticketId)),
    ]);
    if (ticketEvents.length === 0) throw new NotFoundException({ message: TICKET_NOT_FOUND } satisfies ApiError);
    const events = timeline(ticketEvents, emailEvents);
    const [admins, engineers] = await Promise.all([
      adminUsernames(this.db.pool, actorAdminIds(events)),
      engineerNames(this.db.pool, engineerIds(events)),
    ]);
    return { ticketId, entries: ticketHistory(events, { admins, engineers }) };
  }
}
