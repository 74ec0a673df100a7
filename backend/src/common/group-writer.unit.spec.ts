import { GroupWriter } from './group-writer';

/** A write that records its groups and finishes when the test says so. */
function recordingWrite(): {
  groups: number[][];
  finish: () => void;
  write: (items: readonly number[]) => Promise<string[]>;
} {
  const groups: number[][] = [];
  const open: (() => void)[] = [];
  return {
    groups,
    finish: () => open.splice(0).forEach((done) => done()),
    write: (items) => {
      groups.push([...items]);
      if (items.includes(-1)) return Promise.reject(new Error('bad item'));
      return new Promise((resolve) => open.push(() => resolve(items.map((item) => `wrote ${item}`))));
    },
  };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('GroupWriter', () => {
  it('writes a lone item at once, and groups what comes while a write is in flight', async () => {
    const w = recordingWrite();
    const writer = new GroupWriter(w.write, { maxInFlight: 1 });
    const first = writer.submit(1);
    expect(w.groups).toEqual([[1]]);
    const rest = [writer.submit(2), writer.submit(3), writer.submit(4)];
    expect(w.groups).toEqual([[1]]);
    w.finish();
    expect(await first).toBe('wrote 1');
    await tick();
    expect(w.groups).toEqual([[1], [2, 3, 4]]);
    w.finish();
    expect(await Promise.all(rest)).toEqual(['wrote 2', 'wrote 3', 'wrote 4']);
  });

  it('with a linger, waits that long for company before the first write', async () => {
    // Fake timers: the test decides when time passes, so a busy machine cannot end the linger early.
    jest.useFakeTimers();
    try {
      const w = recordingWrite();
      const writer = new GroupWriter(w.write, { lingerMs: 30 });
      const results = [writer.submit(1)];
      jest.advanceTimersByTime(10);
      results.push(writer.submit(2));
      jest.advanceTimersByTime(19);
      results.push(writer.submit(3));
      expect(w.groups).toEqual([]);
      jest.advanceTimersByTime(1);
      expect(w.groups).toEqual([[1, 2, 3]]);
      w.finish();
      expect(await Promise.all(results)).toEqual(['wrote 1', 'wrote 2', 'wrote 3']);
      // The next lone item lingers again: the linger belongs to each group, not to the writer's first.
      const next = writer.submit(4);
      jest.advanceTimersByTime(29);
      expect(w.groups).toEqual([[1, 2, 3]]);
      jest.advanceTimersByTime(1);
      expect(w.groups).toEqual([[1, 2, 3], [4]]);
      w.finish();
      expect(await next).toBe('wrote 4');
    } finally {
      jest.useRealTimers();
    }
  });

  it('writes a failed group again item by item: a bad item fails only its own caller', async () => {
    const w = recordingWrite();
    const writer = new GroupWriter(w.write, { maxInFlight: 1 });
    const first = writer.submit(1);
    const group = [writer.submit(2), writer.submit(-1), writer.submit(3)];
    w.finish();
    await first;
    const settled = Promise.allSettled(group);
    // The group [2, -1, 3] fails; each is written again alone.
    while (w.groups.length < 5) await tick();
    w.finish();
    const outcomes = await settled;
    expect(w.groups).toEqual([[1], [2, -1, 3], [2], [-1], [3]]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([
      'wrote 2',
      'bad item',
      'wrote 3',
    ]);
  });
});
