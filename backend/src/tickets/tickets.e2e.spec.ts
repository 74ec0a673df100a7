import { messages, ticketReference } from '@ppr/contracts';
import request from 'supertest';
import { aSupportRequest } from '../../test/builders';
import { nextAddress } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { encodeTicketGrants, TICKET_GRANTS_COOKIE, ticketGrantsKey } from '../auth/ticket-grants';
import { JSON_OBJECT_REQUIRED } from '../common/zod-validation.pipe';

/** The secret this app signs with (set here so that the test can forge and sign cookies with its own key). */
const SESSION_SECRET = 'tickets-e2e-secret-of-at-least-32-characters';

const valid = aSupportRequest();

describe('support request and ticket endpoints', () => {
  let t: TestApp;
  // One browser (cookie jar) that sends the website's CSRF header: a guest reads only the tickets this
  // browser submitted (its signed grants cookie).
  let agent: ReturnType<typeof request.agent>;
  const http = () => agent;

  beforeAll(async () => {
    t = await createTestApp({ FEE_WAIVER_EMAILS: 'waived@example.com', FEE_WAIVER_NAMES: 'Pat Free', SESSION_SECRET });
    agent = request.agent(t.app.getHttpServer()).set('X-Requested-With', 'XMLHttpRequest');
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Events of ticket streams (the email sagas write streams of their own, at their own pace). */
  async function eventCount(): Promise<number> {
    const { rows } = await t.db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM es_events WHERE stream_id LIKE 'ticket-%'");
    return rows[0]!.n;
  }

  it('creates a ticket and returns its id; the ticket reads back as a summary', async () => {
    const created = await http().post('/api/support-request').send(valid).expect(201);
    expect(created.body).toEqual({ id: expect.any(Number) });

    const summary = await http().get(`/api/ticket/${created.body.id}`).expect(200);
    const row = await t.db.pool.query<{ reference: string; created_at: Date }>('SELECT reference, created_at FROM tickets WHERE id = $1', [
      created.body.id,
    ]);
    expect(summary.body).toEqual({
      id: created.body.id,
      // The read model's stored reference: its year is the creation year, not the year it is read.
      reference: ticketReference(created.body.id, row.rows[0]!.created_at),
      createdAt: row.rows[0]!.created_at.toISOString(),
      paymentStatus: 'pending',
      paymentDisplay: 'Not Paid',
      serviceCategory: 'networking',
      issueDescription: valid.issueDescription,
    });
    expect(summary.body.reference).toBe(row.rows[0]!.reference);
    expect(summary.body.reference).toMatch(new RegExp(`^PPR-\\d{4}-${created.body.id}$`));
  });

  it('records the creation as a TicketCreated event with actor, correlation, causation and time', async () => {
    const created = await http().post('/api/support-request').set('X-Request-Id', 'req-abc-123').send(valid).expect(201);
    const [event] = await t.store.readStream(`ticket-${created.body.id}`);
    expect(event).toMatchObject({
      type: 'TicketCreated',
      revision: 0,
      data: { ticketId: created.body.id, email: valid.email, feeCents: 4900, userId: null },
      metadata: {
        actor: { kind: 'visitor', id: null },
        correlationId: 'req-abc-123',
        causationId: expect.any(String),
        schemaVersion: 1,
      },
    });
    expect(Date.parse(event!.metadata.occurredAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('gives each request its own ticket number', async () => {
    const ids = await Promise.all(
      [1, 2, 3].map(async () => (await http().post('/api/support-request').send(valid).expect(201)).body.id as number),
    );
    expect(new Set(ids).size).toBe(3);
  });

  it('waives the fee for the configured customer, by email or by contact name', async () => {
    for (const body of [
      { ...valid, email: 'Waived@Example.com' },
      { ...valid, contactName: 'pat free' },
    ]) {
      const created = await http().post('/api/support-request').send(body).expect(201);
      const summary = await http().get(`/api/ticket/${created.body.id}`).expect(200);
      // Waived, not paid: the payment page tells the two apart by the display.
      expect(summary.body).toMatchObject({ paymentStatus: 'completed', paymentDisplay: 'Free Diagnostic' });
    }
  });

  it("ignores a visitor's claim that the fee is paid", async () => {
    const created = await http()
      .post('/api/support-request')
      .send({ ...valid, paymentStatus: 'completed', paymentNotes: 'Free diagnostic service', status: 'active' })
      .expect(201);
    const summary = await http().get(`/api/ticket/${created.body.id}`).expect(200);
    expect(summary.body.paymentStatus).toBe('pending');
  });

  it('stores text verbatim: HTML and SQL come back exactly as sent', async () => {
    const hostile = `<script>alert('x')</script> '; DROP TABLE es_events; -- "quoted" & ünïcode`;
    const created = await http()
      .post('/api/support-request')
      .send({ ...valid, issueDescription: hostile })
      .expect(201);
    const summary = await http().get(`/api/ticket/${created.body.id}`).expect(200);
    expect(summary.body.issueDescription).toBe(hostile);
  });

  describe('validation: a 400 with the messages of the spec, and nothing written', () => {
    let before: number;
    beforeEach(async () => {
      before = await eventCount();
    });
    afterEach(async () => {
      expect(await eventCount()).toBe(before);
    });

    it('names every missing required field with its message', async () => {
      const response = await http().post('/api/support-request').send({}).expect(400);
      expect(response.body.errors).toEqual(
        expect.arrayContaining([
          { path: 'businessName', message: messages.businessNameRequired },
          { path: 'contactName', message: messages.contactNameRequired },
          { path: 'email', message: messages.invalidEmail },
          { path: 'phone', message: messages.phoneRequired },
          { path: 'serviceCategory', message: messages.serviceCategoryRequired },
          { path: 'issueDescription', message: messages.issueDescription },
        ]),
      );
      expect(response.body.errors).toHaveLength(6);
      expect(typeof response.body.message).toBe('string');
    });

    it.each([
      ['businessName', '', 'Business name is required'],
      ['businessName', '   ', 'Business name is required'],
      ['contactName', '', 'Contact name is required'],
      ['email', 'not-an-email', 'Invalid email address'],
      ['phone', '555-0100', 'Phone number is required'],
      ['phone', 'call me maybe please', 'Please enter a valid phone number'],
      ['serviceCategory', '', 'Service category is required'],
      ['serviceCategory', 'gardening', 'Please choose a service category from the list'],
      ['issueDescription', 'broken', 'Please provide a detailed description of the issue'],
      ['businessName', 'x'.repeat(201), 'Business name must be at most 200 characters'],
      ['businessName', ['Acme'], 'Business name must be text'],
      ['email', 42, 'Email must be text'],
    ])('%s = %j: %s', async (field, value, message) => {
      const response = await http()
        .post('/api/support-request')
        .send({ ...valid, [field]: value })
        .expect(400);
      expect(response.body).toEqual({ message, errors: [{ path: field, message }] });
    });

    it('rejects unknown fields', async () => {
      const response = await http()
        .post('/api/support-request')
        .send({ ...valid, isAdmin: true })
        .expect(400);
      expect(response.body.errors).toEqual([{ path: 'isAdmin', message: 'Unknown field "isAdmin"' }]);
    });

    it('rejects a prototype-pollution key', async () => {
      const response = await http()
        .post('/api/support-request')
        .set('Content-Type', 'application/json')
        .send(
          `{"businessName":"A","contactName":"B","email":"a@b.co","phone":"2025550143","serviceCategory":"windows","issueDescription":"long enough text","__proto__":{"admin":true}}`,
        )
        .expect(400);
      expect(response.body.errors).toEqual([{ path: '__proto__', message: 'Unknown field "__proto__"' }]);
    });

    it('rejects malformed JSON', async () => {
      const response = await http()
        .post('/api/support-request')
        .set('Content-Type', 'application/json')
        .send('{"businessName": ')
        .expect(400);
      expect(response.body).toEqual({ message: 'The request body is not valid JSON' });
    });

    it('rejects a body that is not an object', async () => {
      for (const body of ['[1,2]', '"text"']) {
        const response = await http().post('/api/support-request').set('Content-Type', 'application/json').send(body).expect(400);
        expect(response.body.message).toMatch(/JSON object|not valid JSON/);
      }
      // Not JSON at all (a form, text): 415 Unsupported Media Type, with the same words.
      const noJson = await http().post('/api/support-request').send('businessName=x').expect(415);
      expect(noJson.body).toEqual({ message: JSON_OBJECT_REQUIRED });
      // JSON text sent as text/plain (how a form on another site could post without a preflight) is not read.
      const asText = await http().post('/api/support-request').set('Content-Type', 'text/plain').send(JSON.stringify(valid)).expect(415);
      expect(asText.body).toEqual({ message: JSON_OBJECT_REQUIRED });
    });

    it('rejects an oversized body with a 413', async () => {
      const response = await http()
        .post('/api/support-request')
        .send({ ...valid, issueDescription: 'x'.repeat(1024 * 1024) })
        .expect(413);
      expect(response.body).toEqual({ message: 'The request body is too large' });
    });
  });

  describe('GET /api/ticket/:id', () => {
    /** A submission from a browser without cookies, from an address of its own (the limits count per address). */
    function submitAsGuest(): Promise<request.Response> {
      return request(t.app.getHttpServer())
        .post('/api/support-request')
        .set('X-Requested-With', 'XMLHttpRequest')
        .set('X-Forwarded-For', nextAddress())
        .send(valid)
        .expect(201);
    }

    function read(ticketId: number, cookie: string): request.Test {
      return request(t.app.getHttpServer()).get(`/api/ticket/${ticketId}`).set('Cookie', cookie);
    }

    /** The grants cookie a response set, as a Cookie header; fails when there is none. */
    function grantsCookie(response: request.Response): string {
      const cookie = (response.get('Set-Cookie') ?? []).find((c) => c.startsWith(`${TICKET_GRANTS_COOKIE}=`));
      if (!cookie) throw new Error(`No grants cookie in ${JSON.stringify(response.get('Set-Cookie'))}`);
      return cookie.split(';')[0]!;
    }

    /** A grants cookie for these ids, signed with `key`, valid for an hour (or expired by `offsetMs` < 0). */
    function signedCookie(ids: number[], key: Buffer, offsetMs = 3_600_000): string {
      return `${TICKET_GRANTS_COOKIE}=${encodeTicketGrants(ids, new Date(Date.now() + offsetMs), key)}`;
    }

    async function sessionRows(): Promise<number> {
      return (await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions')).rows[0]!.n;
    }

    it('a guest submission grants the ticket with a signed HttpOnly cookie and writes no session row', async () => {
      const before = await sessionRows();
      const created = await submitAsGuest();
      expect(await sessionRows()).toBe(before);
      const setCookies = created.get('Set-Cookie') ?? [];
      expect(setCookies.some((c) => c.startsWith('ppr.sid='))).toBe(false);
      expect(setCookies.find((c) => c.startsWith(`${TICKET_GRANTS_COOKIE}=`))).toMatch(/; Path=\/api; HttpOnly; SameSite=Lax$/);
      // That cookie alone reads the summary, and reading it writes no session either.
      await read(created.body.id, grantsCookie(created)).expect(200);
      expect(await sessionRows()).toBe(before);
    });

    it("another browser's cookie, a forged one or a tampered one cannot read someone's ticket (404)", async () => {
      const victim = (await submitAsGuest()).body.id as number;
      const key = ticketGrantsKey(SESSION_SECRET);
      // Another browser reads its own ticket with its cookie, and nothing else.
      const other = await submitAsGuest();
      const otherCookie = grantsCookie(other);
      await read(other.body.id, otherCookie).expect(200);
      const refused = [
        otherCookie,
        // Its ids rewritten to the victim's, under its own MAC; or appended to its own.
        otherCookie.replace(`=v1.${other.body.id}.`, `=v1.${victim}.`),
        otherCookie.replace(`=v1.${other.body.id}.`, `=v1.${other.body.id}-${victim}.`),
        // Signed with the raw session secret, or with a guessed key.
        signedCookie([victim], Buffer.from(SESSION_SECRET)),
        signedCookie([victim], ticketGrantsKey('guessed-secret-guessed-secret-guessed')),
        // Signed with the right key, but expired.
        signedCookie([victim], key, -1000),
        // Garbage.
        `${TICKET_GRANTS_COOKIE}=v1.${victim}.9999999999.not-a-mac`,
        `${TICKET_GRANTS_COOKIE}=%%%`,
      ];
      for (const cookie of refused) {
        const answer = await read(victim, cookie);
        expect({ cookie, status: answer.status, body: answer.body }).toEqual({
          cookie,
          status: 404,
          body: { message: 'Ticket not found' },
        });
      }
      // The server's own signature on the same ids is what makes the difference.
      await read(victim, signedCookie([victim], key)).expect(200);
    });

    it.each(['999999', 'abc', '0', '-1', '1.5', '1e3', '99999999999999999999', '%27%20OR%201%3D1'])(
      'answers %s with the same 404',
      async (id) => {
        const response = await http().get(`/api/ticket/${id}`).expect(404);
        expect(response.body).toEqual({ message: 'Ticket not found' });
      },
    );
  });

  it('answers an unknown API path with a 404 in the error shape', async () => {
    const response = await http().get('/api/nothing-here').expect(404);
    expect(response.body).toEqual({ message: 'Not found' });
  });

  it('reports the event store and the database in /api/health', async () => {
    const response = await http().get('/api/health').expect(200);
    expect(response.body).toEqual({
      status: 'ok',
      eventStore: { adapter: process.env.DATABASE_URL ? 'postgres' : 'embedded', ok: true },
      database: { kind: process.env.DATABASE_URL ? 'postgres' : 'embedded', ok: true },
    });
  });
});
