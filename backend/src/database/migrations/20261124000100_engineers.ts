import { type Kysely, sql } from 'kysely';

/** Engineers staff can put on tickets (SPEC section 3, engineers). Deactivated, never deleted: events name them. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE engineers (
      id serial PRIMARY KEY,
      name varchar(100) NOT NULL,
      email varchar(100) NOT NULL,
      specialty varchar(100),
      bio varchar(2000),
      is_active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX engineers_email_key ON engineers (lower(email))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS engineers`.execute(db);
}
