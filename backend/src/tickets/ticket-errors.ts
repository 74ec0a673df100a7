/*
 * The errors of the tickets module that callers may see. They sit at the module's top level so the API's
 * exception filter (a composition root) can map each to an HTTP status without reaching into domain/.
 */

export type TicketErrorCode =
  | 'ticket_not_found'
  | 'ticket_already_exists'
  | 'fee_already_paid'
  | 'fee_waived'
  | 'fee_refunded'
  | 'nothing_to_refund'
  | 'already_refunded'
  | 'ticket_closed'
  | 'payment_intent_mismatch'
  | 'payment_amount_mismatch'
  | 'linked_to_another_customer'
  | 'invalid_message';

/** A command that makes no sense for the ticket as it is. The API maps each code to a status in one table. */
export class TicketDomainError extends Error {
  override readonly name = 'TicketDomainError';
  constructor(
    readonly code: TicketErrorCode,
    message: string,
  ) {
    super(message);
  }
}
