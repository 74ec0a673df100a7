/**
 * Which failures are worth retrying. Only a lost or refused connection, a server short of resources or
 * shutting down, and the serialization failures PostgreSQL asks clients to retry are transient: the same
 * work succeeds later. Anything else (a constraint violation, a bad value, a bug in a projection) fails
 * again on every retry, so retrying it would only spin; the runner stops that projection instead.
 */

/** SQLSTATE classes: 08 connection exception, 53 insufficient resources, 57 operator intervention. */
const TRANSIENT_SQLSTATE_CLASSES: ReadonlySet<string> = new Set(['08', '53', '57']);
/** serialization_failure, deadlock_detected. */
const TRANSIENT_SQLSTATES: ReadonlySet<string> = new Set(['40001', '40P01']);

/** Node's socket and name-resolution errors: the server could not be reached or went away. */
const SOCKET_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * node-postgres reports a connection that ended, or could not be had in time, with plain errors that
 * carry neither a SQLSTATE nor a socket code; their messages are all there is to go by.
 */
const CONNECTION_LOST_MESSAGES: readonly RegExp[] = [
  /^Connection terminated/, // "... unexpectedly", "... due to connection timeout"
  /is not queryable$/, // "Client has encountered a connection error and is not queryable", "Client was closed ..."
  /^timeout exceeded when trying to connect$/, // pg-pool's connectionTimeoutMillis
  /^Query read timeout$/, // query_timeout
];

const SQLSTATE = /^[0-9A-Z]{5}$/;

function codeOf(error: object): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

function isTransientItself(error: object): boolean {
  const code = codeOf(error);
  // Socket codes first: 'EPIPE' would also pass for a SQLSTATE.
  if (code !== undefined && SOCKET_ERROR_CODES.has(code)) return true;
  if (code !== undefined && SQLSTATE.test(code)) {
    return TRANSIENT_SQLSTATE_CLASSES.has(code.slice(0, 2)) || TRANSIENT_SQLSTATES.has(code);
  }
  const message = error instanceof Error ? error.message : '';
  return CONNECTION_LOST_MESSAGES.some((pattern) => pattern.test(message));
}

/**
 * True when `error` (or what it wraps: `cause`, or the attempts of an AggregateError, which is how Node
 * reports a refused connection to a host with several addresses) is a transient failure.
 */
export function isTransientError(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  if (isTransientItself(error)) return true;
  if (error instanceof AggregateError && error.errors.some((inner) => isTransientError(inner, depth + 1))) return true;
  return 'cause' in error && isTransientError(error.cause, depth + 1);
}

/**
 * Runs `work` again while it fails with a transient error (the database away for a moment), every `pauseMs`,
 * for at most `patienceMs`; any other failure, or one past the patience, is thrown. For writes that record what
 * already happened outside (an email sent): losing the record would send it again later.
 */
export async function retryTransient<T>(
  work: () => Promise<T>,
  options: { readonly patienceMs: number; readonly pauseMs?: number },
): Promise<T> {
  const deadline = Date.now() + options.patienceMs;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (!isTransientError(error) || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, options.pauseMs ?? 250));
    }
  }
}
