import type { Position } from '../event-store/event-store.port';
import { CHECKPOINT_POLL_MS, type CheckpointView, ProcessorProgress } from './progress';

const at = (n: number): Position => ({ commit: BigInt(n), prepare: BigInt(n) });
const running = (n: number): CheckpointView => ({ position: at(n), state: 'running' });
const never = (): Promise<CheckpointView> => Promise.reject(new Error('the checkpoint row is not read while the projection runs here'));

describe('ProcessorProgress: read-your-writes waiters', () => {
  const stopping = new AbortController();
  afterAll(() => stopping.abort());

  it('answers at once when the projection is already there', async () => {
    const progress = new ProcessorProgress();
    progress.following(at(5));
    await expect(progress.waitFor(at(5), Date.now() + 1000, never, stopping.signal)).resolves.toBe(true);
  });

  it('is woken by the batch that reaches the position, long before its deadline', async () => {
    const progress = new ProcessorProgress();
    progress.following(at(1));
    const started = Date.now();
    const waiting = progress.waitFor(at(3), started + 60_000, never, stopping.signal);
    progress.advanced(at(2));
    setTimeout(() => progress.advanced(at(3)), 10);
    await expect(waiting).resolves.toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('gives up at the deadline', async () => {
    const progress = new ProcessorProgress();
    progress.following(at(1));
    await expect(progress.waitFor(at(2), Date.now() + 30, never, stopping.signal)).resolves.toBe(false);
  });

  it('answers false at once for a stopped projection, whatever the deadline', async () => {
    const progress = new ProcessorProgress();
    progress.following(at(1));
    const waiting = progress.waitFor(at(2), Date.now() + 60_000, never, stopping.signal);
    progress.stopped('Processor tickets cannot handle event e-1');
    await expect(waiting).resolves.toBe(false);
    await expect(progress.waitFor(at(1), Date.now() + 60_000, never, stopping.signal)).resolves.toBe(false);
  });

  it('follows the checkpoint row of a projection another process runs, and its failure', async () => {
    const progress = new ProcessorProgress();
    const rows = [running(1), running(2), running(4)];
    const readRow = (): Promise<CheckpointView> => Promise.resolve(rows.length > 1 ? rows.shift()! : rows[0]!);
    await expect(progress.waitFor(at(3), Date.now() + 5000, readRow, stopping.signal)).resolves.toBe(true);

    const failed: CheckpointView = { ...running(1), state: 'failed' };
    await expect(progress.waitFor(at(3), Date.now() + 60_000, () => Promise.resolve(failed), stopping.signal)).resolves.toBe(false);
  });

  it('serves every waiter of the process with one read of the row per interval, however many wait', async () => {
    const progress = new ProcessorProgress();
    let reads = 0;
    let row = 1;
    const readRow = (): Promise<CheckpointView> => {
      reads++;
      return Promise.resolve(running(row));
    };
    const waiting = Array.from({ length: 200 }, (_, n) => progress.waitFor(at(2 + (n % 3)), Date.now() + 5000, readRow, stopping.signal));
    await new Promise((resolve) => setTimeout(resolve, CHECKPOINT_POLL_MS * 5));
    // 200 waiters polling on their own would have read the row at least 200 times by now.
    expect(reads).toBeLessThan(12);
    row = 4;
    await expect(Promise.all(waiting)).resolves.toEqual(Array.from({ length: 200 }, () => true));
    expect(progress.checkpointReads).toBe(reads);
    // Nobody waits: nothing is read any more.
    const idle = reads;
    await new Promise((resolve) => setTimeout(resolve, CHECKPOINT_POLL_MS * 4));
    expect(reads).toBeLessThanOrEqual(idle + 1);
  });

  it('a wait only believes a read made after it began, and a failed read fails the waiters counting on it', async () => {
    const progress = new ProcessorProgress();
    let fail = false;
    const readRow = (): Promise<CheckpointView> =>
      fail ? Promise.reject(new Error('connection terminated')) : Promise.resolve(running(1));
    await expect(progress.waitFor(at(1), Date.now() + 1000, readRow, stopping.signal)).resolves.toBe(true);
    fail = true;
    await expect(progress.waitFor(at(1), Date.now() + 1000, readRow, stopping.signal)).rejects.toThrow('connection terminated');
  });

  it('lets waiters go when the runner stops', async () => {
    const progress = new ProcessorProgress();
    progress.following(at(1));
    const stop = new AbortController();
    const waiting = progress.waitFor(at(2), Date.now() + 60_000, never, stop.signal);
    stop.abort();
    await expect(waiting).resolves.toBe(false);
  });
});
