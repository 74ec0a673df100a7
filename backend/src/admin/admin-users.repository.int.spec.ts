import { openReadSide, type ReadSide } from '../../test/read-side';
import { anyAdminExists, insertAdmin, insertFirstAdmin } from './admin-users.repository';

/** The database alone keeps the setup to one admin: no guard, no lock in the application. */
describe('admin_users: the first admin, exactly once, by the database itself', () => {
  let side: ReadSide;

  beforeAll(async () => {
    side = await openReadSide();
  });
  afterAll(async () => {
    await side?.close();
  });

  it('twenty parallel inserts of a first admin leave one row (a real race on PostgreSQL: 8 connections)', async () => {
    expect(await anyAdminExists(side.db.pool)).toBe(false);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        insertFirstAdmin(side.db.pool, { username: `first${n}`, email: `first${n}@example.com`, passwordHash: 'x' }),
      ),
    );
    expect(results.filter((row) => row !== null)).toHaveLength(1);
    const { rows } = await side.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM admin_users');
    expect(rows[0]!.n).toBe(1);
    expect(await anyAdminExists(side.db.pool)).toBe(true);
  });

  it('a second setup row is refused by the unique index even when written directly', async () => {
    await expect(
      side.db.pool.query(`INSERT INTO admin_users (username, email, password_hash) VALUES ('sneaky', 'sneaky@example.com', 'x')`),
    ).rejects.toThrow(/admin_users_one_setup/);
  });

  it('further admins (made by an admin) are not limited; names stay unique whatever their case', async () => {
    const { rows } = await side.db.pool.query<{ id: number; username: string }>('SELECT id, username FROM admin_users');
    const first = rows[0]!;
    expect(
      await insertAdmin(side.db.pool, { username: 'second', email: 'second@example.com', passwordHash: 'x' }, first.id),
    ).not.toBeNull();
    expect(await insertAdmin(side.db.pool, { username: 'SECOND', email: 'other@example.com', passwordHash: 'x' }, first.id)).toBeNull();
    expect(await insertAdmin(side.db.pool, { username: 'third', email: 'SECOND@example.com', passwordHash: 'x' }, first.id)).toBeNull();
  });
});
