import { randomUUID } from 'node:crypto';
import type { Worker, WorkerContext } from './processor.port';
import { isTransientError } from '../common/transient-errors';

/**
 * How long a claim is this process's: nobody else takes the job before, and this process starts no send for it
 * after half of it (a stalled event loop, a slow claim). Long enough to outlast a database restart or a 20 s
 * stop, so that the sends in flight then are recorded by this process when the database is back, instead of
 * being sent again by another; short enough that a job whose process died is sent by another a minute later.
 */
export const CLAIM_TTL_MS = 60_000;

/**
 * How old a claim must be before it may be taken from a process that is gone (its claimant lock is free), and
 * how long the database server must have been up: a process that lost its connections in a restart takes its
 * claimant lock again within a second of the server's return, so only a process that is really gone loses its
 * claims before they expire. A crash's emails go out some ten seconds later, not a minute later.
 */
export const STALE_CLAIM_AGE_MS = 10_000;

/** The lock a claiming process holds while it claims: its claims are taken early only when nobody holds it. */
export function claimantLockName(claimant: string): string {
  return `claimant:${claimant}`;
}

/**
 * The SQL condition under which `row`'s claim is free for `claimant` (a parameter or literal of the statement):
 * never claimed, expired, or made at least STALE_CLAIM_AGE_MS ago (its expiry `ttlMs` after the claim) by a
 * process whose claimant lock nobody holds, the server having been up that long. On the embedded database the
 * app is the one process there is: any other claimant is a life of it that ended.
 */
export function claimIsFree(row: string, claimant: string, ttlMs: number, kind: 'postgres' | 'embedded'): string {
  const gone =
    kind === 'embedded'
      ? 'true'
      : `NOT EXISTS (SELECT 1 FROM pg_locks AS l WHERE l.locktype = 'advisory' AND l.granted
           AND ((l.classid::int8 << 32) | l.objid::int8) = hashtextextended('processor:' || current_schema() || ':claimant:' || ${row}.claimed_by, 0))`;
  return `(${row}.claimed_until IS NULL OR ${row}.claimed_until < now()
    OR (${row}.claimed_by <> ${claimant}
        AND ${row}.claimed_until < now() + make_interval(secs => ${(ttlMs - STALE_CLAIM_AGE_MS) / 1000})
        AND pg_postmaster_start_time() < now() - make_interval(secs => ${STALE_CLAIM_AGE_MS / 1000})
        AND ${gone}))`;
}

/** A job of an outbox, claimed by this process: its claim's token fences the record of its outcome. */
export interface ClaimedJob {
  /** Unique within its outbox (an idempotency key, a delivery id). */
  readonly key: string;
  /** Drawn at the claim; the outcome is recorded only while the job still carries it (nobody claimed it since). */
  readonly claimToken: number;
}

/** What a claim gave: the jobs, and how long until the next pending one is due (null: none waits). */
export interface Claim<J> {
  readonly jobs: readonly J[];
  readonly nextInMs: number | null;
}

/** What a delivery came to: an outcome to record, or nothing sent at all (the job goes back, unchanged). */
export type Delivery<O> = { readonly sent: true; readonly outcome: O } | { readonly sent: false; readonly reason: string };

/**
 * One kind of side effect behind the outbox sender (emails, webhook deliveries, campaign batches): where its
 * jobs are claimed, how one is delivered, and how its outcome is recorded. Claims are made with
 * `FOR UPDATE SKIP LOCKED`, so processes claim distinct jobs, each with a claim token and an expiry.
 */
export interface OutboxKind<J extends ClaimedJob, O> {
  readonly name: string;
  /** Sends at once, at most. */
  readonly concurrency: number;
  /** Claims up to `limit` due jobs for `claimant` for CLAIM_TTL_MS. */
  claim(claimant: string, limit: number): Promise<Claim<J>>;
  /** The side effect itself. Never throws: a failure is an outcome (retried or not, as `record` decides). */
  deliver(job: J): Promise<Delivery<O>>;
  /** Writes the outcome under the job's claim token (nothing when another claim took the job since). */
  record(job: J, outcome: O): Promise<void>;
  /** Gives back claims this process will not use (stopping, or a delivery that sent nothing). */
  release(claimant: string, jobs: readonly J[]): Promise<void>;
}

export interface OutboxLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Longest wait with nothing due before the table is asked again (another process may have added jobs). */
const IDLE_POLL_MS = 1000;
/** Pauses after a failed claim or record (the database away): recovery within this of its return. */
const RETRY_MS = 250;
/** Most handed-over jobs waiting in memory; more are left to their claim's expiry and the table. */
const MAX_OFFERED = 1000;
/** How long a recorded outcome is retried while the database is away before it is given up (and logged). */
const RECORD_PATIENCE_MS = 10 * 60_000;
/**
 * How long stopping waits for the sends in flight (and their records). An email normally takes milliseconds; one
 * still under way after this (a mail server that does not answer) is let go: its claim is given back, so that the
 * process that takes over sends it at once instead of a minute later.
 */
export const STOP_GRACE_MS = 5000;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

interface Held<J> {
  readonly job: J;
  /** performance.now() when the claim was made. */
  readonly claimedAt: number;
}

/**
 * The one sender for every side effect: claims due jobs (or takes those a processor claimed in its commit and
 * handed over), delivers each at most once per claim, and records the outcome under the claim's token. While
 * the database cannot be reached, it starts no new send (a claim could not be made or confirmed), and keeps
 * trying to record the outcomes of the sends that were in flight, so that none of them is sent again by
 * another process. Stopping waits for the sends in flight and their records. At most the messages in flight
 * when a process dies are sent twice (by the process that claims them after the claim expired), each with
 * the same Message-ID or webhook-id, so that receivers can drop the copy.
 */
