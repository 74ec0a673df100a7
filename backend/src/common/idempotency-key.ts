import { BadRequestException } from '@nestjs/common';
import type { ApiError } from '@ppr/contracts';

/**
 * The optional `Idempotency-Key` header of the endpoints a client may retry without doing the thing twice (a
 * support request, a message on a ticket): its format, its refusals and its parsing, said once here. What a key
 * is bound to is each endpoint's (tickets/idempotency, conversation).
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/**
 * 16 to 255 printable token characters; a UUID (what the SPA sends) fits. The lower bound is there because
 * every guest shares one scope: a short key could collide with another visitor's.
 */
export const IDEMPOTENCY_KEY_PATTERN = '^[A-Za-z0-9_.:-]{16,255}$';
const KEY_FORMAT = new RegExp(IDEMPOTENCY_KEY_PATTERN);

export const idempotencyMessages = {
  malformedKey: `${IDEMPOTENCY_KEY_HEADER} must be 16 to 255 characters: letters, digits, "-", "_", "." or ":" (a UUID is fine)`,
  keyReused: `${IDEMPOTENCY_KEY_HEADER} was already used for a different request`,
} as const;

/**
 * The header's key, undefined when none was sent; a 400 when it is malformed. A header sent twice arrives
 * joined with ", " and is malformed too.
 */
export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (!KEY_FORMAT.test(header)) {
    throw new BadRequestException({ message: idempotencyMessages.malformedKey } satisfies ApiError);
  }
  return header;
}
