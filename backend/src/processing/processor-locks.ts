import { Client } from 'pg';
import type { Lease } from './processor.port';

export type { Lease } from './processor.port';

/** What the locks log. */
export interface LockLogger {
  log(message: string): void;
  warn(message: string): void;
}

/**
 * Single-active processors across processes: each processor runs where its lock is held. One implementation
 * for every processor (read models, reactors, workers); the lock's generation in processor_checkpoints is
 * the fencing token that makes a lost lock harmless (processor-checkpoints.ts).
 */
export interface ProcessorLocks {
  /** Takes the lock unless another process holds it (null). Taking a lock held here answers the same lease. */
  acquire(name: string): Promise<Lease | null>;
  release(name: string): Promise<void>;
  /**
   * Resolves when a lock may have become free (another process released one, or the lock connection came back
   * after a failure), after `ms` at the latest, or when `signal` aborts: a standby waits on it between tries.
   */
  changed(ms: number, signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

/** Where one process owns the database (the embedded one) there is nobody to exclude: every lock is granted. */
export class InProcessLocks implements ProcessorLocks {
  private readonly held = new Map<string, AbortController>();
  private readonly waiters = new Set<() => void>();

  acquire(name: string): Promise<Lease> {
    let controller = this.held.get(name);
    if (!controller) this.held.set(name, (controller = new AbortController()));
    const signal = controller.signal;
    return Promise.resolve({ name, signal, valid: () => !signal.aborted });
  }

  release(name: string): Promise<void> {
    this.held.get(name)?.abort();
    this.held.delete(name);
    for (const wake of [...this.waiters]) wake();
    return Promise.resolve();
  }

  changed(ms: number, signal: AbortSignal): Promise<void> {
    return waitFor(this.waiters, ms, signal);
  }

  close(): Promise<void> {
    for (const controller of this.held.values()) controller.abort();
    this.held.clear();
    for (const wake of [...this.waiters]) wake();
    return Promise.resolve();
  }
}

function waitFor(waiters: Set<() => void>, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      waiters.delete(done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    waiters.add(done);
    signal.addEventListener('abort', done, { once: true });
  });
}

export interface AdvisoryLocksOptions {
  /** A connection string for the dedicated lock connection (the app's database, its schema selected). */
  readonly connectionString: string;
  readonly logger?: LockLogger;
  /** How often the lock connection is asked whether it still answers while it holds a lock (default 1000 ms). */
  readonly heartbeatMs?: number;
  /**
   * The lease: a lock counts as held only while the lock connection answered within this long (default
   * 3000 ms). A connection that hangs (a network cut, a server that stopped answering) loses its locks here
   * at the latest, even before the socket reports anything; the server lets them go only when it notices the
   * connection is gone, which is later, so two processes never believe they hold one lock.
   */
  readonly leaseMs?: number;
}

const CHANNEL = 'processor_locks';

/**
 * PostgreSQL session-level advisory locks, one per processor (and schema), all held by one dedicated
 * connection per process. A lock lives as long as its connection: a process that dies, or whose connection
 * the server ends (a restart, `pg_terminate_backend`), lets go of its locks at once, without anyone cleaning
 * up. The connection is asked every `heartbeatMs` whether it still answers; without an answer within the
 * lease, every lock counts as lost. A release is announced on a channel the same connection listens to, so a
 * standby takes over at once (a rolling restart) instead of at its next try.
 */
export class AdvisoryProcessorLocks implements ProcessorLocks {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private readonly held = new Map<string, AbortController>();
  private readonly waiters = new Set<() => void>();
  /** pg wants one query at a time per client; processors ask concurrently. */
  private queue: Promise<unknown> = Promise.resolve();
  private heartbeat: NodeJS.Timeout | undefined;
  private lastAnswer = 0;
  private closed = false;
  /** Whether the last connection attempt failed (its recovery is announced to waiters). */
  private down = false;
  private readonly heartbeatMs: number;
  private readonly leaseMs: number;

  constructor(private readonly options: AdvisoryLocksOptions) {
    this.heartbeatMs = options.heartbeatMs ?? 1000;
    this.leaseMs = options.leaseMs ?? 3000;
  }

