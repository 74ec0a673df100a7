import { BadRequestException } from '@nestjs/common';
import { z } from 'zod';
import { ZodBodyPipe } from './zod-validation.pipe';

const schema = z.strictObject({
  name: z.string().min(1).max(5),
  count: z.number().int().positive().max(10),
  tags: z.array(z.string()).min(2).max(3),
  kind: z.enum(['a', 'b']),
  exact: z.literal('yes').optional(),
  flag: z.boolean().optional(),
  nested: z.strictObject({ inner: z.string() }).optional(),
  own: z.string({ error: 'Own must be text' }).min(3, 'Own is too short').optional(),
});

/** The API's error list for a body the schema refuses. */
function errorsOf(body: Record<string, unknown>): Record<string, string> {
  try {
    new ZodBodyPipe(schema).transform(body);
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    const answer = (error as BadRequestException).getResponse() as { errors: { path: string; message: string }[] };
    return Object.fromEntries(answer.errors.map((entry) => [entry.path, entry.message]));
  }
  throw new Error('The body was accepted');
}

const valid = { name: 'ab', count: 3, tags: ['x', 'y'], kind: 'a' };

describe('ZodBodyPipe messages', () => {
  it("says zod's generic messages again, naming the field and what it must be", () => {
    expect(errorsOf({ name: ['x'], count: 'many', tags: 'x', kind: 'c', exact: 'no', flag: 'yes', nested: 'n' })).toEqual({
      name: 'name must be text',
      count: 'count must be a number',
      tags: 'tags must be a list',
      kind: 'kind must be one of: a, b',
      exact: 'exact must be yes',
      flag: 'flag must be true or false',
      nested: 'nested must be an object',
    });
    expect(errorsOf({ ...valid, nested: { inner: 4 } })).toEqual({ 'nested.inner': 'nested.inner must be text' });
  });

  it('says sizes and bounds with their units', () => {
    expect(errorsOf({ ...valid, name: '', count: 0, tags: ['x'] })).toEqual({
      name: 'name must not be empty',
      count: 'count must be more than 0',
      tags: 'tags must have at least 2 items',
    });
    expect(errorsOf({ ...valid, name: 'abcdef', count: 11, tags: ['x', 'y', 'z', 'w'] })).toEqual({
      name: 'name must have at most 5 characters',
      count: 'count must be at most 10',
      tags: 'tags must have at most 3 items',
    });
    expect(errorsOf({ ...valid, count: 1.5 })).toEqual({ count: 'count must be a whole number' });
  });

  it("keeps a schema's own messages and names unknown fields", () => {
    expect(errorsOf({ ...valid, own: 5 })).toEqual({ own: 'Own must be text' });
    expect(errorsOf({ ...valid, own: 'ab' })).toEqual({ own: 'Own is too short' });
    expect(errorsOf({ ...valid, extra: 1 })).toEqual({ extra: 'Unknown field "extra"' });
  });
});
