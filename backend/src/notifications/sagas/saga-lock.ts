import { Client } from 'pg';

/**
 * Single-active for the notification sagas across app instances, as for the projections: a session-level
 * advisory lock on a dedicated connection. A process that dies or loses the connection lets go at once, and
 * the signal tells this one to stop sending.
 */
export interface SagaLock {
  /** The lock's signal (aborted when it is lost), or null while another process holds it. */
  tryAcquire(): Promise<AbortSignal | null>;
  close(): Promise<void>;
}

/** The embedded database has one owning process: nobody to exclude. */
export class SingleProcessSagaLock implements SagaLock {
  private readonly controller = new AbortController();

  tryAcquire(): Promise<AbortSignal> {
    return Promise.resolve(this.controller.signal);
  }

  close(): Promise<void> {
    this.controller.abort();
    return Promise.resolve();
  }
}

export class AdvisorySagaLock implements SagaLock {
  private client: Client | undefined;
  private controller: AbortController | undefined;

  constructor(
    private readonly connectionString: string,
    private readonly name: string,
  ) {}

  async tryAcquire(): Promise<AbortSignal | null> {
    if (this.controller && !this.controller.signal.aborted) return this.controller.signal;
    const client = this.client ?? (await this.connect());
    const { rows } = await client.query<{ locked: boolean }>(
      `SELECT pg_try_advisory_lock(hashtextextended('notifications:' || current_schema() || ':' || $1, 0)) AS locked`,
      [this.name],
    );
    if (!rows[0]?.locked) return null;
    this.controller = new AbortController();
    return this.controller.signal;
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.controller?.abort();
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<Client> {
    const client = new Client({ connectionString: this.connectionString });
    const lost = (): void => {
      if (this.client !== client) return;
      this.client = undefined;
      this.controller?.abort();
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    this.client = client;
    return client;
  }
}