export class OutboxSender<J extends ClaimedJob, O> implements Worker {
  readonly name: string;
  /** This process, as claims name it. */
  readonly claimant: string;
  private offered: Held<J>[] = [];
  private readonly inFlight = new Map<string, Promise<void>>();
  private wakeUp: (() => void) | undefined;
  private woken = false;
  /** When the table is next asked for due jobs (performance.now(); 0: at once). */
  private askAt = 0;
  /** False after a claim or a record failed, until one succeeds: no handed-over job is started meanwhile. */
  private reachable = true;
  private complained = false;

  /** The jobs whose delivery is under way (not yet recorded), by key. */
  private readonly underWay = new Map<string, J>();

  constructor(
    private readonly kind: OutboxKind<J, O>,
    private readonly logger: OutboxLogger,
    options: { readonly claimant?: string; readonly stopGraceMs?: number } = {},
  ) {
    this.name = `outbox:${kind.name}`;
    this.claimant = options.claimant ?? randomUUID();
    this.stopGraceMs = options.stopGraceMs ?? STOP_GRACE_MS;
  }

  private readonly stopGraceMs: number;

  /** Jobs this process claimed in a commit of its own (a processor's): sent without asking the table. */
  offer(jobs: readonly J[]): void {
    const now = performance.now();
    const room = MAX_OFFERED - this.offered.length;
    for (const job of jobs.slice(0, Math.max(0, room))) this.offered.push({ job, claimedAt: now });
    this.wake();
  }

  /** Something became due (a new job, a manual retry): look now rather than at the next poll. */
  wake(): void {
    this.askAt = 0;
    this.woken = true;
    this.wakeUp?.();
  }

  /** Jobs being sent now (tests, status). */
  get sending(): number {
    return this.inFlight.size;
  }

  async run(signal: AbortSignal, context: WorkerContext): Promise<void> {
    try {
      while (!signal.aborted) {
        this.woken = false;
        const room = this.kind.concurrency - this.inFlight.size;
        if (room > 0 && this.reachable && this.offered.length > 0) {
          for (const held of this.offered.splice(0, room)) this.start(held);
          continue;
        }
        if (room > 0 && performance.now() >= this.askAt) {
          let claim: Claim<J>;
          try {
            // Claims are made, and kept from others, under this process's claimant lock (see claimIsFree).
            const lease = await context.hold(claimantLockName(this.claimant));
            if (!lease?.valid()) throw new Error('the claimant lock is not held');
            claim = await this.kind.claim(this.claimant, room);
            this.recovered();
          } catch (error) {
            this.unreachable(`claiming ${this.kind.name} jobs`, error);
            this.askAt = performance.now() + RETRY_MS;
            continue;
          }
          const claimedAt = performance.now();
          for (const job of claim.jobs) this.start({ job, claimedAt });
          if (claim.jobs.length === room) continue;
          this.askAt = performance.now() + Math.min(claim.nextInMs ?? IDLE_POLL_MS, IDLE_POLL_MS);
        }
        if (this.woken || signal.aborted) continue;
        const until = room > 0 ? Math.max(this.askAt - performance.now(), 1) : IDLE_POLL_MS;
        await this.sleep(until, signal);
      }
    } finally {
      // Stopping: what is in flight finishes and is recorded (within the grace); what was handed over and not
      // started goes back, and so does what is still under way after the grace.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...this.inFlight.values()]),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, this.stopGraceMs))),
      ]);
      clearTimeout(timer);
      const given = [...this.offered.splice(0).map((held) => held.job), ...this.underWay.values()];
      if (given.length > 0) await this.kind.release(this.claimant, given).catch(() => undefined);
    }
  }

  private start(held: Held<J>): void {
    const { job } = held;
    if (this.inFlight.has(job.key)) return;
    this.underWay.set(job.key, job);
    const sending = this.deliver(held).finally(() => {
      this.inFlight.delete(job.key);
      this.underWay.delete(job.key);
      // Room was made: the loop looks again (for handed-over jobs, or the table).
      this.wakeUp?.();
    });
    this.inFlight.set(job.key, sending);
  }

  private async deliver({ job, claimedAt }: Held<J>): Promise<void> {
    if (performance.now() - claimedAt > CLAIM_TTL_MS / 2) {
      // Claimed too long ago to be sure it is still ours by the time the send ends: left to a later claim.
      return;
    }
    let delivery: Delivery<O>;
    try {
      delivery = await this.kind.deliver(job);
    } catch (error) {
      this.logger.error(`${this.kind.name} ${job.key}: ${messageOf(error)}`);
      delivery = { sent: false, reason: messageOf(error) };
    }
    if (!delivery.sent) {
      await this.kind.release(this.claimant, [job]).catch(() => undefined);
      this.askAt = 0;
      return;
    }
    const deadline = performance.now() + RECORD_PATIENCE_MS;
    for (;;) {
      try {
        await this.kind.record(job, delivery.outcome);
        this.recovered();
        return;
      } catch (error) {
        if (!isTransientError(error) || performance.now() > deadline) {
          this.logger.error(`${this.kind.name} ${job.key}: sent, but its outcome could not be recorded: ${messageOf(error)}`);
          return;
        }
        this.unreachable(`recording ${this.kind.name} ${job.key}`, error);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  }

  private unreachable(what: string, error: unknown): void {
    this.reachable = false;
    if (!this.complained)
      this.logger.warn(`Outbox ${this.kind.name}: ${what} failed (${messageOf(error)}); no new send until it works again`);
    this.complained = true;
  }

  private recovered(): void {
    this.reachable = true;
    if (this.complained) this.logger.log(`Outbox ${this.kind.name}: going on`);
    this.complained = false;
  }

  private sleep(ms: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
