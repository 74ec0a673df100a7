import { BadRequestException, type PipeTransform } from '@nestjs/common';
import type { ApiError } from '@ppr/contracts';
import type { z } from 'zod';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Turns zod issues into the API's `errors` list: one entry per field, the first message of each. */
export function toFieldErrors(error: z.ZodError): NonNullable<ApiError['errors']> {
  const errors: NonNullable<ApiError['errors']> = [];
  const seen = new Set<string>();
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const path = [...issue.path, key].join('.');
        if (!seen.has(path)) errors.push({ path, message: `Unknown field "${key}"` });
        seen.add(path);
      }
      continue;
    }
    const path = issue.path.map(String).join('.');
    if (seen.has(path)) continue;
    seen.add(path);
    errors.push({ path, message: issue.message });
  }
  return errors;
}

/** Validates a request body with a contracts schema: a 400 in the API's error shape, or the parsed value. */
export class ZodBodyPipe<S extends z.ZodType> implements PipeTransform<unknown, z.infer<S>> {
  constructor(private readonly schema: S) {}

  transform(value: unknown): z.infer<S> {
    if (!isPlainObject(value)) {
      throw new BadRequestException({ message: 'The request body must be a JSON object' } satisfies ApiError);
    }
    const result = this.schema.safeParse(value);
    if (result.success) return result.data;
    const errors = toFieldErrors(result.error);
    throw new BadRequestException({ message: errors.map((e) => e.message).join('; '), errors } satisfies ApiError);
  }
}
