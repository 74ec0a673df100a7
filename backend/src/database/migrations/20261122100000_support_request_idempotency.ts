import { type Kysely, sql } from 'kysely';

/**
 * Idempotency keys of POST /api/support-request: a key (hashed with its scope) maps to the ticket id that was
 * allocated for it, with a hash of the request it came with. Rows expire (`expires_at`) and are deleted
 * opportunistically by later submissions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE support_request_idempotency (
      key_hash text PRIMARY KEY,
      request_hash text NOT NULL,
      ticket_id bigint NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX support_request_idempotency_expires_at ON support_request_idempotency (expires_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS support_request_idempotency`.execute(db);
}
