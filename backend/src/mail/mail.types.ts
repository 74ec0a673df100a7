/** One email to send. Every message is recorded in the mail log with its outcome. */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
  /** What the message is, for the log: 'account-verification', 'password-reset', 'ticket-created', ... */
  readonly kind: string;
  /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * When set, a message with this key that was already delivered (or recorded) is not sent again: lets an
   * at-least-once caller (a saga) retry safely, e.g. with `${eventId}:${kind}`.
   */
  readonly idempotencyKey?: string;
  /**
   * The Message-ID header (with or without angle brackets). A caller that may repeat a send (a saga after a
   * crash) sets a stable one, so a repeated message is recognisably the same one. Generated when absent.
   */
  readonly messageId?: string;
  /**
   * For a keyed message whose only sender is the caller (a single-active saga): a row still 'pending' under
   * the key is an attempt that was interrupted (the process stopped mid-send), so it is tried again instead
   * of being answered as a duplicate. Other callers leave it unset: a pending row may be another's send in flight.
   */
  readonly resumeInterrupted?: boolean;
}

export type MailOutcome =
  | { readonly status: 'sent'; readonly id: number; readonly messageId: string | null }
  | { readonly status: 'logged'; readonly id: number }
  | { readonly status: 'failed'; readonly id: number; readonly error: string }
  | { readonly status: 'duplicate'; readonly id: number };

/** Where messages go: SMTP when configured, otherwise nowhere but the log. */
export interface MailTransport {
  readonly name: 'smtp' | 'log';
  deliver(from: string, message: MailMessage): Promise<{ messageId: string | null }>;
  verify(): Promise<void>;
  close(): void;
}
