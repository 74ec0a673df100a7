import { BadRequestException, type PipeTransform } from '@nestjs/common';
import type { ApiError } from '@ppr/contracts';
import type { z } from 'zod';
import { toFieldErrors } from './zod-validation.pipe';

/**
 * Validates a query string with a contracts schema: the parsed value, or a 400 in the API's error shape
 * naming each bad parameter. Nothing unvalidated reaches a query builder, so bad input is never a SQL error.
 */
export class ZodQueryPipe<S extends z.ZodType> implements PipeTransform<unknown, z.infer<S>> {
  constructor(private readonly schema: S) {}

  transform(value: unknown): z.infer<S> {
    const result = this.schema.safeParse(value ?? {});
    if (result.success) return result.data;
    // A query has parameters, not fields: say so in the message of an unknown one.
    const errors = toFieldErrors(result.error).map((error) => ({
      ...error,
      message: error.message.replace(/^Unknown field /, 'Unknown query parameter '),
    }));
    throw new BadRequestException({ message: errors.map((e) => e.message).join('; '), errors } satisfies ApiError);
  }
}
