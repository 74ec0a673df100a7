import { afterEach, describe, expect, it, vi } from 'vitest';
import { messageResponseSchema, unsubscribeTokenInfoSchema } from '@ppr/contracts';
import { apiRequest, ApiRequestError, retryAfterSecondsOf } from './api-client';

describe('apiRequest', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends credentials, JSON and the X-Requested-With header the server requires on mutations', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ message: 'Unsubscribed' }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await apiRequest('/api/unsubscribe', messageResponseSchema, { method: 'POST', body: { email: 'a@b.co' } });
    const [path, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe('/api/unsubscribe');
    expect(init).toMatchObject({ method: 'POST', credentials: 'include', body: JSON.stringify({ email: 'a@b.co' }) });
    expect(init.headers).toMatchObject({ 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' });
  });

  it('turns a non-OK answer into "{status}: {body}" with the server message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ message: 'Unsubscribe link not found' }), { status: 404 })),
    );
    const failure = apiRequest('/api/unsubscribe/x', unsubscribeTokenInfoSchema);
    await expect(failure).rejects.toBeInstanceOf(ApiRequestError);
    await failure.catch((error: ApiRequestError) => {
      expect(error.status).toBe(404);
      expect(error.serverMessage).toBe('Unsubscribe link not found');
      expect(error.message).toBe('404: {"message":"Unsubscribe link not found"}');
    });
  });

  it('sends a FormData as it is, leaving its multipart type (and boundary) to fetch', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ message: 'ok' }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const form = new FormData();
    form.append('body', 'Hello');
    await apiRequest('/api/tickets/1/messages', messageResponseSchema, { method: 'POST', body: form });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.body).toBe(form);
    expect(init.headers).toMatchObject({ 'X-Requested-With': 'XMLHttpRequest' });
    expect(init.headers).not.toHaveProperty('Content-Type');
  });

  it("keeps the error body's field errors and a 429's Retry-After", async () => {
    const body = { message: 'Validation failed', errors: [{ path: 'body', message: 'Message is required' }] };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(body), { status: 400 })),
    );
    const refused = await apiRequest('/api/tickets/1/messages', messageResponseSchema, { method: 'POST', body: {} }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ApiRequestError);
    expect((refused as ApiRequestError).fieldErrors).toEqual([{ path: 'body', message: 'Message is required' }]);
    expect((refused as ApiRequestError).retryAfterSeconds).toBeUndefined();

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ message: 'Too many messages' }), { status: 429, headers: { 'Retry-After': '90' } })),
    );
    const limited = await apiRequest('/api/tickets/1/messages', messageResponseSchema, { method: 'POST', body: {} }).catch(
      (error: unknown) => error,
    );
    expect((limited as ApiRequestError).status).toBe(429);
    expect((limited as ApiRequestError).fieldErrors).toEqual([]);
    expect((limited as ApiRequestError).retryAfterSeconds).toBe(90);
  });
});

describe('retryAfterSecondsOf', () => {
  it('reads seconds or an HTTP date, and nothing else', () => {
    const now = Date.parse('2026-12-01T10:00:00Z');
    expect(retryAfterSecondsOf('120', now)).toBe(120);
    expect(retryAfterSecondsOf('Tue, 01 Dec 2026 10:01:30 GMT', now)).toBe(90);
    expect(retryAfterSecondsOf('Tue, 01 Dec 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterSecondsOf('soon', now)).toBeUndefined();
    expect(retryAfterSecondsOf(null, now)).toBeUndefined();
  });
});
