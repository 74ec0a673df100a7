import type { ApiError } from '@ppr/contracts';
import type { RequestHandler } from 'express';

/** NUL cannot be stored in PostgreSQL text or jsonb; a body that carries one is refused before any handler. */
function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000') || containsNul(item, depth + 1)) return true;
  }
  return false;
}

export const NUL_MESSAGE = 'Text must not contain NUL characters';

/** Runs after the JSON parser: refuses bodies the database could not store, with a 400 in the API's shape. */
export const rejectUnstorableText: RequestHandler = (request, response, next) => {
  if (containsNul(request.body)) {
    response.status(400).json({ message: NUL_MESSAGE } satisfies ApiError);
    return;
  }
  next();
};
