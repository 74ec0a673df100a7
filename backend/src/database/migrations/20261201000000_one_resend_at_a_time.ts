import { type Kysely, sql } from 'kysely';

/**
 * One resend of an email under way at a time, across every instance of the app: an admin's resend is a job
 * whose key is `resend:{uuid}:{the original email's key}`, pending while its attempt runs (and, if its app
 * stopped, until the worker has taken it over and made its one attempt). Parallel resends in one process share
 * one attempt; this index makes a second instance's resend of the same email fail its insert instead of sending
 * it again.
 * Pending resends of one email that are already there (only possible before this index) are left to the worker
 * but the oldest: the others are marked failed, as duplicates, so that the index can be built.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    UPDATE notification_jobs AS j SET status = 'failed', last_error = 'A resend of the same email was already pending'
     WHERE j.status = 'pending' AND j.idempotency_key LIKE 'resend:%'
       AND EXISTS (
         SELECT 1 FROM notification_jobs AS o
          WHERE o.status = 'pending' AND o.idempotency_key LIKE 'resend:%'
            AND regexp_replace(o.idempotency_key, '^resend:[^:]+:', '') = regexp_replace(j.idempotency_key, '^resend:[^:]+:', '')
            AND (o.created_at, o.idempotency_key) < (j.created_at, j.idempotency_key))`.execute(db);
  await sql`
    CREATE UNIQUE INDEX notification_jobs_one_resend ON notification_jobs ((regexp_replace(idempotency_key, '^resend:[^:]+:', '')))
     WHERE status = 'pending' AND idempotency_key LIKE 'resend:%'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS notification_jobs_one_resend`.execute(db);
}
