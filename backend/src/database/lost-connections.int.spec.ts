import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { loadConfig } from '../config/config';
import { openDatabase } from './database';

/**
 * The server ends an idle connection of the app's pool (a restart, a failover, an administrator's
 * pg_terminate_backend): the app goes on, and its next query opens another connection. Without a listener the
 * pool's 'error' event is thrown and kills the process (here: fails the test). Needs a real PostgreSQL, whose
 * backends another session can end.
 */
const url = process.env.DATABASE_URL;
const maybe = url ? describe : describe.skip;

maybe('a database connection lost while idle', () => {
  it('is logged and replaced, not a crash', async () => {
    const name = `lost_${randomUUID().slice(0, 8)}`;
    const db = await openDatabase(
      loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'fatal', DATA_DIR: 'memory', DATABASE_URL: url!, DATABASE_POOL_SIZE: '2' }),
    );
    const admin = new Client({ connectionString: url });
    await admin.connect();
    try {
      await db.pool.query(`SET application_name = '${name}'`);
      expect(db.pool.idleCount).toBeGreaterThan(0);
      const ended = await admin.query('SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = $1', [
        name,
      ]);
      expect(ended.rows).toEqual([{ ended: true }]);
      // The pool hears of it on the idle connection: give the socket's close time to arrive.
      for (let i = 0; i < 100 && db.pool.totalCount > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(db.pool.totalCount).toBe(0);
      await expect(db.pool.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
    } finally {
      await admin.end();
      await db.close();
    }
  });

  it('in use (a transaction, a long query) fails its query, and the app goes on', async () => {
    const name = `lost_busy_${randomUUID().slice(0, 8)}`;
    const db = await openDatabase(
      loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'fatal', DATA_DIR: 'memory', DATABASE_URL: url!, DATABASE_POOL_SIZE: '2' }),
    );
    const admin = new Client({ connectionString: url });
    await admin.connect();
    try {
      const client = await db.pool.connect();
      await client.query(`SET application_name = '${name}'`);
      const sleeping = client.query('SELECT pg_sleep(30)');
      // Wait until the query runs, then end its connection from another session.
      let ended: unknown[] = [];
      for (let i = 0; i < 100 && ended.length === 0; i++) {
        ended = (
          await admin.query(
            "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = $1 AND state = 'active'",
            [name],
          )
        ).rows;
        if (ended.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(ended).toEqual([{ ended: true }]);
      await expect(sleeping).rejects.toThrow();
      // The error event of the checked-out connection comes after its query failed: give it time to arrive.
      await new Promise((resolve) => setTimeout(resolve, 200));
      client.release(true);
      await expect(db.pool.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
    } finally {
      await admin.end();
      await db.close();
    }
  });
});
