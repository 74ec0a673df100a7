import type { ApiError } from '@ppr/contracts';
import type { RequestHandler } from 'express';

export const NUL_MESSAGE = 'Text must not contain NUL characters';
export const SURROGATE_MESSAGE = 'Text must be valid Unicode: it contains an unpaired surrogate character';

/** A high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type Problem = typeof NUL_MESSAGE | typeof SURROGATE_MESSAGE;

function textProblem(text: string): Problem | null {
  if (text.includes('\u0000')) return NUL_MESSAGE;
  if (LONE_SURROGATE.test(text)) return SURROGATE_MESSAGE;
  return null;
}

/**
 * What PostgreSQL cannot store, in any string of the body (keys included): NUL (text and jsonb refuse it)
 * and lone UTF-16 surrogates, which JSON can spell (`"\ud800"`) but which are not Unicode characters: jsonb
 * refuses the escape and the driver would turn them into U+FFFD in text columns.
 */
function findProblem(value: unknown, depth = 0): Problem | null {
  if (typeof value === 'string') return textProblem(value);
  if (depth > 64 || value === null || typeof value !== 'object') return null;
  // Raw bodies (the payment webhook's signed bytes) are not text and are not stored as such.
  if (ArrayBuffer.isView(value)) return null;
  for (const [key, item] of Object.entries(value)) {
    const problem = textProblem(key) ?? findProblem(item, depth + 1);
    if (problem) return problem;
  }
  return null;
}

/**
 * Runs after the body parsers: refuses bodies, and query strings (`?search=%00`), the database could not store,
 * with a 400 in the API's shape.
 */
export const rejectUnstorableText: RequestHandler = (request, response, next) => {
  const problem = findProblem(request.body) ?? findProblem(request.query);
  if (problem) {
    response.status(400).json({ message: problem } satisfies ApiError);
    return;
  }
  next();
};
