import type { PipeTransform } from '@nestjs/common';
import type { z } from 'zod';
import { ZodBodyPipe } from '../common/zod-validation.pipe';

/**
 * For endpoints whose body has only optional fields (the free-diagnostic and $0 dialogs, refunds): no body
 * at all is the empty object; anything sent is validated like any body.
 */
export class OptionalBodyPipe<S extends z.ZodType> implements PipeTransform<unknown, z.infer<S>> {
  private readonly body: ZodBodyPipe<S>;

  constructor(schema: S) {
    this.body = new ZodBodyPipe(schema);
  }

  transform(value: unknown): z.infer<S> {
    return this.body.transform(value === undefined || value === null ? {} : value);
  }
}
