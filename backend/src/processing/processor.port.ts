import type { PoolClient } from 'pg';
import type { Position, RecordedEvent } from '../event-store/event-store.port';

/**
 * Where a processor starts the first time it runs: from the first event (a read model, which must see the
 * whole history) or from the store's head when the app first starts with it (a reactor: an existing
 * deployment getting a new email or webhook does not send them for its whole history).
 */
export type StartAt = 'beginning' | 'head';

/** What a processor's handler gets: the batch's events it asked for, and what `prepare` made of them. */
export interface ProcessorBatch<P> {
  /** The batch's events of the processor's types, in global order (never empty). */
  readonly events: readonly RecordedEvent[];
  readonly prepared: P;
  /** The fencing token of the lock this batch runs under: the lock's generation, raised at every take. */
  readonly generation: number;
}

/** Run after the batch's transaction committed (hand-offs to an outbox sender); never awaited, never throws. */
export type AfterCommit = () => void;

/**
 * Everything that follows the event store is a processor: a name, the events it wants, and a handler that
 * runs in the processor's transaction together with its checkpoint (docs/architecture.md, "Processing").
 * The processing host runs each processor in one process at a time (its lock), from its checkpoint, and
 * moves the checkpoint in the handler's transaction: the handler's writes happen exactly once per event.
 */
export interface Processor<P = unknown> {
  /** Unique: the checkpoint's and the lock's name. */
  readonly name: string;
  /** The event types it handles; batches with none of them move its checkpoint without a transaction. */
  readonly eventTypes: ReadonlySet<string> | 'all';
  readonly startAt: StartAt;
  /**
   * For a processor nobody waits for (emails, webhooks, the email log): once events arrive it waits this
   * long before taking them, so that a burst goes in one batch and one transaction. Default 0.
   */
  readonly lingerMs?: number;
  /** Most events in one batch (default 500). */
  readonly maxBatch?: number;
  /**
   * Outside any transaction, before `handle`: what the batch needs from elsewhere (streams read, emails
   * rendered, endpoints looked up). It may use the pool. Null: nothing to write for these events, and the
   * checkpoint moves lazily. Throws like `handle` (transient errors are retried, others stop the processor
   * at the event responsible).
   */
  prepare?(events: readonly RecordedEvent[]): Promise<P | null>;
  /**
   * In the processor's transaction, on `tx` only (never the pool: the embedded database has one
   * connection, which the transaction holds). Returns what to do once the transaction committed.
   */
  handle(batch: ProcessorBatch<P>, tx: PoolClient): Promise<AfterCommit | void>;
}

/**
 * A lock held by this process: `signal` aborts the moment it is lost (its connection failed, a heartbeat did not
 * come back in time, or it was released). `valid()` is what a sender asks before each side effect.
 */
export interface Lease {
  readonly name: string;
  readonly signal: AbortSignal;
  valid(): boolean;
}

/** What the host gives a worker. */
export interface WorkerContext {
  /** Takes (or keeps) a lock by name, as processors' locks are taken: null while another process holds it. */
  hold(name: string): Promise<Lease | null>;
}

/** Work that is not driven by events (an outbox sender, a periodic check), started and stopped with the processors. */
export interface Worker {
  readonly name: string;
  /** Runs until `signal` aborts; a throw is logged and the worker started again after a short pause. */
  run(signal: AbortSignal, context: WorkerContext): Promise<void>;
}

/** Registers processors and workers with the processing host; the app's root starts them (app.ts). */
export interface ProcessorRegistry {
  register<P>(processor: Processor<P>): void;
  registerWorker(worker: Worker): void;
}

/** Read-your-writes: waits until the named processors have handled `position` (false at the timeout). */
export interface ProcessorProgress {
  waitFor(names: readonly string[], position: Position, timeoutMs: number): Promise<boolean>;
}
