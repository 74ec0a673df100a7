import { type Kysely, sql } from 'kysely';

/**
 * One checkpoint table for every processor (docs/architecture.md, "Processing"): the projections' table becomes
 * `processor_checkpoints`, with `generation`, the fencing token of the processor's lock (raised at every take;
 * every move of the checkpoint names it). The reactors' checkpoints of before (the ticket-email saga's in
 * `notification_checkpoints`, the webhook outbox's in `webhook_outbox_checkpoint`) move into it under the names
 * their processors have now, and those tables go.
 *
 * The old tables are looked for in this migration's own schema only (current_schema()): a replay builds its
 * fresh read tables in a schema of its own with `public` on its search path, and must never see, copy or drop
 * another schema's tables.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE projection_checkpoints RENAME TO processor_checkpoints`.execute(db);
  await sql`ALTER TABLE processor_checkpoints ADD COLUMN generation bigint NOT NULL DEFAULT 0`.execute(db);
  await sql`
    DO $$
    BEGIN
      IF to_regclass(format('%I.notification_checkpoints', current_schema())) IS NOT NULL THEN
        INSERT INTO processor_checkpoints (name, position_commit, position_prepare)
        SELECT name, split_part(position, '/', 1)::bigint, split_part(position, '/', 2)::bigint FROM notification_checkpoints
        ON CONFLICT (name) DO NOTHING;
        DROP TABLE notification_checkpoints;
      END IF;
      IF to_regclass(format('%I.webhook_outbox_checkpoint', current_schema())) IS NOT NULL THEN
        INSERT INTO processor_checkpoints (name, position_commit, position_prepare)
        SELECT 'webhook-outbox', split_part(position, '/', 1)::bigint, split_part(position, '/', 2)::bigint
          FROM webhook_outbox_checkpoint
        ON CONFLICT (name) DO NOTHING;
        DROP TABLE webhook_outbox_checkpoint;
      END IF;
    END
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE processor_checkpoints DROP COLUMN generation`.execute(db);
  await sql`ALTER TABLE processor_checkpoints RENAME TO projection_checkpoints`.execute(db);
}
