/** Where a customer lands after logging in when no (usable) `returnTo` was given. */
export const DEFAULT_AFTER_LOGIN = '/customer/dashboard';

// Control characters (tabs and newlines are dropped by URL parsers, so "/\t/evil.com" becomes "//evil.com").
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * The `returnTo` query value if it is a path of this site, else null. Only a relative path that starts with a
 * single "/" is honoured: "//host" and "/\host" are protocol-relative in browsers, "https:", "javascript:" and
 * other schemes leave the site, and percent-encoded forms of those ("%2F%2F", "%5C") are decoded first, in case a
 * later step decodes again. The result is resolved against a dummy origin and must stay on it, and its resolved
 * path must not begin with "//" either (dot segments: "/.//host").
 */
export function safeReturnTo(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let decoded = raw;
  // Decode repeatedly (bounded) so double-encoded tricks are seen too; an undecodable value is refused.
  for (let round = 0; round < 3; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      return null;
    }
    if (next === decoded) break;
    decoded = next;
  }
  for (const candidate of [raw, decoded]) {
    if (!candidate.startsWith('/')) return null;
    if (candidate.startsWith('//')) return null;
    if (candidate.includes('\\')) return null;
    if (CONTROL_CHARACTERS.test(candidate)) return null;
  }
  const base = 'http://return-to.invalid';
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.origin !== base) return null;
  // Dot segments resolve away: "/.//evil.example" and "/a/..//evil.example" stay on the base here, but their path
  // is "//evil.example", protocol-relative once the browser is given it (the decoded value too, as above).
  if ([raw, decoded].some((candidate) => resolvedPath(candidate, base).startsWith('//'))) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The path `value` resolves to on `base` (dot segments removed), or '//' when it does not parse. */
function resolvedPath(value: string, base: string): string {
  try {
    return new URL(value, base).pathname;
  } catch {
    return '//';
  }
}

/** `path?returnTo=...`, or `path` alone when there is nothing safe to return to. */
export function withReturnTo(path: string, returnTo: string | null): string {
  return returnTo ? `${path}?returnTo=${encodeURIComponent(returnTo)}` : path;
}
