import { checkSync } from 'recheck';
import * as contracts from './index';

/**
 * Every pattern a request is checked against (the schemas' regex and format checks, zod's own email pattern
 * included) either runs in linear time, or only on a value whose length an earlier check bounded and that stops
 * the field's checks when it fails (`abort`). A pattern whose time grows with the square of the input let one
 * 95 KB phone number hold the server for ten seconds.
 */
interface Found {
  readonly where: string;
  readonly pattern: RegExp;
  /** An earlier check on the same value limits its length and ends the checks when it fails. */
  readonly bounded: number | undefined;
}

interface CheckDef {
  readonly check?: string;
  readonly pattern?: RegExp;
  readonly maximum?: number;
  readonly abort?: boolean;
}

interface SchemaLike {
  readonly _zod: { readonly def: Record<string, unknown> & { readonly checks?: readonly { _zod: { def: CheckDef } }[] } };
}

const isSchema = (value: unknown): value is SchemaLike =>
  typeof value === 'object' && value !== null && '_zod' in value && typeof (value as SchemaLike)._zod?.def === 'object';

function collect(schema: SchemaLike, where: string, found: Found[], seen: Set<unknown>): void {
  if (seen.has(schema)) return;
  seen.add(schema);
  const def = schema._zod.def;
  let bounded: number | undefined;
  for (const check of def.checks ?? []) {
    const checkDef = check._zod.def;
    if (checkDef.check === 'max_length' && checkDef.abort && checkDef.maximum !== undefined)
      bounded = Math.min(bounded ?? Infinity, checkDef.maximum);
    if (checkDef.pattern instanceof RegExp) found.push({ where, pattern: checkDef.pattern, bounded });
  }
  for (const [key, value] of Object.entries(def)) {
    if (key === 'checks') continue;
    const children = Array.isArray(value)
      ? value.map((child, index) => [`${key}[${index}]`, child] as const)
      : key === 'shape' && value && typeof value === 'object'
        ? Object.entries(value).map(([field, child]) => [field, child] as const)
        : [[key, value] as const];
    for (const [name, child] of children) if (isSchema(child)) collect(child, `${where}.${name}`, found, seen);
  }
  if (def.type === 'lazy' && typeof def.getter === 'function') collect(def.getter() as SchemaLike, `${where}.lazy`, found, seen);
}

const found: Found[] = [];
const seen = new Set<unknown>();
for (const [name, value] of Object.entries(contracts)) if (isSchema(value)) collect(value, name, found, seen);

const verdicts = new Map<string, ReturnType<typeof checkSync>>();
function verdictOf(pattern: RegExp) {
  const key = `/${pattern.source}/${pattern.flags}`;
  let verdict = verdicts.get(key);
  if (!verdict) {
    verdict = checkSync(pattern.source, pattern.flags);
    verdicts.set(key, verdict);
  }
  return verdict;
}

describe('the patterns requests are checked against', () => {
  it('are found in the schemas (the walk reaches the request forms)', () => {
    const where = found.map((entry) => entry.where);
    expect(where).toEqual(expect.arrayContaining(['supportRequestSchema.phone', 'contactFormSchema.phone', 'supportRequestSchema.email']));
    expect(found.length).toBeGreaterThan(10);
  });

  it('catch a pattern whose time grows with the square of the input (the check of this test)', () => {
    const before = /^[0-9+().\-\s]+(?:\s*(?:ext\.?|x)\s*\d{1,6})?$/i;
    expect(verdictOf(before)).toMatchObject({ status: 'vulnerable', complexity: { type: 'polynomial' } });
  });

  it.each(found.map((entry) => [entry.where, entry] as const))('%s: linear, or on a bounded value only', (_where, entry) => {
    const verdict = verdictOf(entry.pattern);
    if (verdict.status === 'safe') return;
    // Not linear: then only on a value whose length a check before it bounds, and not by much.
    expect({ pattern: String(entry.pattern), status: verdict.status, bounded: entry.bounded }).toEqual({
      pattern: String(entry.pattern),
      status: verdict.status,
      bounded: expect.any(Number),
    });
    expect(entry.bounded).toBeLessThanOrEqual(2000);
  });
});