  acquire(name: string): Promise<Lease | null> {
    return this.serialized(async () => {
      const holding = this.held.get(name);
      if (holding && !holding.signal.aborted) return this.lease(name, holding.signal);
      const client = await this.connection();
      const { rows } = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${LOCK_KEY}) AS locked`, [name]);
      this.lastAnswer = Date.now();
      if (!rows[0]?.locked) return null;
      const controller = new AbortController();
      this.held.set(name, controller);
      this.startHeartbeat();
      return this.lease(name, controller.signal);
    });
  }

  release(name: string): Promise<void> {
    return this.serialized(async () => {
      const controller = this.held.get(name);
      if (!controller) return;
      this.held.delete(name);
      controller.abort();
      const client = this.client;
      if (!client) return;
      await client.query(`SELECT pg_advisory_unlock(${LOCK_KEY})`, [name]);
      // Standbys try at once rather than at their next look.
      await client.query(`SELECT pg_notify('${CHANNEL}', current_schema())`);
    });
  }

  changed(ms: number, signal: AbortSignal): Promise<void> {
    return waitFor(this.waiters, ms, signal);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    this.connecting = undefined;
    this.loseAll();
    this.wakeWaiters();
    // Ending the session lets go of every lock it holds.
    await client?.end().catch(() => undefined);
  }

  private lease(name: string, signal: AbortSignal): Lease {
    return { name, signal, valid: () => !signal.aborted && Date.now() - this.lastAnswer < this.leaseMs };
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work, work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** The lock connection, opened on first use and again after it was lost. */
  private connection(): Promise<Client> {
    if (this.closed) return Promise.reject(new Error('The processor locks are closed'));
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(): Promise<Client> {
    const client = new Client({
      connectionString: this.options.connectionString,
      query_timeout: this.leaseMs * 2,
      // Named, so that an operator (and a test) can tell it in pg_stat_activity.
      application_name: 'processor-locks',
    });
    client.on('error', (error) => this.lost(client, error.message));
    client.on('end', () => this.lost(client, 'connection ended'));
    client.on('notification', (message) => {
      if (message.channel === CHANNEL) this.wakeWaiters();
    });
    try {
      await client.connect();
      const { rows } = await client.query<{ schema: string }>('SELECT current_schema() AS schema');
      const schema = rows[0]!.schema;
      await client.query(`LISTEN ${CHANNEL}`);
      // Released locks of other schemas (other test files, other apps on the server) are not ours to take.
      client.removeAllListeners('notification');
      client.on('notification', (message) => {
        if (message.channel === CHANNEL && message.payload === schema) this.wakeWaiters();
      });
    } catch (error) {
      await client.end().catch(() => undefined);
      if (!this.down) this.options.logger?.warn(`Processor locks: cannot connect (${messageOf(error)}); trying again`);
      this.down = true;
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      throw new Error('The processor locks are closed');
    }
    if (this.down) {
      this.down = false;
      this.options.logger?.log('Processor locks: connected again');
    }
    this.client = client;
    this.lastAnswer = Date.now();
    return client;
  }

  private startHeartbeat(): void {
    this.heartbeat ??= setInterval(() => this.beat(), this.heartbeatMs);
    this.heartbeat.unref();
  }

  private beat(): void {
    const client = this.client;
    if (this.held.size === 0 || !client) return;
    if (Date.now() - this.lastAnswer >= this.leaseMs) {
      this.lost(client, `no answer within ${this.leaseMs} ms`);
      return;
    }
    void this.serialized(async () => {
      if (this.client !== client) return;
      await client.query('SELECT 1');
      this.lastAnswer = Date.now();
    }).catch((error: unknown) => this.lost(client, messageOf(error)));
  }

  /** Locks die with their session: whoever worked under them must stop. */
  private lost(client: Client, reason: string): void {
    if (this.client !== client) return;
    this.client = undefined;
    if (this.held.size > 0) this.options.logger?.warn(`Processor locks lost (${reason}); their processors pause until locked again`);
    this.loseAll();
    // The server ends the session when it can; ending it here as well lets go at once where it still answers.
    void client.end().catch(() => undefined);
    this.wakeWaiters();
  }

  private loseAll(): void {
    for (const controller of this.held.values()) controller.abort();
    this.held.clear();
  }

  private wakeWaiters(): void {
    for (const wake of [...this.waiters]) wake();
  }
}

/** The lock's key: the processor's name within the connection's schema, so test schemas do not collide. */
const LOCK_KEY = `hashtextextended('processor:' || current_schema() || ':' || $1, 0)`;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
