import { Logger } from '@nestjs/common';
import { isResendKey, type NotificationJob, type NotificationJobs } from './notification-jobs';
import type { NotificationSender, RetryPolicy } from './notification-sender';
import type { SagaLock } from './sagas/saga-lock';
import type { TicketEmailsSaga } from './sagas/ticket-emails.saga';

/** How often an instance without the lock asks for it again (the holder may have stopped). */
const LOCK_RETRY_MS = 1000;
/** Longest the worker sleeps with nothing due (a retry time, or a job another path left pending). */
const IDLE_POLL_MS = 1000;
/** Emails in flight at once. */
const CONCURRENCY = 32;
/** How long stopping waits for sends in flight before it lets them go. */
const STOP_GRACE_MS = 3000;
/** Most jobs waiting in memory for the worker; more are left to the table. */
const MAX_HANDED = 1000;
/** How long the worker remembers that a job finished (longer than any question to the table takes). */
const FINISHED_MEMORY_MS = 60_000;
/** An admin's resend gets one attempt (see EmailLogService.resend), also when the worker takes it over. */
const RESEND_POLICY: RetryPolicy = { maxAttempts: 1, baseDelayMs: 0 };

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/**
 * Runs the ticket-email saga and the outbox worker that sends its jobs, in one process at a time (the lock);
 * the others wait for the lock and take over when its holder stops.
 */
export class NotificationSagas {
  private readonly logger = new Logger('Notifications');
  private readonly stopping = new AbortController();
  private running: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly inFlight = new Map<string, Promise<unknown>>();
  /** Jobs the saga has just committed, handed over so that the worker need not look for them. */
  private handed: NotificationJob[] = [];
  /** When (performance.now()) each job this worker attempted last finished, for FINISHED_MEMORY_MS. */
  private readonly finishedAt = new Map<string, number>();
  /** When the worker must next ask the table for due jobs (performance.now(); 0: at once). */
  private askAt = 0;

  constructor(
    private readonly saga: (onJobs: (jobs: readonly NotificationJob[]) => void) => TicketEmailsSaga,
    private readonly jobs: NotificationJobs,
    private readonly sender: NotificationSender,
    private readonly lock: SagaLock,
    private readonly policy: RetryPolicy,
  ) {}

  /** Sets the saga's first checkpoint if it has none (see TicketEmailsSaga.prepare). */
  async prepare(): Promise<void> {
    await this.saga(() => undefined).prepare();
  }

  start(): void {
    this.running ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.running;
    const pending = [...this.inFlight.values()];
    if (pending.length > 0) {
      const grace = new AbortController();
      await Promise.race([Promise.allSettled(pending), sleep(STOP_GRACE_MS, grace.signal)]);
      grace.abort();
    }
    await this.lock.close();
  }

  private async run(): Promise<void> {
    const stop = this.stopping.signal;
    while (!stop.aborted) {
      let held: AbortSignal | null = null;
      try {
        held = await this.lock.tryAcquire();
      } catch (error) {
        this.logger.warn(`Could not ask for the notifications lock: ${String(error)}`);
      }
      if (!held) {
        await sleep(LOCK_RETRY_MS, stop);
        continue;
      }
      const signal = AbortSignal.any([stop, held]);
      // A new tenure of the lock: whatever was handed over before is in the table, for `due` to find.
      this.handed = [];
      this.finishedAt.clear();
      this.askAt = 0;
      const saga = this.saga((jobs) => {
        if (signal.aborted) return;
        // Past MAX_HANDED (the mail server slow or away, the worker full) jobs stay in the table only, where
        // `due` finds them: memory stays bounded however long the outage.
        const room = MAX_HANDED - this.handed.length;
        if (room >= jobs.length) this.handed.push(...jobs);
        else {
          this.handed.push(...jobs.slice(0, Math.max(0, room)));
          this.askAt = 0;
        }
        this.wake?.();
      });
      await Promise.all([this.keep('saga', signal, (s) => saga.follow(s)), this.keep('worker', signal, (s) => this.work(s))]);
      if (held.aborted && !stop.aborted) this.logger.warn('Lost the notifications lock: another instance sends emails now');
    }
  }

