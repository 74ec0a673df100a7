import { BadRequestException, type PipeTransform } from '@nestjs/common';
import type { ApiError } from '@ppr/contracts';

/** For endpoints that take no body: nothing, or an empty JSON object; anything else is a 400. */
export class NoBodyPipe implements PipeTransform<unknown, undefined> {
  transform(value: unknown): undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) return undefined;
    throw new BadRequestException({ message: 'This request takes no body' } satisfies ApiError);
  }
}
