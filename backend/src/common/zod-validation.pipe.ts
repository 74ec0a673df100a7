import { BadRequestException, type PipeTransform } from '@nestjs/common';
import type { ApiError } from '@ppr/contracts';
import type { z } from 'zod';

/** A body that is no JSON object: not sent as JSON (a form, text), or JSON of another shape. */
export const JSON_OBJECT_REQUIRED = 'The request body must be a JSON object, sent with Content-Type: application/json';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a field must be, by zod's name for the type it expected. */
const EXPECTED: Readonly<Record<string, string>> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  date: 'a date',
};

/** The units of a size limit, by what was measured. */
const UNITS: Readonly<Record<string, string>> = { string: 'characters', array: 'items', set: 'items', file: 'bytes' };

/**
 * An issue's message for the API: the schema's own where it gave one; zod's generic wording ("Invalid input:
 * expected string, received array") said again naming the field. A schema's message never starts like zod's.
 */
function messageOf(issue: z.core.$ZodIssue, path: string): string {
  const field = path === '' ? 'The value' : path;
  switch (issue.code) {
    case 'invalid_type':
      return issue.message.startsWith('Invalid input:') ? `${field} must be ${EXPECTED[issue.expected] ?? issue.expected}` : issue.message;
    case 'invalid_value':
      if (!issue.message.startsWith('Invalid option:') && !issue.message.startsWith('Invalid input:')) return issue.message;
      return issue.values.length === 1
        ? `${field} must be ${String(issue.values[0])}`
        : `${field} must be one of: ${issue.values.map(String).join(', ')}`;
    case 'too_small':
    case 'too_big': {
      if (!issue.message.startsWith('Too small:') && !issue.message.startsWith('Too big:')) return issue.message;
      const limit = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      const bound = issue.code === 'too_small' ? (issue.inclusive ? 'at least' : 'more than') : issue.inclusive ? 'at most' : 'less than';
      const unit = UNITS[issue.origin];
      if (!unit) return `${field} must be ${bound} ${String(limit)}`;
      if (issue.code === 'too_small' && issue.inclusive && Number(limit) === 1) return `${field} must not be empty`;
      return `${field} must have ${bound} ${String(limit)} ${Number(limit) === 1 ? unit.slice(0, -1) : unit}`;
    }
    default:
      return issue.message;
  }
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
    errors.push({ path, message: messageOf(issue, path) });
  }
  return errors;
}

/** Validates a request body with a contracts schema: a 400 in the API's error shape, or the parsed value. */
export class ZodBodyPipe<S extends z.ZodType> implements PipeTransform<unknown, z.infer<S>> {
  constructor(private readonly schema: S) {}

  transform(value: unknown): z.infer<S> {
    if (!isPlainObject(value)) {
      throw new BadRequestException({ message: JSON_OBJECT_REQUIRED } satisfies ApiError);
    }
    const result = this.schema.safeParse(value);
    if (result.success) return result.data;
    const errors = toFieldErrors(result.error);
    throw new BadRequestException({ message: errors.map((e) => e.message).join('; '), errors } satisfies ApiError);
  }
}

/** ZodBodyPipe for a body that may be left out: none (or JSON null) is read as `{}`. */
export class OptionalZodBodyPipe<S extends z.ZodType> extends ZodBodyPipe<S> {
  override transform(value: unknown): z.infer<S> {
    return super.transform(value === undefined || value === null ? {} : value);
  }
}
