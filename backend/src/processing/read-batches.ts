import type { RecordedEvent } from '../event-store/event-store.port';

const NOT_YET = Symbol('not yet');

/** Resolves on the next turn of the event loop, after the I/O callbacks that are already due. */
const nextTurn = (): Promise<typeof NOT_YET> => new Promise((resolve) => setImmediate(() => resolve(NOT_YET)));

/**
 * Cuts a subscription into batches: each starts with one event (waiting as long as it takes), then takes
 * whatever else is already there, up to `maxSize`. Live, a batch is what arrived together, so a single
 * append is applied at once; catching up, batches are full and each costs one transaction.
 *
 * Stopping the subscription is its owner's job (its abort signal): an event asked for but not there yet
 * is left pending when the consumer stops, rather than waited for.
 */
export async function* readBatches(events: AsyncIterable<RecordedEvent>, maxSize: number): AsyncGenerator<RecordedEvent[]> {
  const iterator = events[Symbol.asyncIterator]();
  let pending: Promise<IteratorResult<RecordedEvent>> | null = null;
  try {
    for (;;) {
      const first: IteratorResult<RecordedEvent> = await (pending ?? iterator.next());
      pending = null;
      if (first.done) return;
      const batch = [first.value];
      let ended = false;
      // One turn per batch, not per event (a timer each): what comes before it is "already there".
      const turn = nextTurn();
      while (batch.length < maxSize) {
        pending = iterator.next();
        const next = await Promise.race([pending, turn]);
        if (next === NOT_YET) break;
        pending = null;
        if (next.done) {
          ended = true;
          break;
        }
        batch.push(next.value);
      }
      yield batch;
      if (ended) return;
    }
  } finally {
    // Nobody will read it: keep a late failure of the subscription from being an unhandled rejection.
    pending?.catch(() => undefined);
  }
}
