/** Overrides the command handler's `RetryPolicy` (tests); the default applies otherwise. */
export const TICKET_RETRY_POLICY = Symbol('TICKET_RETRY_POLICY');
