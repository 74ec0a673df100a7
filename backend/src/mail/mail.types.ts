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
