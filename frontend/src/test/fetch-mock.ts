import { vi, type Mock } from 'vitest';

/** The global fetch as the tests stub it: the app calls it with a path and its options. */
export type FetchMock = Mock<(input: string, init?: RequestInit) => Promise<Response>>;

/** Answers one call to the fake fetch (an answer that never settles keeps the request pending). */
export type FetchHandler = (url: string, init: RequestInit | undefined) => Response | Promise<Response>;

/** One call the fake fetch received: its path, method (GET when none is set) and JSON body. */
export interface FetchCall {
  readonly url: string;
  readonly method: string;
  readonly body: unknown;
}

/** A JSON response with this status and body. */
export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** Replaces the global fetch with a mock that answers every call through `handler`; `vi.unstubAllGlobals()` restores it. */
export function mockFetch(handler: FetchHandler): FetchMock {
  const fetchMock: FetchMock = vi.fn((input: string, init?: RequestInit) => Promise.resolve(handler(input, init)));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** Replaces the global fetch with one that answers every call with this status and JSON body. */
export function answerFetch(status: number, body: unknown): FetchMock {
  return mockFetch(() => json(status, body));
}

/** Every call the mock received, in order, with its JSON body parsed (undefined when it sent none). */
export function fetchCalls(fetchMock: FetchMock): FetchCall[] {
  return fetchMock.mock.calls.map(([url, init]) => ({
    url,
    method: init?.method ?? 'GET',
    body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
  }));
}

/** The JSON bodies sent to `path` with `method`, in order. */
export function sentBodies(fetchMock: FetchMock, method: string, path: string): unknown[] {
  return fetchCalls(fetchMock)
    .filter((call) => call.url === path && call.method === method)
    .map((call) => call.body);
}
