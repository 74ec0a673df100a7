import { randomUUID } from 'node:crypto';
import { openReadSide, type ReadSide } from '../../test/read-side';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { RateLimiter } from './rate-limiter';

const HOUR = 3600;

describe('RateLimiter', () => {
  let side: ReadSide;
  let limiter: RateLimiter;

  beforeAll(async () => {
    side = await openReadSide();
    limiter = new RateLimiter(side.db);
  });
  afterAll(async () => {
    await side?.close();
  });

  it('counts every hit, allows up to the limit, and answers the seconds left in the window', async () => {
    const key = `test:${randomUUID()}`;
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await limiter.hit(key, 3, HOUR));
    expect(answers.map((a) => [a.hits, a.allowed])).toEqual([
      [1, true],
      [2, true],
      [3, true],
      [4, false],
    ]);
    for (const answer of answers) {
      expect(answer.retryAfterSeconds).toBeGreaterThan(HOUR - 60);
      expect(answer.retryAfterSeconds).toBeLessThanOrEqual(HOUR);
    }
  });

  // Two transactions at once need PostgreSQL: the embedded database has one connection.
  const onPostgres = process.env.DATABASE_URL ? it : it.skip;
  onPostgres('never answers more than the window, even to a transaction that began before the window did', async () => {
    const key = `test:${randomUUID()}`;
    const other = { key: `test:${randomUUID()}`, limit: 10 };
    // A transaction (a new ticket's, which counts the public form's limits) takes its now() first...
    const kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: side.db.pool }) });
    const { first, second } = await kysely.transaction().execute(async (tx) => {
      await sql`SELECT now()`.execute(tx);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      // ...another request opens the window a second later and commits...
      await limiter.hit(key, 10, HOUR);
      // ...then the early transaction counts into that window: its now() is before the window's start.
      return limiter.hitThen({ key, limit: 10 }, other, HOUR, tx);
    });
    expect(first.hits).toBe(2);
    expect(first.retryAfterSeconds).toBeLessThanOrEqual(HOUR);
    expect(second?.retryAfterSeconds).toBeLessThanOrEqual(HOUR);
  });
});
