import { accountMessages, messages } from '@ppr/contracts';
import request from 'supertest';
import { browser } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { UnsubscribeService } from './unsubscribe.service';

describe('unsubscribe', () => {
  let t: TestApp;
  let service: UnsubscribeService;
  const raw = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await createTestApp({ APP_BASE_URL: 'https://www.potomacpc.example' });
    service = t.app.get(UnsubscribeService);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function subscription(email: string) {
    const { rows } = await t.db.pool.query<{ subscribed: boolean; updated_at: Date }>(
      'SELECT subscribed, updated_at FROM email_subscriptions WHERE lower(email) = lower($1)',
      [email],
    );
    return rows;
  }

  /** A subscriber as marketing creates them: the token comes from the links of their email. */
  async function subscriber(email: string): Promise<string> {
    const links = await service.linksFor(email);
    return new URL(links.pageUrl).searchParams.get('token')!;
  }

  it('gives a marketing email its page link and RFC 8058 one-click headers', async () => {
    const links = await service.linksFor('links@example.com');
    const token = new URL(links.pageUrl).searchParams.get('token');
    expect(links.subscribed).toBe(true);
    expect(links.pageUrl).toBe(`https://www.potomacpc.example/unsubscribe?token=${token}`);
    expect(links.headers).toEqual({
      'List-Unsubscribe': `<https://www.potomacpc.example/api/unsubscribe/one-click/${token}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    // Asking again keeps the same subscription and token.
    expect((await service.linksFor('LINKS@example.com')).pageUrl).toBe(links.pageUrl);
  });

  it('GET /api/unsubscribe/:token tells the address and changes nothing', async () => {
    const token = await subscriber('pat@example.com');
    const response = await raw().get(`/api/unsubscribe/${token}`).expect(200);
    expect(response.body).toEqual({ email: 'pat@example.com' });
    expect((await subscription('pat@example.com'))[0]!.subscribed).toBe(true);
  });

  it('POST with the token unsubscribes, and again is still a success', async () => {
    const token = await subscriber('sam@example.com');
    const first = await browser(t.app).post('/api/unsubscribe').send({ token }).expect(200);
    expect(first.body).toEqual({ message: accountMessages.unsubscribed });
    const [after] = await subscription('sam@example.com');
    expect(after!.subscribed).toBe(false);
    await browser(t.app).post('/api/unsubscribe').send({ token }).expect(200);
    const [again] = await subscription('sam@example.com');
    expect(again).toEqual(after);
  });

  it('POST with an address unsubscribes it, known or not, with the same answer', async () => {
    await subscriber('known@example.com');
    const known = await browser(t.app).post('/api/unsubscribe').send({ email: 'KNOWN@example.com' }).expect(200);
    const unknown = await browser(t.app).post('/api/unsubscribe').send({ email: 'never-seen@example.com' }).expect(200);
    expect(unknown.body).toEqual(known.body);
    expect(await subscription('known@example.com')).toEqual([expect.objectContaining({ subscribed: false })]);
    // An address never on the list is recorded as unsubscribed, so later marketing leaves it out.
    expect(await subscription('never-seen@example.com')).toEqual([expect.objectContaining({ subscribed: false })]);
    await browser(t.app).post('/api/unsubscribe').send({ email: 'never-seen@example.com' }).expect(200);
    expect(await subscription('never-seen@example.com')).toHaveLength(1);
    expect((await service.linksFor('never-seen@example.com')).subscribed).toBe(false);
  });

  it('counts typed addresses per client like a public form (parallel requests included); links are not counted', async () => {
    const client = '203.0.113.77';
    const answers = await Promise.all(
      Array.from({ length: 14 }, (_, index) =>
        browser(t.app)
          .post('/api/unsubscribe')
          .set('X-Forwarded-For', client)
          .send({ email: `made-up-${index}@example.com` }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(10).fill(200), ...Array(4).fill(429)]);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    const { rows } = await t.db.pool.query<{ n: string }>("SELECT count(*) AS n FROM email_subscriptions WHERE email LIKE 'made-up-%'");
    expect(Number(rows[0]!.n)).toBe(10);
    // The link of an email still works from that address.
    const token = await subscriber('linked@example.com');
    await browser(t.app).post('/api/unsubscribe').set('X-Forwarded-For', client).send({ token }).expect(200);
  });

  it('answers an unknown token with a 404 and a message the page shows', async () => {
    for (const token of ['no-such-token', "'%20OR%201=1--", 'x'.repeat(300)]) {
      const get = await raw().get(`/api/unsubscribe/${token}`).expect(404);
      expect(get.body).toEqual({ message: accountMessages.unsubscribeTokenUnknown });
    }
    const post = await browser(t.app).post('/api/unsubscribe').send({ token: 'no-such-token' }).expect(404);
    expect(post.body).toEqual({ message: accountMessages.unsubscribeTokenUnknown });
  });

  it.each([
    [{}, '', messages.unsubscribeTokenOrEmail],
    [{ email: 'no-at-sign' }, 'email', messages.unsubscribeEmail],
    [{ token: '' }, 'token', 'token must not be empty'],
    [{ email: ['a@b.c'] }, 'email', 'email must be text'],
    [{ token: 'abc', extra: 1 }, 'extra', 'Unknown field "extra"'],
  ])('refuses %j', async (body, path, message) => {
    const before = await t.db.pool.query('SELECT count(*)::int AS n FROM email_subscriptions');
    const response = await browser(t.app).post('/api/unsubscribe').send(body).expect(400);
    expect(response.body.errors).toEqual([{ path, message }]);
    const after = await t.db.pool.query('SELECT count(*)::int AS n FROM email_subscriptions');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('the one-click URL unsubscribes on a bare POST from a mail provider (no header, no cookie)', async () => {
    const token = await subscriber('oneclick@example.com');
    const response = await raw().post(`/api/unsubscribe/one-click/${token}`).type('form').send('List-Unsubscribe=One-Click').expect(200);
    expect(response.body).toEqual({ message: accountMessages.unsubscribed });
    expect((await subscription('oneclick@example.com'))[0]!.subscribed).toBe(false);
    await raw().post(`/api/unsubscribe/one-click/${token}`).type('form').send('List-Unsubscribe=One-Click').expect(200);
    await raw().post('/api/unsubscribe/one-click/unknown-token').expect(404);
    // A GET on it changes nothing (no such route).
    await raw().get(`/api/unsubscribe/one-click/${token}`).expect(404);
  });

  it('the page endpoint is not exempt from the CSRF rule', async () => {
    const token = await subscriber('csrf@example.com');
    await raw().post('/api/unsubscribe').send({ token }).expect(403);
    expect((await subscription('csrf@example.com'))[0]!.subscribed).toBe(true);
  });
});
