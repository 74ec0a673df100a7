import { type Kysely, sql } from 'kysely';

/**
 * An email address belongs to the account that verified it, not to the first one that typed it. Until now
 * `users.email` was unique among all accounts, so registering with an address that already had an account
 * could not create one, and logging in afterwards told the registrant whether the address had an account.
 * Now any number of unverified accounts may carry an address (each must still prove, to verify, that the
 * address owner registered it), and the database keeps at most one verified account per address.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX users_email_key`.execute(db);
  await sql`CREATE UNIQUE INDEX users_verified_email_key ON users (lower(email)) WHERE is_verified`.execute(db);
  await sql`CREATE INDEX users_email ON users (lower(email))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Fails while two accounts share an address: which one to keep is a decision, not a migration.
  await sql`DROP INDEX users_email`.execute(db);
  await sql`DROP INDEX users_verified_email_key`.execute(db);
  await sql`CREATE UNIQUE INDEX users_email_key ON users (lower(email))`.execute(db);
}
