import { type Kysely, type RawBuilder, sql } from 'kysely';

// Migrations never import app code: both versions of the payment display rule are spelled out here, so
// this file keeps meaning what it meant when it ran (SPEC section 4, plus refunds).
const WITHOUT_REFUNDED = sql`CASE
    WHEN stripe_payment_intent_id = 'zero_cost_diagnostic'
      OR (payment_status = 'completed' AND payment_notes = 'Zero-cost diagnostic fee') THEN '$0 Diagnostic'
    WHEN stripe_payment_intent_id IS NOT NULL THEN 'Paid'
    WHEN payment_status = 'completed' AND payment_notes = 'Free diagnostic service' THEN 'Free Diagnostic'
    ELSE 'Not Paid'
  END`;

// A refunded fee shows as such whatever else the row says: a refund keeps the payment intent id, which
// would otherwise read as 'Paid'.
const WITH_REFUNDED = sql`CASE
    WHEN payment_status = 'refunded' THEN 'Refunded'
    WHEN stripe_payment_intent_id = 'zero_cost_diagnostic'
      OR (payment_status = 'completed' AND payment_notes = 'Zero-cost diagnostic fee') THEN '$0 Diagnostic'
    WHEN stripe_payment_intent_id IS NOT NULL THEN 'Paid'
    WHEN payment_status = 'completed' AND payment_notes = 'Free diagnostic service' THEN 'Free Diagnostic'
    ELSE 'Not Paid'
  END`;

/**
 * PostgreSQL 15 cannot change a generated column's expression in place (SET EXPRESSION came with 17), so
 * the column is dropped and added again; PostgreSQL computes it for every existing row.
 */
async function replacePaymentDisplay(db: Kysely<any>, expression: RawBuilder<unknown>): Promise<void> {
  await db.schema.alterTable('tickets').dropColumn('payment_display').execute();
  await db.schema
    .alterTable('tickets')
    .addColumn('payment_display', 'text', (c) => c.notNull().generatedAlwaysAs(expression).stored())
    .execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  await replacePaymentDisplay(db, WITH_REFUNDED);
}

export async function down(db: Kysely<any>): Promise<void> {
  await replacePaymentDisplay(db, WITHOUT_REFUNDED);
}
