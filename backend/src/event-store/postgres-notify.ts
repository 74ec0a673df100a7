import { randomUUID } from 'node:crypto';
import type { Logger } from '@nestjs/common';
import { comparePositions, formatPosition, parsePosition } from '@ppr/projections';
import { Client, type Pool } from 'pg';
import type { Position } from './event-store.port';

const NOTIFY_CHANNEL = 'es_appended';

/**
 * NOTIFYs are coalesced: at most one in flight and at most one per this many ms; each carries the newest
 * position appended so far. Only other processes wait for them (this process wakes its own at once).
 */
const NOTIFY_INTERVAL_MS = 5;

/**
 * Presence: a store that LISTENs says `hello` when its LISTEN starts and `here` every this many ms (and in
 * answer to a hello). Appends are announced only while another store of the same schema was heard from in
 * the last PRESENCE_TTL_MS: a lone instance sends no NOTIFY at all.
 */
const PRESENCE_INTERVAL_MS = 10_000;
const PRESENCE_TTL_MS = 3 * PRESENCE_INTERVAL_MS;
/** How soon a lost LISTEN connection is opened again (and again, until that works). */
const RELISTEN_MS = 250;

/** The notifier's counters (a part of PostgresEventStoreStats). */
export interface NotifyStats {
  /** NOTIFY statements sent (coalesced: one covers every append committed while the previous was in flight). */
  notifiesSent: number;
  /** Notifications received from other processes (this process's own are ignored: no self-echo). */
  notificationsReceived: number;
  /** Presence messages (hello, here) sent and received: see PRESENCE_INTERVAL_MS. */
  presenceSent: number;
  presenceReceived: number;
}

export interface PostgresNotifierOptions {
  readonly pool: Pool;
  /** The dedicated LISTEN connection's connection string; without it, nothing is sent or heard. */
  readonly listenUrl: string | undefined;
  readonly logger: Pick<Logger, 'warn' | 'error'> | undefined;
  readonly stats: NotifyStats;
  /** Another process announced an append committed up to this position. */
  readonly onCommitted: (position: Position) => void;
  /** Subscribers should look now (an announcement came, or the LISTEN connection is back after a loss). */
  readonly onWake: () => void;
}

/**
 * The PostgreSQL adapter between processes: a LISTEN connection that hears other processes' appends, and
 * coalesced NOTIFYs that announce this process's own, sent only while another process is there to hear them.
 */
export class PostgresNotifier {
  private readonly pool: Pool;
  private readonly listenUrl: string | undefined;
  private readonly logger: Pick<Logger, 'warn' | 'error'> | undefined;
  private readonly stats: NotifyStats;
  private readonly onCommitted: (position: Position) => void;
  private readonly onWake: () => void;
  private listener: Client | undefined;
  private listenerStarting: Promise<void> | undefined;
  /** Tells this process's NOTIFYs from other processes' (its own are ignored when they come back). */
  private readonly instanceId = randomUUID();
  /** The schema this store works in, as the LISTEN connection sees it (notifications of other schemas are ignored). */
  private schema: string | undefined;
  private notifyInFlight = false;
  /** The newest own append not yet announced by a NOTIFY. */
  private notifyPending: Position | null = null;
  /** When another store of this schema was last heard from (Date.now()); 0: never. */
  private othersSeenAt = 0;
  private presenceTimer: NodeJS.Timeout | undefined;
  /** Whether the LISTEN connection is being opened again after a loss. */
  private relistening = false;
  private relistenTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(options: PostgresNotifierOptions) {
    this.pool = options.pool;
    this.listenUrl = options.listenUrl;
    this.logger = options.logger;
    this.stats = options.stats;
    this.onCommitted = options.onCommitted;
    this.onWake = options.onWake;
  }

  /** Tells other processes that this one's events up to `position` committed (coalesced; see `sendNotify`). */
  announce(position: Position): void {
    if (!this.listenUrl || !this.othersMayListen()) return;
    if (!this.notifyPending || comparePositions(position, this.notifyPending) > 0) this.notifyPending = position;
    this.sendNotify();
  }

