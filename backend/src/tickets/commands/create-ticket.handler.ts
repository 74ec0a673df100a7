import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DIAGNOSTIC_FEE_CENTS } from '@ppr/contracts';
import type { Pool } from 'pg';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import type { Database } from '../../database/database';
import { DATABASE } from '../../database/database.module';
import { TicketRepository } from '../ticket-repository';
import { CreateTicketCommand, type CreatedTicketResult } from './create-ticket.command';

/** The fee waiver rule: configured emails or contact names get a free diagnostic. */
export function feeIsWaived(config: Pick<AppConfig, 'FEE_WAIVER_EMAILS' | 'FEE_WAIVER_NAMES'>, email: string, contactName: string): boolean {
  return (
    config.FEE_WAIVER_EMAILS.includes(email.trim().toLowerCase()) ||
    config.FEE_WAIVER_NAMES.includes(contactName.trim().toLowerCase())
  );
}

async function nextTicketId(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ id: number }>(`SELECT nextval('ticket_id_seq') AS id`);
  return rows[0]!.id;
}

@CommandHandler(CreateTicketCommand)
export class CreateTicketHandler implements ICommandHandler<CreateTicketCommand, CreatedTicketResult> {
  constructor(
    private readonly tickets: TicketRepository,
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ request, userId, context }: CreateTicketCommand): Promise<CreatedTicketResult> {
    const ticketId = await nextTicketId(this.db.pool);
    const result = await this.tickets.execute(
      ticketId,
      {
        type: 'CreateTicket',
        data: {
          ticketId,
          businessName: request.businessName,
          contactName: request.contactName,
          email: request.email,
          phone: request.phone,
          address: request.address ? request.address : null,
          serviceCategory: request.serviceCategory,
          issueDescription: request.issueDescription,
          userId,
          feeCents: DIAGNOSTIC_FEE_CENTS,
          waiveFee: feeIsWaived(this.config, request.email, request.contactName),
        },
      },
      context,
      new Date(),
    );
    return { ...result, ticketId };
  }
}
