import { type Kysely, sql } from 'kysely';

/**
 * Customer accounts (SPEC section 3, users), the session store, login/form rate-limit counters and the
 * secrets the application keeps for itself. Tokens are stored as SHA-256 hashes, never as sent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE users (
      id serial PRIMARY KEY,
      username varchar(50) NOT NULL,
      email varchar(100) NOT NULL,
      password_hash text NOT NULL,
      business_name varchar(200),
      phone varchar(30),
      address varchar(300),
      role text NOT NULL DEFAULT 'customer',
      is_verified boolean NOT NULL DEFAULT false,
      verification_token text,
      verification_token_expiry timestamptz,
      reset_password_token text,
      reset_password_token_expiry timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_login timestamptz
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX users_username_key ON users (lower(username))`.execute(db);
  await sql`CREATE UNIQUE INDEX users_email_key ON users (lower(email))`.execute(db);
  await sql`CREATE UNIQUE INDEX users_verification_token_key ON users (verification_token)`.execute(db);
  await sql`CREATE UNIQUE INDEX users_reset_password_token_key ON users (reset_password_token)`.execute(db);

  await sql`
    CREATE TABLE sessions (
      sid text PRIMARY KEY,
      sess jsonb NOT NULL,
      expires_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX sessions_expires_at ON sessions (expires_at)`.execute(db);
  await sql`CREATE INDEX sessions_user ON sessions ((sess -> 'passport' ->> 'user'))`.execute(db);

  await sql`
    CREATE TABLE rate_limits (
      key text PRIMARY KEY,
      window_start timestamptz NOT NULL,
      hits integer NOT NULL
    )`.execute(db);

  await sql`
    CREATE TABLE app_secrets (
      name text PRIMARY KEY,
      value text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS app_secrets`.execute(db);
  await sql`DROP TABLE IF EXISTS rate_limits`.execute(db);
  await sql`DROP TABLE IF EXISTS sessions`.execute(db);
  await sql`DROP TABLE IF EXISTS users`.execute(db);
}
