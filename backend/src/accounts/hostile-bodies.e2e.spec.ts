import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { apiErrorSchema } from '@ppr/contracts';
import { MALFORMED_PATH_MESSAGE } from '../api-exception.filter';
import request from 'supertest';
import { aSupportRequest } from '../../test/builders';
import { browser, count, lastEmail, newCustomer, tokenIn, VERIFY_LINK, verifiedCustomer, type Agent } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { INVALID_UTF8_BODY, UNREADABLE_COMPRESSED_BODY } from '../common/json-body';
import { JSON_OBJECT_REQUIRED } from '../common/zod-validation.pipe';
import { UnsubscribeService } from '../unsubscribe/unsubscribe.service';

/** The body guard's answers (auth/body-guard.ts), as a client reads them. */
const NUL_MESSAGE = 'Text must not contain NUL characters';
const SURROGATE_MESSAGE = 'Text must be valid Unicode: it contains an unpaired surrogate character';

/** Text a form may legitimately carry that would break a careless server: SQL, HTML, quotes, unicode. */
const SQL = `Robert'); DROP TABLE users; -- ' OR '1'='1`;
const HTML = `<script>alert("pwned")</script><img src=x onerror=alert(1)> &amp; &lt;`;
const MIXED = `${SQL} ${HTML} “quotes” ünïcödé 🙂 \\ back\\slash`;

/**
 * Strings JSON can spell that are not Unicode text: lone surrogates (PostgreSQL's jsonb refuses them and text
 * columns would silently get U+FFFD). As JSON escapes, the way an attacker sends them.
 */
const LONE_SURROGATES = ['\\ud800', 'a\\udfffb', '\\ud83d end', 'x\\ud83d\\ud83d', '\\ude42 start'];

/** Compressed bodies that do not decompress, or decompress to nothing sensible. */
const jsonBytes = (value: unknown) => Buffer.from(JSON.stringify(value));
const COMPRESSED_GARBAGE: readonly { name: string; encoding: string; body: () => Buffer; status: number }[] = [
  { name: 'gzip garbage', encoding: 'gzip', body: () => Buffer.from('this is not gzip at all'), status: 400 },
  { name: 'deflate garbage', encoding: 'deflate', body: () => Buffer.from([0xff, 0x00, 0x13, 0x37, 0xde, 0xad]), status: 400 },
  { name: 'br garbage', encoding: 'br', body: () => Buffer.from('definitely not brotli'), status: 400 },
  {
    name: 'truncated gzip',
    encoding: 'gzip',
    body: () => gzipSync(jsonBytes({ email: 'a@example.com', padding: 'x'.repeat(500) })).subarray(0, 30),
    status: 400,
  },
  { name: 'gzip of invalid JSON', encoding: 'gzip', body: () => gzipSync(Buffer.from('{"a": ')), status: 400 },
  { name: 'gzip announced, deflate sent', encoding: 'gzip', body: () => deflateSync(jsonBytes({ a: 1 })), status: 400 },
  { name: 'gzip twice, announced once', encoding: 'gzip', body: () => gzipSync(gzipSync(jsonBytes({ a: 1 }))), status: 400 },
  {
    name: 'a gzip bomb (5 MB of spaces)',
    encoding: 'gzip',
    body: () => gzipSync(Buffer.from(`{"a":"${' '.repeat(5 * 1024 * 1024)}"}`)),
    status: 413,
  },
  {
    name: 'a brotli bomb',
    encoding: 'br',
    body: () => brotliCompressSync(Buffer.from(`{"a":"${'A'.repeat(5 * 1024 * 1024)}"}`)),
    status: 413,
  },
  { name: 'an unsupported encoding', encoding: 'compress', body: () => Buffer.from('xyz'), status: 415 },
  { name: 'zstd (not supported here)', encoding: 'zstd', body: () => Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00]), status: 415 },
  { name: 'two encodings stacked', encoding: 'gzip, gzip', body: () => gzipSync(gzipSync(jsonBytes({ a: 1 }))), status: 415 },
];

