import { type Kysely, sql } from 'kysely';

// Migrations never import app code: the payment display rule is spelled out here (SPEC section 4).
const PAYMENT_DISPLAY = sql`CASE
    WHEN stripe_payment_intent_id = 'zero_cost_diagnostic'
      OR (payment_status = 'completed' AND payment_notes = 'Zero-cost diagnostic fee') THEN '$0 Diagnostic'
    WHEN stripe_payment_intent_id IS NOT NULL THEN 'Paid'
    WHEN payment_status = 'completed' AND payment_notes = 'Free diagnostic service' THEN 'Free Diagnostic'
    ELSE 'Not Paid'
  END`;

export async function up(db: Kysely<any>): Promise<void> {
  // Trigram indexes serve the admin's substring search. The extension lives in public so that several
  // schemas (replays, tests) share it; creating it is serialized because CREATE EXTENSION races itself.
  await sql`SELECT pg_advisory_xact_lock(7262002)`.execute(db);
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`.execute(db);

  await db.schema
    .createTable('tickets')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('business_name', 'text', (c) => c.notNull())
    .addColumn('contact_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('service_category', 'text', (c) => c.notNull())
    .addColumn('issue_description', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('payment_status', 'text', (c) => c.notNull())
    .addColumn('stripe_payment_intent_id', 'text')
    .addColumn('payment_notes', 'text')
    .addColumn('fee_waiver', 'text')
    .addColumn('admin_notes', 'text')
    .addColumn('user_id', 'integer')
    .addColumn('engineer_id', 'integer')
    .addColumn('tawk_to_ticket_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_updated', 'timestamptz', (c) => c.notNull())
    .addColumn('payment_display', 'text', (c) => c.notNull().generatedAlwaysAs(PAYMENT_DISPLAY).stored())
    .addColumn('search_text', 'text', (c) =>
      c
        .notNull()
        .generatedAlwaysAs(sql`lower(business_name || ' ' || contact_name || ' ' || email || ' ' || reference)`)
        .stored(),
    )
    .execute();

  await db.schema.createIndex('tickets_created_at_idx').on('tickets').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('tickets_status_created_at_idx').on('tickets').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('tickets_business_name_idx').on('tickets').columns(['business_name', 'id']).execute();
  await db.schema.createIndex('tickets_contact_name_idx').on('tickets').columns(['contact_name', 'id']).execute();
  await db.schema.createIndex('tickets_user_id_idx').on('tickets').columns(['user_id', 'created_at']).execute();
  await sql`CREATE INDEX tickets_guest_email_idx ON tickets (lower(email)) WHERE user_id IS NULL`.execute(db);
  await sql`CREATE INDEX tickets_search_idx ON tickets USING gin (search_text public.gin_trgm_ops)`.execute(db);

  await db.schema
    .createTable('email_notifications')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('ticket_id', 'integer')
    .addColumn('user_id', 'integer')
    .addColumn('email_to', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('notification_type', 'text', (c) => c.notNull())
    .addColumn('email_content', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull())
    .addColumn('success', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('error_message', 'text')
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_notifications_ticket_idx').on('email_notifications').columns(['ticket_id', 'sent_at']).execute();
  await db.schema.createIndex('email_notifications_sent_at_idx').on('email_notifications').column('sent_at').execute();

  await db.schema
    .createTable('projection_checkpoints')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('position_commit', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('position_prepare', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('running'))
    .addColumn('error', 'text')
    .addColumn('error_event_id', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('projection_checkpoints').execute();
  await db.schema.dropTable('email_notifications').execute();
  await db.schema.dropTable('tickets').execute();
}
