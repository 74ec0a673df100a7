import { eachOf } from './each-of';

/** A batch generator that records how far it got and whether it was closed. */
function batchesOf<T>(batches: readonly (readonly T[])[], log: string[]): AsyncGenerator<readonly T[], void, undefined> {
  return (async function* () {
    try {
      for (const [i, batch] of batches.entries()) {
        log.push(`batch ${i}`);
        yield batch;
      }
      log.push('end');
    } finally {
      log.push('closed');
    }
  })();
}

async function collect<T>(items: AsyncIterable<T>, stopAfter = Infinity): Promise<T[]> {
  const seen: T[] = [];
  for await (const item of items) {
    seen.push(item);
    if (seen.length >= stopAfter) break;
  }
  return seen;
}

describe('eachOf', () => {
  it('gives every item of every batch in order, skipping empty batches', async () => {
    const log: string[] = [];
    const items = await collect(eachOf(batchesOf([[1, 2], [], [3], [4, 5, 6]], log)));
    expect(items).toEqual([1, 2, 3, 4, 5, 6]);
    expect(log).toEqual(['batch 0', 'batch 1', 'batch 2', 'batch 3', 'end', 'closed']);
  });

  it('asks for the next batch only once the last one is taken', async () => {
    const log: string[] = [];
    const iterator = eachOf(batchesOf([[1, 2], [3]], log))[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ value: 1, done: false });
    expect(await iterator.next()).toEqual({ value: 2, done: false });
    expect(log).toEqual(['batch 0']);
    expect(await iterator.next()).toEqual({ value: 3, done: false });
    expect(log).toEqual(['batch 0', 'batch 1']);
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  it('closes the batches when the consumer stops in the middle of one', async () => {
    const log: string[] = [];
    const items = await collect(eachOf(batchesOf([[1, 2, 3], [4]], log)), 2);
    expect(items).toEqual([1, 2]);
    expect(log).toEqual(['batch 0', 'closed']);
  });

  it('stops and closes the batches when the signal aborts', async () => {
    const log: string[] = [];
    const controller = new AbortController();
    const seen: number[] = [];
    for await (const item of eachOf(batchesOf([[1, 2, 3], [4]], log), controller.signal)) {
      seen.push(item);
      if (item === 2) controller.abort();
    }
    expect(seen).toEqual([1, 2]);
    expect(log).toEqual(['batch 0', 'closed']);
  });

  it('passes on the error of the batches', async () => {
    const failing = (async function* () {
      yield [1];
      throw new Error('read failed');
    })();
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const item of eachOf(failing)) seen.push(item);
      })(),
    ).rejects.toThrow('read failed');
    expect(seen).toEqual([1]);
  });
});
