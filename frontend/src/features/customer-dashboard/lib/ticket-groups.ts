import type { TicketDetail } from '@ppr/contracts';

/** SPEC section 4: active = active + pending_payment; resolved = resolved + canceled. */
export function isActiveTicket(ticket: Pick<TicketDetail, 'status'>): boolean {
  return ticket.status === 'active' || ticket.status === 'pending_payment';
}

export function isResolvedTicket(ticket: Pick<TicketDetail, 'status'>): boolean {
  return ticket.status === 'resolved' || ticket.status === 'canceled';
}

export interface TicketCounts {
  readonly total: number;
  readonly active: number;
  readonly resolved: number;
}

export function countTickets(tickets: readonly Pick<TicketDetail, 'status'>[]): TicketCounts {
  return {
    total: tickets.length,
    active: tickets.filter(isActiveTicket).length,
    resolved: tickets.filter(isResolvedTicket).length,
  };
}

/** Case-insensitive match on what a customer would type: reference, id, category, description, business, status. */
export function matchesSearch(ticket: TicketDetail, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  return [
    ticket.reference,
    String(ticket.id),
    ticket.serviceCategory,
    ticket.issueDescription,
    ticket.businessName,
    ticket.contactName,
    ticket.status.replace('_', ' '),
  ].some((value) => value.toLowerCase().includes(needle));
}

/** Newest first. */
export function newestFirst<T extends TicketDetail>(tickets: readonly T[]): T[] {
  return [...tickets].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id);
}
