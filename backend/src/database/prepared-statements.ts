import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';

/** A text is named from its second use: one-off statements (setup, DDL) are not kept on the server. */
export const NAME_FROM_USE = 2;
/**
 * At most this many texts get a name: each connection keeps at most as many prepared statements, and the
 * server keeps each one's plan in that connection's memory. The app's statements are well under it; texts
 * that vary (an IN list of another length) stop being named once it is reached.
 */
export const MAX_NAMED_TEXTS = 300;
/** At most this many texts are counted while they wait for their second use. */
const MAX_COUNTED_TEXTS = 5000;

/**
 * Which statement texts are run as named (prepared) statements. PostgreSQL parses, analyses and plans an
 * unnamed statement at every execution; a named one once per connection (after five executions it
 * usually keeps a generic plan). On this app's write path that work was about a third of the server's CPU.
 *
 * Only statements with parameters are named: they already use the extended protocol, so they are single
 * statements, and their text does not carry values (a text with values inlined would be a new name each
 * time). A text gets its name on its second use and keeps it; the name is a hash of the text, so one name
 * always means one text, on every connection. Bounded: MAX_NAMED_TEXTS names, after which new texts stay
 * unnamed.
 *
 * A prepared statement's result columns are fixed: when a table's columns change under it (a migration of
 * another process) PostgreSQL refuses it with "cached plan must not change result type" (0A000); that text
 * is then never named again, so the statement fails once and runs unnamed afterwards.
 */
export class StatementNames {
  private readonly counts = new Map<string, number>();
  private readonly names = new Map<string, string>();
  private readonly refused = new Set<string>();

  /** The name to run `text` under, or undefined to run it unnamed. */
  nameFor(text: string): string | undefined {
    const name = this.names.get(text);
    if (name !== undefined) return name;
    if (this.refused.has(text) || this.names.size >= MAX_NAMED_TEXTS) return undefined;
    const uses = (this.counts.get(text) ?? 0) + 1;
    if (uses < NAME_FROM_USE) {
      if (this.counts.size < MAX_COUNTED_TEXTS) this.counts.set(text, uses);
      return undefined;
    }
    this.counts.delete(text);
    const named = `s_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    this.names.set(text, named);
    return named;
  }

  /** Never names `text` again (its prepared statement was refused). */
  refuse(text: string): void {
    this.names.delete(text);
    this.refused.add(text);
  }

  get size(): number {
    return this.names.size;
  }
}

type Callback = (error: Error | null, result?: unknown) => void;
interface QueryConfigLike {
  readonly text: string;
  readonly values?: unknown[];
  readonly name?: string;
  readonly submit?: unknown;
  readonly callback?: unknown;
}

function isCachedPlanChange(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === '0A000' &&
    /cached plan must not change result type/i.test(String((error as { message?: unknown }).message))
  );
}

/**
 * A connection re-prepares a named statement after this many runs of it. PostgreSQL plans a named
 * statement for its parameters five times, then usually keeps one generic plan, made for the tables as
 * they were then, until something invalidates it (an ANALYZE, DDL). A table that was nearly empty when the
 * plan was made (a new install, a benchmark's fresh schema) got sequential scans and hash joins that stayed
 * while it grew (seen: 575 scans of every email job in 20 s). Re-preparing every this many runs keeps the
 * plan within that many runs of the tables as they are, for six plannings each time instead of one per run.
 */
export const REPREPARE_AFTER_RUNS = 200;

/** pg's record of the statements it has prepared on a connection (internal; absent: no re-preparing). */
function preparedRecord(client: PoolClient): Record<string, string> | undefined {
  const record = (client as unknown as { connection?: { parsedStatements?: unknown } }).connection?.parsedStatements;
  return typeof record === 'object' && record !== null ? (record as Record<string, string>) : undefined;
}

/** Runs `client`'s parameterized statements as named ones, as `names` says. */
export function namePreparedStatements(client: PoolClient, names: StatementNames): void {
  const original = client.query.bind(client) as (...args: unknown[]) => unknown;
  /** Runs of each named statement on this connection since it was prepared. */
  const runs = new Map<string, number>();
  const patched = (config: unknown, values?: unknown, callback?: unknown): unknown => {
    let text: string | undefined;
    let params: unknown[] | undefined;
    let rest: unknown = callback;
    if (typeof config === 'string' && Array.isArray(values)) {
      text = config;
      params = values;
    } else if (
      typeof config === 'object' &&
      config !== null &&
      typeof (config as QueryConfigLike).text === 'string' &&
      (config as QueryConfigLike).name === undefined &&
      (config as QueryConfigLike).submit === undefined &&
      (config as QueryConfigLike).callback === undefined
    ) {
      const given = config as QueryConfigLike;
      text = given.text;
      params = Array.isArray(values) ? values : given.values;
      rest = typeof values === 'function' ? values : callback;
    }
    const name = text !== undefined && params !== undefined && params.length > 0 ? names.nameFor(text) : undefined;
    if (name === undefined || text === undefined) return original(config, values, callback);
    const named = typeof config === 'object' && config !== null ? { ...config, name, values: params } : { name, text, values: params };
    const statement = text;
    const count = (runs.get(name) ?? 0) + 1;
    const record = preparedRecord(client);
    const reprepare = count > REPREPARE_AFTER_RUNS && record?.[name] !== undefined;
    runs.set(name, reprepare ? 1 : count);
    const run = (): Promise<unknown> => {
      if (!reprepare) return original(named) as Promise<unknown>;
      // Dropped on the server, then forgotten by pg, which parses it again under the same name.
      return (original(`DEALLOCATE "${name}"`) as Promise<unknown>).then(() => {
        delete record[name];
        return original(named);
      });
    };
    const result = run().catch((error: unknown) => {
      if (isCachedPlanChange(error)) names.refuse(statement);
      throw error;
    });
    if (typeof rest !== 'function') return result;
    result.then(
      (value) => (rest as Callback)(null, value),
      (error: unknown) => (rest as Callback)(error instanceof Error ? error : new Error(String(error))),
    );
    return undefined;
  };
  client.query = patched as PoolClient['query'];
}

/** Every connection `pool` opens from now on runs its parameterized statements as named ones. */
export function namePoolStatements(pool: Pool, names: StatementNames = new StatementNames()): StatementNames {
  pool.on('connect', (client) => namePreparedStatements(client, names));
  return names;
}
