import { Client } from 'pg';
import type { RunnerLogger } from './logger';

/**
 * Single-active: each projection runs in one process at a time. The checkpoint check in every batch
 * would already keep two runners from applying an event twice; the lock keeps the second one from
 * doing the work only to throw it away.
 */
export interface SingleActiveLock {
  /**
   * Takes the projection's lock unless another process holds it. Returns a signal that aborts when the
   * lock is lost (or released), or null when someone else has it. Taking a lock already held here
   * returns the same signal.
   */
  tryAcquire(projection: string): Promise<AbortSignal | null>;
  release(projection: string): Promise<void>;
  /** Releases every lock. */
  close(): Promise<void>;
}

/** Where one process owns the database (the embedded one) there is nobody to exclude: every lock is granted. */
export class SingleProcessLock implements SingleActiveLock {
  private readonly held = new Map<string, AbortController>();

  tryAcquire(projection: string): Promise<AbortSignal> {
    let controller = this.held.get(projection);
    if (!controller) this.held.set(projection, (controller = new AbortController()));
    return Promise.resolve(controller.signal);
  }

  release(projection: string): Promise<void> {
    this.held.get(projection)?.abort();
    this.held.delete(projection);
    return Promise.resolve();
  }

  close(): Promise<void> {
    for (const controller of this.held.values()) controller.abort();
    this.held.clear();
    return Promise.resolve();
  }
}

/**
 * Session-level PostgreSQL advisory locks, one per projection (and schema), all held by one dedicated
 * connection per runner: a session lock lives as long as its connection, so a process that dies or
 * loses its connection lets go of its projections without anyone cleaning up. Locks are not re-taken
 * while held here, since PostgreSQL counts re-entrant session locks and would need as many unlocks.
 */
export class AdvisoryLock implements SingleActiveLock {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private readonly held = new Map<string, AbortController>();
  /** The tail of this connection's queries: pg wants one at a time, and projections ask concurrently. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly connectionString: string,
    private readonly logger?: RunnerLogger,
  ) {}

  tryAcquire(projection: string): Promise<AbortSignal | null> {
    return this.serialized(async () => {
      const holding = this.held.get(projection);
      if (holding) return holding.signal;
      const client = await this.connection();
      const { rows } = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${LOCK_KEY}) AS locked`, [projection]);
      if (!rows[0]?.locked) return null;
      const controller = new AbortController();
      this.held.set(projection, controller);
      return controller.signal;
    });
  }

  release(projection: string): Promise<void> {
    return this.serialized(async () => {
      const controller = this.held.get(projection);
      if (!controller) return;
      this.held.delete(projection);
      controller.abort();
      await this.client?.query(`SELECT pg_advisory_unlock(${LOCK_KEY})`, [projection]);
    });
  }

  async close(): Promise<void> {
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    this.connecting = undefined;
    this.loseAll();
    await client?.end().catch(() => undefined);
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work, work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** One connection for all of this runner's locks, opened on first use and again after it is lost. */
  private connection(): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(): Promise<Client> {
    const client = new Client({ connectionString: this.connectionString });
    client.on('error', (error) => this.lost(client, error.message));
    client.on('end', () => this.lost(client, 'connection ended'));
    await client.connect();
    this.client = client;
    return client;
  }

  /** Locks die with their session: whoever followed a projection under them must stop. */
  private lost(client: Client, reason: string): void {
    if (this.client !== client) return;
    this.logger?.warn(`Projection lock connection lost (${reason}); its projections pause until locked again`);
    this.client = undefined;
    this.loseAll();
  }

  private loseAll(): void {
    for (const controller of this.held.values()) controller.abort();
    this.held.clear();
  }
}

/** The lock's key: the projection's name within the connection's schema, so test schemas do not collide. */
const LOCK_KEY = `hashtextextended('projection:' || current_schema() || ':' || $1, 0)`;
