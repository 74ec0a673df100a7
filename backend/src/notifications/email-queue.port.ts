import type { Pool, PoolClient } from 'pg';

/** An email the app sends of its own accord, not planned from a ticket's events: a contact message's staff alert. */
export interface QueuedEmail {
  /** Its idempotency key: one email per key, ever (a repeated enqueue of the same key adds nothing). */
  readonly key: string;
  readonly kind: string;
  readonly to: string;
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  readonly replyTo?: string;
  readonly userId?: number | null;
}

/**
 * The way into the email outbox for emails that follow a write of the caller's rather than an event (token
 * EMAIL_QUEUE): the jobs are inserted in the caller's transaction, so the email exists exactly when what caused
 * it committed; a crash after the commit loses nothing (another process sends it once the claim is free).
 */
export interface EmailQueuePort {
  /** Inserts the emails' jobs on `db` (the caller's transaction); answers what to call once it committed. */
  enqueue(db: PoolClient | Pool, emails: readonly QueuedEmail[]): Promise<() => void>;
}
