import { ApiRequestError } from '../../../lib/api-client';

/** The server's `message` when it sent one, else the spec's fallback wording for that action. */
export function serverMessageOr(error: unknown, fallback: string): string {
  return error instanceof ApiRequestError && error.serverMessage ? error.serverMessage : fallback;
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 401;
}
