import { Body, Controller, Get, HttpCode, NotFoundException, Param, Patch, Post, Query, Req, UseGuards } from '@nestjs/common';
import {
  type AdminAssign,
  adminAssignSchema,
  type AdminNotesUpdate,
  adminNotesSchema,
  type AdminPaymentUpdate,
  adminPaymentSchema,
  type AdminRefund,
  type AdminRefundResult,
  adminRefundSchema,
  type AdminStatusUpdate,
  adminStatusSchema,
  type AdminTicket,
  type AdminTicketList,
  type AdminTicketListQuery,
  adminTicketListQuerySchema,
  type AdminWaiveFee,
  adminWaiveFeeSchema,
  type ApiError,
  type TicketHistory,
  ticketIdParamSchema,
  TICKET_NOT_FOUND,
} from '@ppr/contracts';
import type { Request } from 'express';
import { OptionalZodBodyPipe, ZodBodyPipe } from '../common/zod-validation.pipe';
import { AdminTicketsService } from './admin-tickets.service';
import { AdminGuard, requireAdmin } from './admin.guard';
import { ZodQueryPipe } from '../common/zod-query.pipe';

/** A ticket id from a path: anything that is not a ticket number is the same 404 as an unknown ticket. */
function ticketId(raw: string): number {
  const parsed = ticketIdParamSchema.safeParse(raw);
  if (!parsed.success) throw new NotFoundException({ message: TICKET_NOT_FOUND } satisfies ApiError);
  return parsed.data;
}

/**
 * The admin's ticket endpoints (SPEC section 7) and what a back office needs besides: one ticket, the
 * free-diagnostic marking, refunds, engineers, the audit history. Each command answers the ticket as the
 * list now shows it; a command the ticket's rules refuse is a 409 (the exception filter's table).
 */
@Controller('admin/tickets')
@UseGuards(AdminGuard)
export class AdminTicketsController {
  constructor(private readonly tickets: AdminTicketsService) {}

  @Get()
  list(@Query(new ZodQueryPipe(adminTicketListQuerySchema)) query: AdminTicketListQuery): Promise<AdminTicketList> {
    return this.tickets.list(query);
  }

  @Get(':id')
  get(@Param('id') id: string): Promise<AdminTicket> {
    return this.tickets.ticket(ticketId(id));
  }

  @Get(':id/history')
  history(@Param('id') id: string): Promise<TicketHistory> {
    return this.tickets.history(ticketId(id));
  }

  @Patch(':id/status')
  status(
    @Param('id') id: string,
    @Body(new ZodBodyPipe(adminStatusSchema)) body: AdminStatusUpdate,
    @Req() request: Request,
  ): Promise<AdminTicket> {
    return this.tickets.run(ticketId(id), { type: 'ChangeStatus', data: { status: body.status } }, requireAdmin(request), request);
  }

  @Post(':id/mark-zero-cost')
  @HttpCode(200)
  markZeroCost(
    @Param('id') id: string,
    @Body(new OptionalZodBodyPipe(adminWaiveFeeSchema)) body: AdminWaiveFee,
    @Req() request: Request,
  ): Promise<AdminTicket> {
    const command = { type: 'WaiveFee', data: { kind: 'zero_cost', notes: body.paymentNotes ?? null } } as const;
    return this.tickets.run(ticketId(id), command, requireAdmin(request), request);
  }

  @Post(':id/mark-free-diagnostic')
  @HttpCode(200)
  markFreeDiagnostic(
    @Param('id') id: string,
    @Body(new OptionalZodBodyPipe(adminWaiveFeeSchema)) body: AdminWaiveFee,
    @Req() request: Request,
  ): Promise<AdminTicket> {
    const command = { type: 'WaiveFee', data: { kind: 'free_diagnostic', notes: body.paymentNotes ?? null } } as const;
    return this.tickets.run(ticketId(id), command, requireAdmin(request), request);
  }

  @Patch(':id/payment')
  payment(
    @Param('id') id: string,
    @Body(new ZodBodyPipe(adminPaymentSchema)) body: AdminPaymentUpdate,
    @Req() request: Request,
  ): Promise<AdminTicket> {
    return this.tickets.run(ticketId(id), { type: 'UpdatePayment', data: body }, requireAdmin(request), request);
  }

  @Patch(':id/notes')
  notes(
    @Param('id') id: string,
    @Body(new ZodBodyPipe(adminNotesSchema)) body: AdminNotesUpdate,
    @Req() request: Request,
  ): Promise<AdminTicket> {
    return this.tickets.run(ticketId(id), { type: 'UpdateNotes', data: { notes: body.notes } }, requireAdmin(request), request);
  }

  @Post(':id/assign')
  @HttpCode(200)
  assign(
    @Param('id') id: string,
    @Body(new ZodBodyPipe(adminAssignSchema)) body: AdminAssign,
    @Req() request: Request,
  ): Promise<AdminTicket> {
    return this.tickets.assign(ticketId(id), body.engineerId, requireAdmin(request), request);
  }

  @Post(':id/refund')
  @HttpCode(200)
  refund(
    @Param('id') id: string,
    @Body(new OptionalZodBodyPipe(adminRefundSchema)) body: AdminRefund,
    @Req() request: Request,
  ): Promise<AdminRefundResult> {
    return this.tickets.refund(ticketId(id), body.reason ?? null, requireAdmin(request), request);
  }
}
