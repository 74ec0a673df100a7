import { type Kysely, sql } from 'kysely';

/**
 * Admin accounts (SPEC section 3, admin_users). `created_by` is the admin who added the account, NULL for
 * the account made by the one-time setup; the partial unique index allows one such row, so the database
 * itself makes the first setup succeed exactly once, however many requests race for it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE admin_users (
      id serial PRIMARY KEY,
      username varchar(50) NOT NULL,
      email varchar(100) NOT NULL,
      password_hash text NOT NULL,
      role text NOT NULL DEFAULT 'admin',
      created_by integer REFERENCES admin_users (id),
      created_at timestamptz NOT NULL DEFAULT now(),
      last_login timestamptz
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX admin_users_username_key ON admin_users (lower(username))`.execute(db);
  await sql`CREATE UNIQUE INDEX admin_users_email_key ON admin_users (lower(email))`.execute(db);
  await sql`CREATE UNIQUE INDEX admin_users_one_setup ON admin_users ((true)) WHERE created_by IS NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS admin_users`.execute(db);
}
