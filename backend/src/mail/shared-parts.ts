/**
 * Many messages of one statement share most of their bodies (a campaign's content around each recipient's
 * footer): sending that once instead of once per row spares the client, the socket and the server the copies.
 */
/** Whether a UTF-16 code unit is the first or second half of a surrogate pair (never split between parts). */
const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** The longest n <= max such that a and b begin with the same n code units. */
function commonPrefixLength(a: string, b: string, max: number): number {
  if (a.startsWith(b.slice(0, max))) return max;
  let low = 0;
  let high = max - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (a.startsWith(b.slice(0, mid))) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The longest n <= max such that a and b end with the same n code units. */
function commonSuffixLength(a: string, b: string, max: number): number {
  if (a.endsWith(b.slice(b.length - max))) return max;
  let low = 0;
  let high = max - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (a.endsWith(b.slice(b.length - mid))) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * Bodies split into what all of them begin and end with, and what is each one's own: every body is
 * `prefix + middle + suffix` (a null body stays null: its middle is null). Pure string work, on code-unit
 * boundaries that never split a surrogate pair.
 */
export function sharedParts(bodies: readonly (string | null)[]): { prefix: string; suffix: string; middles: (string | null)[] } {
  const present = bodies.filter((body): body is string => body !== null);
  if (present.length < 2) return { prefix: '', suffix: '', middles: [...bodies] };
  const first = present[0]!;
  let prefix = present.reduce((length, body) => Math.min(length, body.length), first.length);
  for (const body of present) {
    if (prefix === 0) break;
    prefix = commonPrefixLength(body, first, prefix);
  }
  if (prefix > 0 && isHighSurrogate(first.charCodeAt(prefix - 1))) prefix -= 1;
  let suffix = present.reduce((length, body) => Math.min(length, body.length), first.length) - prefix;
  for (const body of present) {
    if (suffix === 0) break;
    suffix = commonSuffixLength(body, first, suffix);
  }
  if (suffix > 0 && isLowSurrogate(first.charCodeAt(first.length - suffix))) suffix -= 1;
  return {
    prefix: first.slice(0, prefix),
    suffix: first.slice(first.length - suffix),
    middles: bodies.map((body) => (body === null ? null : body.slice(prefix, body.length - suffix))),
  };
}
