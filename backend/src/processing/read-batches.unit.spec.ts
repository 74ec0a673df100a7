import type { RecordedEvent } from '../event-store/event-store.port';
import { recordedEvent } from '@ppr/projections/testing';
import { readBatches } from './read-batches';

/** A subscription fed by the test: events pushed are there at once; it waits for more until closed. */
function subscription(): { events: AsyncIterable<RecordedEvent>; push(...events: RecordedEvent[]): void; close(): void } {
  const queue: RecordedEvent[] = [];
  let closed = false;
  let wake: (() => void) | undefined;
  return {
    events: (async function* () {
      for (;;) {
        while (queue.length > 0) yield queue.shift()!;
        if (closed) return;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    })(),
    push(...events) {
      queue.push(...events);
      wake?.();
    },
    close() {
      closed = true;
      wake?.();
    },
  };
}

const note = (n: number) => recordedEvent('TicketNotesUpdated', { ticketId: 1, notes: `note ${n}` });

describe('readBatches: a subscription cut into batches', () => {
  it('takes what is already there, up to the batch size', async () => {
    const source = subscription();
    const events = [1, 2, 3, 4, 5].map(note);
    source.push(...events);
    source.close();
    const batches: RecordedEvent[][] = [];
    for await (const batch of readBatches(source.events, 2)) batches.push(batch);
    expect(batches).toEqual([events.slice(0, 2), events.slice(2, 4), events.slice(4)]);
  });

  it('does not wait for more than one event: a live append is applied at once', async () => {
    const source = subscription();
    const batches = readBatches(source.events, 100);
    const [first, second, third] = [1, 2, 3].map(note);
    source.push(first!);
    expect(await batches.next()).toEqual({ done: false, value: [first] });
    const next = batches.next();
    source.push(second!, third!);
    expect(await next).toEqual({ done: false, value: [second, third] });
    source.close();
    expect(await batches.next()).toEqual({ done: true, value: undefined });
  });

  it('asks the event loop for one turn per batch, not one per event', async () => {
    const source = subscription();
    const events = Array.from({ length: 1000 }, (_, n) => note(n));
    source.push(...events);
    source.close();
    const original = globalThis.setImmediate;
    let turns = 0;
    globalThis.setImmediate = ((...args: Parameters<typeof setImmediate>) => {
      turns++;
      return original(...args);
    }) as typeof setImmediate;
    const batches: RecordedEvent[][] = [];
    try {
      for await (const batch of readBatches(source.events, 400)) batches.push(batch);
    } finally {
      globalThis.setImmediate = original;
    }
    expect(batches.map((batch) => batch.length)).toEqual([400, 400, 200]);
    expect(batches.flat()).toEqual(events);
    expect(turns).toBeLessThanOrEqual(batches.length);
  });

  it('can be left while an event is still awaited', async () => {
    const source = subscription();
    source.push(note(1));
    for await (const batch of readBatches(source.events, 100)) {
      expect(batch).toHaveLength(1);
      break;
    }
    source.close();
  });
});
