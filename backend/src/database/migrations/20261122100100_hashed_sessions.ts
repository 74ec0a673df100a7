import { type Kysely, sql } from 'kysely';

/**
 * Sessions are stored under SHA-256 of their id (never the id a cookie carries) and remember when they were
 * created (for the absolute lifetime, SESSION_ABSOLUTE_HOURS). Existing rows hold raw ids and cannot be
 * converted without keeping them readable, so they are dropped: everyone logs in again once. The generated
 * cookie-signing secret leaves the database (it now lives in DATA_DIR/session-secret): a reader of this
 * database must not be able to sign a cookie.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE sessions`.execute(db);
  await sql`
    CREATE TABLE sessions (
      sid_hash bytea PRIMARY KEY CHECK (octet_length(sid_hash) = 32),
      sess jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX sessions_expires_at ON sessions (expires_at)`.execute(db);
  await sql`CREATE INDEX sessions_user ON sessions ((sess -> 'passport' ->> 'user'))`.execute(db);
  await sql`DELETE FROM app_secrets WHERE name = 'session'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The hashed rows cannot be turned back into ids: the old table comes back empty.
  await sql`DROP TABLE sessions`.execute(db);
  await sql`
    CREATE TABLE sessions (
      sid text PRIMARY KEY,
      sess jsonb NOT NULL,
      expires_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX sessions_expires_at ON sessions (expires_at)`.execute(db);
  await sql`CREATE INDEX sessions_user ON sessions ((sess -> 'passport' ->> 'user'))`.execute(db);
}
