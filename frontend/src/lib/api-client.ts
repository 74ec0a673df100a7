import { apiErrorSchema, type ApiError } from '@ppr/contracts';
import type { z } from 'zod';

/** One entry of the error body's `errors`: which field (`path`) the server refused, and why. */
export type ApiFieldError = NonNullable<ApiError['errors']>[number];

export interface ApiErrorDetails {
  /** The `errors` of the server's JSON error body (empty when it sent none). */
  readonly fieldErrors?: readonly ApiFieldError[];
  /** The Retry-After header of a 429 or 503, in seconds. */
  readonly retryAfterSeconds?: number | undefined;
}

/** A non-OK answer: the message reads "{status}: {body or status text}" (SPEC section 8). */
export class ApiRequestError extends Error {
  readonly status: number;
  /** The `message` field of the server's JSON error body, when it sent one. */
  readonly serverMessage: string | undefined;
  readonly fieldErrors: readonly ApiFieldError[];
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, text: string, serverMessage: string | undefined, details: ApiErrorDetails = {}) {
    super(`${status}: ${text}`);
    this.name = 'ApiRequestError';
    this.status = status;
    this.serverMessage = serverMessage;
    this.fieldErrors = details.fieldErrors ?? [];
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

export interface ApiRequestOptions {
  readonly method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Sent as JSON, or as it is when it is a FormData (multipart, with the boundary the browser chooses). */
  readonly body?: unknown;
  readonly signal?: AbortSignal;
  /** Extra request headers, e.g. the support request's `Idempotency-Key`. */
  readonly headers?: Readonly<Record<string, string>>;
}

function errorBodyOf(text: string): ApiError | undefined {
  try {
    const parsed = apiErrorSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Retry-After as seconds from now: a number of seconds, or an HTTP date. */
export function retryAfterSecondsOf(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const value = header.trim();
  if (/^[0-9]+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Same-origin JSON request with credentials; parses the answer with the given schema. */
export async function apiRequest<T>(path: string, schema: z.ZodType<T>, options: ApiRequestOptions = {}): Promise<T> {
  const form = typeof FormData !== 'undefined' && options.body instanceof FormData ? options.body : undefined;
  const init: RequestInit = {
    method: options.method ?? 'GET',
    credentials: 'include',
    headers: {
      Accept: 'application/json',
      // The server refuses a mutation without it (CSRF defence); sent on every call.
      'X-Requested-With': 'XMLHttpRequest',
      // A FormData gets its multipart type (with the boundary) from fetch itself.
      ...(options.body === undefined || form ? {} : { 'Content-Type': 'application/json' }),
      ...options.headers,
    },
  };
  if (form) init.body = form;
  else if (options.body !== undefined) init.body = JSON.stringify(options.body);
  if (options.signal) init.signal = options.signal;
  const response = await fetch(path, init);
  const text = await response.text();
  if (!response.ok) {
    const body = errorBodyOf(text);
    throw new ApiRequestError(response.status, text || response.statusText, body?.message, {
      fieldErrors: body?.errors ?? [],
      retryAfterSeconds: retryAfterSecondsOf(response.headers.get('Retry-After')),
    });
  }
  const data: unknown = text ? JSON.parse(text) : {};
  return schema.parse(data);
}
