import { apiErrorSchema } from '@ppr/contracts';
import type { z } from 'zod';

/** A non-OK answer: the message reads "{status}: {body or status text}" (SPEC section 8). */
export class ApiRequestError extends Error {
  readonly status: number;
  /** The `message` field of the server's JSON error body, when it sent one. */
  readonly serverMessage: string | undefined;

  constructor(status: number, text: string, serverMessage: string | undefined) {
    super(`${status}: ${text}`);
    this.name = 'ApiRequestError';
    this.status = status;
    this.serverMessage = serverMessage;
  }
}

export interface ApiRequestOptions {
  readonly method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  readonly body?: unknown;
  readonly signal?: AbortSignal;
  /** Extra request headers, e.g. the support request's `Idempotency-Key`. */
  readonly headers?: Readonly<Record<string, string>>;
}

function serverMessageOf(text: string): string | undefined {
  try {
    const parsed = apiErrorSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.message : undefined;
  } catch {
    return undefined;
  }
}

/** Same-origin JSON request with credentials; parses the answer with the given schema. */
export async function apiRequest<T>(path: string, schema: z.ZodType<T>, options: ApiRequestOptions = {}): Promise<T> {
  const init: RequestInit = {
    method: options.method ?? 'GET',
    credentials: 'include',
    headers: {
      Accept: 'application/json',
      // The server refuses a mutation without it (CSRF defence); sent on every call.
      'X-Requested-With': 'XMLHttpRequest',
      ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...options.headers,
    },
  };
  if (options.body !== undefined) init.body = JSON.stringify(options.body);
  if (options.signal) init.signal = options.signal;
  const response = await fetch(path, init);
  const text = await response.text();
  if (!response.ok) {
    throw new ApiRequestError(response.status, text || response.statusText, serverMessageOf(text));
  }
  const data: unknown = text ? JSON.parse(text) : {};
  return schema.parse(data);
}
