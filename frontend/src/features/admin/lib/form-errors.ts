import type { z } from 'zod';

/** The first message per field of a failed parse, keyed by the field's name. */
export function fieldErrors<K extends string>(error: z.ZodError): Partial<Record<K, string>> {
  const errors: Partial<Record<K, string>> = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && !(field in errors)) errors[field as K] = issue.message;
  }
  return errors;
}
