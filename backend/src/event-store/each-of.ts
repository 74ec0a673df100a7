/**
 * The items of an async sequence of batches, one by one, with no generator step per item: an async
 * generator's `yield` awaits what it yields and resumes the generator through its queue for every item,
 * which in a catch-up over many thousands of events costs more than reading them. `batches` is asked for
 * its next batch only once the last one is taken, and closed (`return`) when the consumer stops early or
 * `signal` aborts, as a `for await` over the items would close an item generator.
 */
export function eachOf<T>(batches: AsyncGenerator<readonly T[], void, undefined>, signal?: AbortSignal): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<T> {
      let batch: readonly T[] = [];
      let index = 0;
      let finished = false;
      const end: IteratorReturnResult<undefined> = { value: undefined, done: true };
      const finish = async (): Promise<IteratorResult<T>> => {
        if (!finished) {
          finished = true;
          batch = [];
          await batches.return(undefined);
        }
        return end;
      };
      const pull = async (): Promise<IteratorResult<T>> => {
        for (;;) {
          const result = await batches.next();
          if (result.done) {
            finished = true;
            return end;
          }
          if (signal?.aborted) return finish();
          if (result.value.length > 0) {
            batch = result.value;
            index = 1;
            return { value: batch[0] as T, done: false };
          }
        }
      };
      return {
        next(): Promise<IteratorResult<T>> {
          if (finished) return Promise.resolve(end);
          if (signal?.aborted) return finish();
          if (index < batch.length) return Promise.resolve({ value: batch[index++] as T, done: false });
          return pull();
        },
        return(): Promise<IteratorResult<T>> {
          return finish();
        },
      };
    },
  };
}