  /** Runs a loop until the signal aborts, restarting it after a failure (the database gone for a moment). */
  private async keep(name: string, signal: AbortSignal, loop: (signal: AbortSignal) => Promise<void>): Promise<void> {
    while (!signal.aborted) {
      try {
        await loop(signal);
      } catch (error) {
        if (signal.aborted) return;
        this.logger.error(`The notifications ${name} stopped (${error instanceof Error ? error.message : String(error)}); restarting`);
      }
      await sleep(IDLE_POLL_MS, signal);
    }
  }

  /**
   * The outbox worker: sends due jobs, up to CONCURRENCY at once. The saga hands over the jobs it has just
   * committed, which are sent without asking the table; the table is asked for due jobs at the start, at
   * the next retry's time, every IDLE_POLL_MS, and when a send made room or failed. A job is never sent
   * twice at once: one being sent is left out of what the table answers, and so is one that finished after
   * the question was sent (its row in the answer may be older than its outcome).
   */
  private async work(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      let woken = false;
      const wakeup = new Promise<void>((resolve) => {
        this.wake = () => {
          woken = true;
          resolve();
        };
      });
      const room = CONCURRENCY - this.inFlight.size;
      if (room > 0) {
        const handed = this.handed.splice(0).filter((job) => !this.inFlight.has(job.key) && !this.finishedAt.has(job.key));
        let start: NotificationJob[];
        let more = false;
        if (performance.now() < this.askAt) {
          // Nothing else is due before askAt: the handed-over jobs, if any.
          start = handed.slice(0, room);
          this.handed.unshift(...handed.slice(room));
        } else {
          // Asking the table: the jobs handed over are there too.
          const asked = performance.now();
          const { jobs: due, nextInMs } = await this.jobs.due(room, [...this.inFlight.keys()], this.sender.mailTransport);
          start = due.filter((job) => !this.inFlight.has(job.key) && !((this.finishedAt.get(job.key) ?? -1) >= asked));
          more = due.length > 0 && due.length === room;
          this.askAt = performance.now() + Math.min(nextInMs ?? IDLE_POLL_MS, IDLE_POLL_MS);
          for (const [key, at] of this.finishedAt) if (at < asked - FINISHED_MEMORY_MS) this.finishedAt.delete(key);
        }
        for (const job of start) {
          const sending = this.sender
            // A resend is the admin's one attempt: taken over after its app stopped, it gets one more, no retries.
            .attempt(job, isResendKey(job.key) ? RESEND_POLICY : this.policy)
            .then(
              (result) => result.success,
              (error: unknown) => {
                this.logger.error(`Email ${job.key}: ${error instanceof Error ? error.message : String(error)}`);
                return false;
              },
            )
            .then((sent) => {
              const wasFull = this.inFlight.size >= CONCURRENCY;
              this.inFlight.delete(job.key);
              this.finishedAt.set(job.key, performance.now());
              // The worker asks again when this send made room it was waiting for, or when the job is due
              // again (a retry, or an error left it pending); a send that went through changes nothing else.
              if (wasFull || !sent) {
                this.askAt = 0;
                this.wake?.();
              }
            });
          this.inFlight.set(job.key, sending);
        }
        if (more || this.handed.length > 0) continue;
      }
      if (woken) continue;
      // Until the next question to the table, unless woken (new jobs, room, a failure).
      const next = this.inFlight.size < CONCURRENCY ? this.askAt - performance.now() : IDLE_POLL_MS;
      const timeout = new AbortController();
      await Promise.race([wakeup, sleep(Math.min(Math.max(next, 5), IDLE_POLL_MS), AbortSignal.any([signal, timeout.signal]))]);
      timeout.abort();
    }
  }
}
