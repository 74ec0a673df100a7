import { afterEach, describe, expect, it, vi } from 'vitest';
import { messageResponseSchema, unsubscribeTokenInfoSchema } from '@ppr/contracts';
import { apiRequest, ApiRequestError } from './api-client';

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
});
