import type { Pool, PoolClient } from 'pg';

function isPoolClient(db: Pool | PoolClient): db is PoolClient {
  return 'release' in db;
}

/**
 * Runs `work` in one transaction: BEGIN, then COMMIT when it resolves, ROLLBACK when it throws (the error
 * is rethrown). Given a pool, it takes a client for the transaction and gives it back afterwards; given a
 * client, it uses that one and leaves it to its owner.
 *
 * A client whose ROLLBACK failed is in an unknown state (the connection may be gone, or a transaction may
 * still be open on it), so it is handed back to the pool as broken, which closes it instead of reusing it.
 */
export async function inTransaction<T>(db: Pool | PoolClient, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const owned = !isPoolClient(db);
  const client = isPoolClient(db) ? db : await db.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: unknown) => {
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    });
    throw error;
  } finally {
    if (owned) client.release(broken);
  }
}