/**
 * Sends bytes as they are: superagent would otherwise JSON-serialize a Buffer when the Content-Type is JSON,
 * and the server would never see the compressed bytes.
 */
const asIs = (data: unknown): string => data as string;

/** Path ids that are not a ticket the read table could hold (a 32-bit integer) or not a number at all. */
const IMPOSSIBLE_TICKET_IDS = [
  '2147483648',
  '4294967296',
  '99999999999',
  '9007199254740993',
  '99999999999999999999',
  '1e10',
  '0x10',
  '-1',
  '0',
  '1.5',
  '00001',
];

const validTicket = aSupportRequest();

interface Endpoint {
  readonly path: string;
  /** A body the endpoint accepts (or at least validates), and its text fields. */
  readonly valid: () => Record<string, unknown>;
  readonly textFields: readonly string[];
}

const TABLES = ['users', 'sessions', 'notification_jobs', 'mail_messages', 'email_subscriptions', 'es_events', 'rate_limits'] as const;

describe('malformed and hostile bodies', () => {
  let t: TestApp;
  let agent: Agent;
  const raw = () => request(t.app.getHttpServer());

  const endpoints: Endpoint[] = [
    { path: '/api/support-request', valid: () => ({ ...validTicket }), textFields: Object.keys(validTicket) },
    {
      path: '/api/customer/register',
      valid: () => ({ ...newCustomer(), businessName: 'Acme', phone: '2025550100', address: '1 Road' }),
      textFields: ['username', 'email', 'password', 'businessName', 'phone', 'address'],
    },
    { path: '/api/customer/login', valid: () => ({ email: 'someone', password: 'secret12' }), textFields: ['email', 'password'] },
    { path: '/api/customer/verify-email', valid: () => ({ token: 'abc' }), textFields: ['token'] },
    { path: '/api/customer/forgot-password', valid: () => ({ email: 'a@example.com' }), textFields: ['email'] },
    { path: '/api/customer/reset-password', valid: () => ({ token: 'abc', password: 'secret12' }), textFields: ['token', 'password'] },
    { path: '/api/unsubscribe', valid: () => ({ email: 'a@example.com' }), textFields: ['email'] },
  ];
  const bodyless = ['/api/customer/logout', '/api/customer/link-tickets', '/api/customer/resend-verification'];

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000', PUBLIC_FORM_LIMIT_PER_HOUR: '100000' });
    // Logged in, so the body-less customer endpoints get as far as their body check.
    agent = (await verifiedCustomer(t.app, t.db)).agent;
  });
  afterAll(async () => {
    await t?.close();
  });

  async function counts(): Promise<Record<string, number>> {
    const entries = await Promise.all(TABLES.map(async (table) => [table, await count(t.db, table)] as const));
    return Object.fromEntries(entries);
  }

  /** Sends, then checks: a 4xx, the error shape, no stack trace, and not one row written anywhere. */
  async function refused(send: () => Promise<request.Response>, status?: number): Promise<request.Response> {
    const before = await counts();
    const response = await send();
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    if (status !== undefined) expect(response.status).toBe(status);
    expect(apiErrorSchema.strict().safeParse(response.body).success).toBe(true);
    expect(response.text).not.toMatch(/\bat [\w.<>]+ \(|node_modules|\.ts:\d+/);
    expect(await counts()).toEqual(before);
    return response;
  }

  const json = (path: string, body: string) =>
    agent.post(path).set('Content-Type', 'application/json').send(body) as unknown as Promise<request.Response>;

  describe.each([...endpoints.map((e) => e.path), ...bodyless])('%s', (path) => {
    const endpoint = endpoints.find((e) => e.path === path);

    it('refuses malformed JSON', async () => {
      for (const body of ['{"a": ', '{a:1}', "{'a':1}", '{"a":1}}', 'nul', '\u0000']) {
        const response = await refused(() => json(path, body), 400);
        expect(response.body.message).toMatch(/not valid JSON|JSON object|takes no body/);
      }
    });

    it('refuses bodies that are not objects', async () => {
      for (const body of ['[]', '[{"a":1}]', '"text"', '42', 'true', 'null', ' "padded" ']) {
        const response = await refused(() => json(path, body), 400);
        // Valid JSON of the wrong shape: said so, not 'not valid JSON'.
        if (endpoint) expect({ body, message: response.body.message }).toEqual({ body, message: JSON_OBJECT_REQUIRED });
      }
    });

    it('refuses prototype-pollution and unknown keys', async () => {
      for (const key of ['__proto__', 'constructor', 'prototype']) {
        const base = endpoint ? JSON.stringify(endpoint.valid()).slice(0, -1) + ',' : '{';
        await refused(() => json(path, `${base}"${key}":{"isAdmin":true,"polluted":true}}`), 400);
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    });

    it('refuses a body over the size limit with a 413', async () => {
      const big = 'x'.repeat(1024 * 1024);
      const body = endpoint ? { ...endpoint.valid(), [endpoint.textFields[0]!]: big } : { padding: big };
      const response = await refused(() => agent.post(path).send(body), 413);
      expect(response.body).toEqual({ message: 'The request body is too large' });
    });

    it('refuses deeply nested JSON', async () => {
      await refused(() => json(path, `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`), 400);
    });

    if (endpoint) {
      it.each(endpoint.textFields)('refuses wrong types in %s with a message naming the field', async (field) => {
        for (const value of [['a', 'b'], { $gt: '' }, 12345, true, 'x'.repeat(20_000)]) {
          const response = await refused(() => agent.post(path).send({ ...endpoint.valid(), [field]: value }), 400);
          expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: field })]));
        }
      });

      it('refuses a NUL character, which the database could not store', async () => {
        const field = endpoint.textFields[0]!;
        const response = await refused(() => agent.post(path).send({ ...endpoint.valid(), [field]: 'before\u0000after' }), 400);
        expect(response.body).toEqual({ message: NUL_MESSAGE });
      });

      it.each(endpoint.textFields)('refuses lone UTF-16 surrogates in %s with a 400, never a 500', async (field) => {
        for (const escaped of LONE_SURROGATES) {
          const body = JSON.stringify({ ...endpoint.valid(), [field]: '@@' }).replace('"@@"', `"${escaped}"`);
          const response = await refused(() => json(path, body), 400);
          expect(response.body).toEqual({ message: SURROGATE_MESSAGE });
        }
      });

      it('refuses bytes that are not UTF-8 (Latin-1, a stray continuation byte, an overlong form, a cut-off sequence)', async () => {
        const field = endpoint.textFields[0]!;
        for (const bad of [[0xe9], [0x80], [0xc0, 0xaf], [0xe2, 0x82], [0xff, 0xfe]]) {
          const [before, after] = JSON.stringify({ ...endpoint.valid(), [field]: '@@' }).split('@@');
          const body = Buffer.concat([Buffer.from(`${before!}caf`), Buffer.from(bad), Buffer.from(after!)]);
          const response = await refused(() => agent.post(path).set('Content-Type', 'application/json').serialize(asIs).send(body), 400);
          expect(response.body).toEqual({ message: INVALID_UTF8_BODY });
        }
      });

      it('refuses a lone surrogate in a key', async () => {
        const body = JSON.stringify(endpoint.valid()).replace(/^\{/, '{"k\\udc00":1,');
        const response = await refused(() => json(path, body), 400);
        expect(response.body).toEqual({ message: SURROGATE_MESSAGE });
      });
    } else {
      it('refuses a body with lone surrogates like any body', async () => {
        await refused(() => json(path, '{"\\ud800":"\\udfff"}'), 400);
      });

      it('refuses any body at all', async () => {
        const response = await refused(() => agent.post(path).send({ anything: 1 }), 400);
        expect(response.body).toEqual({ message: 'This request takes no body' });
      });
    }
  });

  describe.each([...endpoints.map((e) => e.path), ...bodyless])('%s with a body that is not JSON', (path) => {
    // The verification page's form is the one form body the API reads (urlencoded, on that path only).
    const kinds: [string, string, string][] = [
      ['text/plain', 'text/plain', JSON.stringify(endpoints.find((e) => e.path === path)?.valid() ?? { anything: 1 })],
      [
        'multipart',
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@example.com\r\n--x--\r\n',
      ],
      ['an unknown type', 'application/octet-stream', 'bytes'],
      ...(path === '/api/customer/verify-email'
        ? []
        : ([['a form', 'application/x-www-form-urlencoded', 'email=a%40example.com']] as [string, string, string][])),
    ];
    it.each(kinds)('refuses %s with a 415, not as if no body was sent', async (_kind, type, body) => {
      const response = await refused(() => agent.post(path).set('Content-Type', type).send(body), 415);
      expect(response.body).toEqual({ message: JSON_OBJECT_REQUIRED });
    });
  });

  it('answers a path no route serves with the 404, whatever body it was sent', async () => {
    const bodies: [string, string][] = [
      ['text/plain', 'hello'],
      ['application/x-www-form-urlencoded', 'email=a%40example.com'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n'],
      ['application/octet-stream', 'bytes'],
      ['application/json', '{"a":1}'],
    ];
    for (const path of ['/api/no-such-endpoint', '/api/customer/no-such-endpoint', '/api/Support-Request/extra']) {
      for (const method of ['post', 'put', 'patch', 'delete'] as const) {
        for (const [type, body] of bodies) {
          const response = await refused(() => agent[method](path).set('Content-Type', type).send(body), 404);
          expect({ path, method, type, body: response.body }).toEqual({ path, method, type, body: { message: 'Not found' } });
        }
      }
    }
  });

  describe.each([...endpoints.map((e) => e.path), ...bodyless, '/api/unsubscribe/one-click/unknown-token'])(
    '%s with a compressed body',
    (path) => {
      it.each(COMPRESSED_GARBAGE.map((c) => [c.name, c] as const))('refuses %s with a 4xx, never a 500', async (_name, garbage) => {
        const response = await refused(
          () =>
            agent
              .post(path)
              .set('Content-Type', 'application/json')
              .set('Content-Encoding', garbage.encoding)
              .serialize(asIs)
              .send(garbage.body()),
          garbage.status,
        );
        if (garbage.name.endsWith('garbage') || garbage.name.startsWith('truncated')) {
          expect(response.body).toEqual({ message: UNREADABLE_COMPRESSED_BODY });
        }
      });
    },
  );

  /**
   * The other POST endpoints (payments): whatever their schemas, a body the database could not store or the
   * server could not read is refused before any handler, and a ticket id no ticket can have is a 400.
   */
  const paymentEndpoints = [
    '/api/create-payment-intent',
    '/api/create-diagnostic-fee-payment',
    '/api/support-request-with-payment',
    '/api/support-request-external-payment',
    '/api/update-ticket-payment',
    '/api/payments/checkout-session',
    '/api/payments/simulated/confirm',
  ];

  describe.each(paymentEndpoints)('%s', (path) => {
    it('refuses malformed JSON, non-objects and lone surrogates with a 400', async () => {
      for (const body of ['{"a": ', '[]', '"text"']) await refused(() => json(path, body), 400);
      for (const body of ['{"ticketId":"\\ud800"}', '{"ticketData":{"contactName":"a\\udc00"}}', '{"k\\udbff":1}']) {
        const response = await refused(() => json(path, body), 400);
        expect(response.body).toEqual({ message: SURROGATE_MESSAGE });
      }
    });

    it.each(COMPRESSED_GARBAGE.map((c) => [c.name, c] as const))('refuses %s with a 4xx, never a 500', async (_name, garbage) => {
      await refused(
        () =>
          agent
            .post(path)
            .set('Content-Type', 'application/json')
            .set('Content-Encoding', garbage.encoding)
            .serialize(asIs)
            .send(garbage.body()),
        garbage.status,
      );
    });
  });

  it.each(['/api/create-payment-intent', '/api/update-ticket-payment', '/api/payments/checkout-session'])(
    '%s refuses a ticket id no ticket can have with a 400 naming the field',
    async (path) => {
      for (const ticketId of [2147483648, 99999999999, 1e21, '2147483648', '99999999999999999999', -1, 0, 1.5, '0x10']) {
        const response = await refused(() => agent.post(path).send({ ticketId }), 400);
        expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'ticketId' })]));
      }
    },
  );

  it.each(COMPRESSED_GARBAGE.map((c) => [c.name, c] as const))(
    'the payment webhook refuses %s with a 4xx, never a 500',
    async (_name, garbage) => {
      await refused(
        () =>
          raw()
            .post('/api/payments/webhook')
            .set('Content-Type', 'application/json')
            .set('Content-Encoding', garbage.encoding)
            .set('Stripe-Signature', 't=1,v1=00')
            .serialize(asIs)
            .send(garbage.body()),
        garbage.status,
      );
    },
  );

  it('refuses compressed garbage sent as the verification page form', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const response = await refused(
        () =>
          raw()
            .post('/api/customer/verify-email')
            .set('Content-Type', 'application/x-www-form-urlencoded')
            .set('Content-Encoding', encoding)
            .serialize(asIs)
            .send(Buffer.from('token=not compressed at all')),
        400,
      );
      expect(response.body).toEqual({ message: UNREADABLE_COMPRESSED_BODY });
    }
  });

  it('reads a well-formed compressed body (the encodings themselves are allowed)', async () => {
    for (const [encoding, compress] of [
      ['gzip', gzipSync],
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
    ] as const) {
      const response = await browser(t.app)
        .post('/api/customer/forgot-password')
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', encoding)
        .serialize(asIs)
        .send(compress(jsonBytes({ email: 'nobody@example.com' })));
      expect(response.status).toBe(200);
    }
  });

  it('accepts a surrogate pair written as escapes (a real character) and stores it as sent', async () => {
    const guest = browser(t.app);
    const body = JSON.stringify({ ...validTicket, contactName: '@@' }).replace('"@@"', '"Jordan \\ud83d\\ude42"');
    const created = await guest.post('/api/support-request').set('Content-Type', 'application/json').send(body).expect(201);
    const summary = await guest.get(`/api/ticket/${created.body.id}`).expect(200);
    expect(summary.body.id).toBe(created.body.id);
    const [event] = await t.store.readStream(`ticket-${created.body.id}`);
    expect((event!.data as { contactName: string }).contactName).toBe('Jordan 🙂');
  });

  describe.each(['/api/ticket', '/api/tickets'])('%s/{id} with an id no ticket can have', (base) => {
    it.each(IMPOSSIBLE_TICKET_IDS)('answers %s with the same 404 as an unknown ticket', async (id) => {
      const unknown = await agent.get(`${base}/2147483647`).expect(404);
      const response = await refused(() => agent.get(`${base}/${id}`), 404);
      expect(response.body).toEqual(unknown.body);
      expect(response.body).toEqual({ message: 'Ticket not found' });
    });
  });

  it('refuses a NUL character in a query string (a value or a name) like one in a body', async () => {
    for (const query of ['page=%00', 'page=1%002', '%00=1', 'a[b]=%00', 'a=1&a=%00']) {
      const response = await refused(() => agent.get(`/api/customer/tickets?${query}`), 400);
      expect(response.body).toEqual({ message: NUL_MESSAGE });
    }
    await agent.get('/api/customer/tickets?page=1').expect(200);
  });

  it('answers a malformed %-escape in a path parameter with the API’s 400, not the router’s words', async () => {
    for (const path of ['/api/unsubscribe/one-click/%', '/api/unsubscribe/one-click/%E0%A4%A']) {
      const response = await refused(() => raw().post(path), 400);
      expect(response.body).toEqual({ message: MALFORMED_PATH_MESSAGE });
    }
  });

  it('the one-click unsubscribe URL ignores any body and never breaks', async () => {
    for (const body of ['{"a": ', '[]', 'List-Unsubscribe=One-Click', `${SQL}${HTML}`]) {
      const response = await raw().post('/api/unsubscribe/one-click/unknown-token').type('form').send(body);
      expect(response.status).toBe(404);
      expect(apiErrorSchema.strict().safeParse(response.body).success).toBe(true);
    }
  });

  it('treats SQL and HTML in login fields as plain text: a 401, no session', async () => {
    for (const identifier of [SQL, HTML, `admin'--`, `" OR ""="`]) {
      const response = await browser(t.app)
        .post('/api/customer/login')
        .send({ email: identifier, password: `${SQL}x` })
        .expect(401);
      expect(response.get('Set-Cookie')).toBeUndefined();
    }
  });

  it('refuses SQL and HTML where the format forbids them (username, email)', async () => {
    for (const [field, value] of [
      ['username', SQL],
      ['username', HTML],
      ['email', `${SQL}@example.com`],
      ['email', `<b>x</b>@example.com`],
    ] as const) {
      const response = await refused(
        () =>
          browser(t.app)
            .post('/api/customer/register')
            .send({ ...newCustomer(), [field]: value }),
        400,
      );
      expect(response.body.errors).toEqual([expect.objectContaining({ path: field })]);
    }
  });

  it('stores SQL and HTML verbatim in every free-text field of a support request and returns it as sent', async () => {
    const hostile = {
      ...validTicket,
      businessName: `${SQL} ${HTML}`.slice(0, 200),
      contactName: `O'Brien <b>"Jr."</b>`,
      address: MIXED,
      issueDescription: MIXED,
    };
    const guest = browser(t.app);
    const created = await guest.post('/api/support-request').send(hostile).expect(201);
    const [event] = await t.store.readStream(`ticket-${created.body.id}`);
    expect(event!.data).toMatchObject({
      businessName: hostile.businessName,
      contactName: hostile.contactName,
      address: hostile.address,
      issueDescription: hostile.issueDescription,
    });
    const summary = await guest.get(`/api/ticket/${created.body.id}`).expect(200);
    expect(summary.body.issueDescription).toBe(MIXED);
    expect(summary.get('Content-Type')).toMatch(/application\/json/);
  });

  it('stores SQL and HTML verbatim in the optional registration fields', async () => {
    const customer = newCustomer({ businessName: `${SQL} ${HTML}`.slice(0, 200), phone: `555'; --<i>`, address: MIXED });
    await browser(t.app).post('/api/customer/register').send(customer).expect(201);
    const { rows } = await t.db.pool.query('SELECT business_name, phone, address FROM users WHERE email = $1', [customer.email]);
    expect(rows[0]).toEqual({ business_name: customer.businessName, phone: customer.phone, address: MIXED });
    // The verification page escapes what it renders: the token is the only value it shows.
    const token = tokenIn((await lastEmail(t.db, customer.email, 'account-verification'))!.text, VERIFY_LINK);
    const page = await raw().get(`/api/customer/verify-email?token=${token}`).expect(200);
    expect(page.text).not.toContain('<script>');
  });

  it('stores an odd but valid address verbatim in the unsubscribe list and returns it as sent', async () => {
    const email = `o'hara<script>@example.com`;
    await browser(t.app).post('/api/unsubscribe').send({ email }).expect(200);
    const links = await t.app.get(UnsubscribeService).linksFor(email);
    const token = new URL(links.pageUrl).searchParams.get('token')!;
    const response = await raw().get(`/api/unsubscribe/${token}`).expect(200);
    expect(response.body).toEqual({ email });
  });
});
