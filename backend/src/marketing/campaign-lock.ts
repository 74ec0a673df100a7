import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import type { Database } from '../database/database';

/**
 * Single-active campaign sending across app instances: a session-level advisory lock on a dedicated
 * connection, so a process that dies (or loses its connection) lets go without anyone cleaning up, and a
 * standby takes over. The embedded database belongs to one process: nobody to exclude there.
 */
export class CampaignLock {
  private readonly logger = new Logger('CampaignLock');
  private client: Client | undefined;
  private held = false;

  constructor(private readonly db: Database) {}

  /** Whether this process may send now: holds the lock already, or has just taken it. */
  async acquire(): Promise<boolean> {
    if (this.db.kind === 'embedded') return true;
    if (this.held && this.client) return true;
    const client = this.client ?? (await this.connect());
    const { rows } = await client.query<{ locked: boolean }>(
      `SELECT pg_try_advisory_lock(hashtextextended('marketing-campaigns:' || current_schema(), 0)) AS locked`,
    );
    this.held = rows[0]?.locked === true;
    if (this.held) this.logger.log('This instance sends the marketing campaigns');
    return this.held;
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.held = false;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<Client> {
    const client = new Client({ connectionString: this.db.url });
    const lost = (reason: string) => {
      if (this.client !== client) return;
      if (this.held) this.logger.warn(`Campaign lock connection lost (${reason}); sending pauses until the lock is taken again`);
      this.client = undefined;
      this.held = false;
    };
    client.on('error', (error) => lost(error.message));
    client.on('end', () => lost('connection ended'));
    await client.connect();
    this.client = client;
    return client;
  }
}
