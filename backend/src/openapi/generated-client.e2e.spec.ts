import type { AddressInfo } from 'node:net';
import {
  type ApiError,
  apiErrorSchema,
  type ContactCreated,
  contactCreatedSchema,
  type CreatedTicket,
  createdTicketSchema,
  type Health,
  healthSchema,
  marketingMessages,
} from '@ppr/contracts';
import createClient from 'openapi-fetch';
import type { components, paths } from '../../test/generated/openapi';
import { aSupportRequest } from '../../test/builders';
import { nextAddress } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';

/** Whether two types are the same (each assignable to the other), for compile-time checks. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Schemas = components['schemas'];

// The types generated from the document are the contracts' types: a client typed by them reads what the API sends.
const sameTypes: [
  Same<Schemas['Health'], Health>,
  Same<Schemas['CreatedTicket'], CreatedTicket>,
  Same<Schemas['ContactCreated'], ContactCreated>,
  Same<Schemas['ApiError'], ApiError>,
] = [true, true, true, true];

/** The CSRF header every mutation must carry (components.responses.Forbidden): a required header parameter. */
const XHR = { 'X-Requested-With': 'XMLHttpRequest' } as const;

describe('a client generated from the OpenAPI document (openapi-typescript types, openapi-fetch)', () => {
  let t: TestApp;
  let client: ReturnType<typeof createClient<paths>>;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    // The document's server is `/`: the client names the host it talks to.
    client = createClient<paths>({
      baseUrl: `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`,
      // Its own client address, so the public form limits of other test files never count against it.
      headers: { 'X-Forwarded-For': nextAddress() },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('agrees with the contracts on the types it reads', () => {
    expect(sameTypes).toEqual([true, true, true, true]);
  });

  it('GET /api/health: the typed Health', async () => {
    const { data, error, response } = await client.GET('/api/health');
    expect(response.status).toBe(200);
    expect(error).toBeUndefined();
    const health: Health | undefined = data;
    expect(healthSchema.parse(health)).toEqual(health);
    expect(health?.status).toBe('ok');
  });

  it('POST /api/contact: the typed ContactCreated, and the typed ApiError of a bad body', async () => {
    const created = await client.POST('/api/contact', {
      params: { header: XHR },
      body: {
        name: 'Jane Doe',
        email: 'jane.doe@example.com',
        phone: '(703) 555-0100',
        subject: 'Slow laptop',
        message: 'It takes ten minutes to boot.',
      },
    });
    expect(created.response.status).toBe(201);
    const body: ContactCreated | undefined = created.data;
    expect(body).toEqual({ id: expect.any(Number), message: marketingMessages.contactReceived });
    expect(contactCreatedSchema.parse(body)).toEqual(body);

    const refused = await client.POST('/api/contact', {
      params: { header: XHR },
      body: { name: 'Jane Doe', email: 'not an address', phone: '(703) 555-0100', subject: 'Slow laptop', message: 'It is slow.' },
    });
    expect(refused.response.status).toBe(400);
    expect(refused.data).toBeUndefined();
    const problem: ApiError | undefined = refused.error;
    expect(apiErrorSchema.parse(problem)).toEqual(problem);
    expect(problem?.errors?.map(({ path }) => path)).toContain('email');
  });

  it('POST /api/support-request: the typed CreatedTicket, with the optional Idempotency-Key', async () => {
    const key = `generated-client:${Date.now()}-0123456789`;
    const submit = () =>
      client.POST('/api/support-request', { params: { header: { ...XHR, 'Idempotency-Key': key } }, body: aSupportRequest() });
    const first = await submit();
    expect(first.response.status).toBe(201);
    const ticket: CreatedTicket | undefined = first.data;
    expect(createdTicketSchema.parse(ticket)).toEqual(ticket);
    // The same key again: the same ticket, as documented.
    const again = await submit();
    expect(again.data).toEqual(ticket);
  });

  it('refuses, as the document says, a mutation without the CSRF header', async () => {
    // Only a cast gets past the generated types: the header is required there.
    const refused = await client.POST('/api/contact', {
      params: { header: {} as typeof XHR },
      body: { name: 'Jane Doe', email: 'jane.doe@example.com', phone: '(703) 555-0100', subject: 'Slow laptop', message: 'It is slow.' },
    });
    expect(refused.response.status).toBe(403);
    expect(refused.error?.message).toEqual(expect.stringContaining('X-Requested-With'));
  });
});