  /**
   * The LISTEN connection, opened by the first subscriber and kept open: when it is lost (the server restarted, or
   * ended it) it is opened again every RELISTEN_MS until that works, and the subscribers are woken then, since the
   * notifications of the outage are lost: recovery within RELISTEN_MS of the server's return, not at the next
   * subscription or poll.
   */
  listen(): Promise<void> {
    if (this.listener || this.closed || !this.listenUrl) return Promise.resolve();
    this.listenerStarting ??= (async () => {
      // Named, so that an operator (and a test) can tell it in pg_stat_activity.
      const client = new Client({ connectionString: this.listenUrl, application_name: 'event-store-listener' });
      client.on('notification', (message) => this.received(message.payload));
      const lost = (reason: string): void => {
        if (this.listener !== client) return;
        this.logger?.warn(`Event store listener lost (${reason}); subscribers poll until it is back`);
        this.listener = undefined;
        this.listenerStarting = undefined;
        void client.end().catch(() => undefined);
        this.listenAgain();
      };
      client.on('error', (error) => lost(error.message));
      client.on('end', () => lost('connection ended'));
      try {
        await client.connect();
        this.schema = (await client.query<{ schema: string }>('SELECT current_schema() AS schema')).rows[0]!.schema;
        // A NOTIFY is a hint ("look again soon"), never a record: its commit need not wait for the WAL flush
        // (an fsync per notification cost the appends a fifth of their rate). A crash may lose the last
        // hints; the subscribers' poll covers that, and other processes learn of the events all the same.
        await client.query('SET synchronous_commit = off');
        await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
        if (this.closed) {
          await client.end();
          return;
        }
        this.listener = client;
        if (this.relistening) {
          this.relistening = false;
          this.logger?.warn('Event store listener back');
          // What was appended while it was away was announced to nobody here: look now.
          this.onWake();
        }
        this.sendPresence('hello');
        this.presenceTimer ??= setInterval(() => this.sendPresence('here'), PRESENCE_INTERVAL_MS).unref();
      } catch (error) {
        if (!this.relistening) this.logger?.warn(`Could not LISTEN for appends (${String(error)}); subscribers poll instead`);
        await client.end().catch(() => undefined);
        this.listenerStarting = undefined;
        this.listenAgain();
      }
    })();
    return this.listenerStarting;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.presenceTimer);
    clearTimeout(this.relistenTimer);
    const listener = this.listener;
    this.listener = undefined;
    if (listener) await listener.end().catch(() => undefined);
  }

  /**
   * Announces this process's appends to other processes: at most one NOTIFY in flight and one per
   * NOTIFY_INTERVAL_MS, carrying the newest position appended so far; appends committed meanwhile are
   * covered by the next one. Sent outside the appends' transactions (a notifying commit takes a
   * server-wide lock), on the LISTEN connection when there is one (it is otherwise idle), else through the
   * pool. The payload is
   * `<instance> <schema> <commit>/<prepare>`: the instance lets this process ignore its own notifications,
   * the schema lets stores of other schemas in the same database ignore it, and the position tells other
   * processes what to expect (a hint for "look again soon", never a checkpoint).
   */
  private sendNotify(): void {
    if (this.notifyInFlight || this.closed || !this.notifyPending) return;
    const position = this.notifyPending;
    this.notifyPending = null;
    this.notifyInFlight = true;
    this.stats.notifiesSent++;
    const sentAt = Date.now();
    const listener = this.listener;
    const query = {
      text: `SELECT pg_notify('${NOTIFY_CHANNEL}', concat_ws(' ', $1::text, current_schema(), $2::text))`,
      values: [this.instanceId, formatPosition(position)],
    };
    (listener ? listener.query(query) : this.pool.query(query))
      .catch((error: unknown) => this.logger?.warn(`Could not send the append notification: ${String(error)}`))
      .finally(() => {
        const again = (): void => {
          this.notifyInFlight = false;
          this.sendNotify();
        };
        const wait = NOTIFY_INTERVAL_MS - (Date.now() - sentAt);
        if (wait > 0 && this.notifyPending) setTimeout(again, wait).unref();
        else again();
      });
  }

  /**
   * Whether another process may be waiting for this one's NOTIFYs: yes while one was heard from lately, and
   * whenever this store cannot know (its LISTEN is not up: starting, lost).
   */
  private othersMayListen(): boolean {
    return this.listener === undefined || Date.now() - this.othersSeenAt < PRESENCE_TTL_MS;
  }

  /** Says `hello` (answer me) or `here` on the channel, through the LISTEN connection. */
  private sendPresence(kind: 'hello' | 'here'): void {
    const listener = this.listener;
    if (!listener || this.closed) return;
    this.stats.presenceSent++;
    listener
      .query({
        text: `SELECT pg_notify('${NOTIFY_CHANNEL}', concat_ws(' ', $1::text, current_schema(), $2::text))`,
        values: [this.instanceId, kind],
      })
      .catch((error: unknown) => this.logger?.warn(`Could not send the event store's presence: ${String(error)}`));
  }

  /**
   * A notification on the channel: another process appended, or says it is there (this process's own, and
   * those of stores in other schemas, are ignored).
   */
  private received(payload: string | undefined): void {
    const [instance, schema, position] = (payload ?? '').split(' ');
    if (instance === this.instanceId) return;
    if (schema !== undefined && this.schema !== undefined && schema !== this.schema) return;
    this.othersSeenAt = Date.now();
    if (position === 'hello' || position === 'here') {
      this.stats.presenceReceived++;
      if (position === 'hello') this.sendPresence('here');
      return;
    }
    this.stats.notificationsReceived++;
    if (position) {
      try {
        this.onCommitted(parsePosition(position));
      } catch {
        // Not a position (another version's payload): a plain wake-up.
      }
    }
    this.onWake();
  }

  private listenAgain(): void {
    if (this.closed || this.relistenTimer) return;
    this.relistening = true;
    this.relistenTimer = setTimeout(() => {
      this.relistenTimer = undefined;
      void this.listen();
    }, RELISTEN_MS);
    this.relistenTimer.unref();
  }
}
