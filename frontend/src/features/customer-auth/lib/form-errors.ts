import type { z } from 'zod';
import { ApiRequestError } from '../../../lib/api-client';

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** The first message for each field of a failed parse (the schema's own wording, SPEC section 5). */
export function fieldErrors<K extends string>(
  schema: z.ZodType,
  values: Readonly<Record<string, unknown>>,
  fields: readonly K[],
): FieldErrors<K> {
  const result = schema.safeParse(values);
  if (result.success) return {};
  const errors: FieldErrors<K> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && (fields as readonly string[]).includes(field) && !errors[field as K]) {
      errors[field as K] = issue.message;
    }
  }
  return errors;
}

/** The first field (in form order) that has an error. */
export function firstInvalid<K extends string>(errors: FieldErrors<K>, fields: readonly K[]): K | undefined {
  return fields.find((field) => errors[field]);
}

/** The server's sentence, else the fallback the spec gives for the screen. */
export function serverMessage(error: unknown, fallback: string): string {
  return error instanceof ApiRequestError && error.serverMessage ? error.serverMessage : fallback;
}
