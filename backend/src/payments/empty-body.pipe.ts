import { BadRequestException, type PipeTransform } from '@nestjs/common';
import type { ApiError } from '@ppr/contracts';

/** create-diagnostic-fee-payment takes no body (SPEC: "empty"): nothing, or an empty JSON object; else a 400. */
export class EmptyBodyPipe implements PipeTransform<unknown, undefined> {
  transform(value: unknown): undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) return undefined;
    throw new BadRequestException({ message: 'This request takes no body' } satisfies ApiError);
  }
}
