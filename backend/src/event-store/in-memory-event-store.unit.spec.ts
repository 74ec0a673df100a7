import { randomUUID } from 'node:crypto';
import { getEventListeners } from 'node:events';
import type { EventMetadata } from '@ppr/contracts';
import { DuplicateEventError, START, WrongExpectedRevisionError, type NewEvent, type RecordedEvent } from './event-store.port';
import { InMemoryEventStore } from './in-memory-event-store';

/**
 * What the in-memory adapter promises beyond the contract suite (which it also passes): the injected
 * clock, stored values that behave like a real store's, and subscriptions that wait without timers.
 */
const metadata: EventMetadata = {
  actor: { kind: 'system', id: null },
  correlationId: '00000000-0000-4000-8000-000000000000',
  causationId: null,
  occurredAt: '2024-05-01T10:00:00.000Z',
  schemaVersion: 1,
};

function event(type: string, data: unknown = {}, id: string = randomUUID()): NewEvent {
  return { id, type, data, metadata };
}

async function take(iterable: AsyncIterable<RecordedEvent>, count: number, controller: AbortController): Promise<RecordedEvent[]> {
  const seen: RecordedEvent[] = [];
  for await (const recorded of iterable) {
    seen.push(recorded);
    if (seen.length === count) controller.abort();
  }
  return seen;
}

/** Lets pending promise callbacks run, so a subscriber reaches its wait. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('InMemoryEventStore', () => {
  it('takes recordedAt from the injected clock', async () => {
    const times = [new Date('2024-05-01T10:00:00.000Z'), new Date('2024-05-01T10:00:05.000Z')];
    const store = new InMemoryEventStore({ clock: { now: () => times.shift()! } });
    await store.append('s', [event('A'), event('B')], 'no_stream');
    await store.append('s', [event('C')], 1);
    expect((await store.readStream('s')).map((e) => e.recordedAt.toISOString())).toEqual([
      '2024-05-01T10:00:00.000Z',
      '2024-05-01T10:00:00.000Z',
      '2024-05-01T10:00:05.000Z',
    ]);
  });

  it('numbers positions by append (commit) and by event (prepare)', async () => {
    const store = new InMemoryEventStore();
    const first = await store.append('a', [event('A'), event('B')], 'no_stream');
    const second = await store.append('b', [event('C')], 'no_stream');
    expect((await store.readAll(START, 10)).map((e) => e.position)).toEqual([
      { commit: 1n, prepare: 1n },
      { commit: 1n, prepare: 2n },
      { commit: 2n, prepare: 3n },
    ]);
    expect(first.position).toEqual({ commit: 1n, prepare: 2n });
    expect(second).toEqual({ nextExpectedRevision: 0, position: { commit: 2n, prepare: 3n } });
    expect(await store.headPosition()).toEqual({ commit: 2n, prepare: 3n });
    expect(await store.countAfter(START)).toBe(3);
    expect(await store.countAfter(first.position)).toBe(1);
    expect(await store.countAfter(second.position)).toBe(0);
  });

  it("stores the JSON form of data, apart from the caller's objects and from what readers change", async () => {
    const store = new InMemoryEventStore();
    const data = { when: new Date('2024-05-01T10:00:00.000Z'), gone: undefined, list: [1, 2] };
    await store.append('s', [event('A', data)], 'no_stream');
    data.list.push(3);

    const [read] = await store.readStream('s');
    expect(read!.data).toEqual({ when: '2024-05-01T10:00:00.000Z', list: [1, 2] });
    (read!.data as { list: number[] }).list.push(99);
    (read!.metadata as { correlationId: string }).correlationId = 'changed';
    const [again] = await store.readAll(START, 1);
    expect(again!.data).toEqual({ when: '2024-05-01T10:00:00.000Z', list: [1, 2] });
    expect(again!.metadata).toEqual(metadata);
  });

  it('refuses an id repeated within a batch or across streams, writing nothing', async () => {
    const store = new InMemoryEventStore();
    const id = randomUUID();
    await expect(store.append('s', [event('A', {}, id), event('B', {}, id)], 'no_stream')).rejects.toBeInstanceOf(DuplicateEventError);
    expect(await store.headPosition()).toBeNull();
    await store.append('s', [event('A', {}, id)], 'no_stream');
    await expect(store.append('other', [event('B'), event('C', {}, id)], 'no_stream')).rejects.toBeInstanceOf(DuplicateEventError);
    expect(await store.readStream('other')).toEqual([]);
    expect(await store.countAfter(START)).toBe(1);
  });

  it('reports the actual revision on a conflict, and refuses empty batches and bad revisions', async () => {
    const store = new InMemoryEventStore();
    await store.append('s', [event('A'), event('B')], 'no_stream');
    await expect(store.append('s', [event('C')], 0)).rejects.toMatchObject({
      constructor: WrongExpectedRevisionError,
      streamId: 's',
      expected: 0,
      actual: 1,
    });
    await expect(store.append('s', [], 1)).rejects.toBeInstanceOf(RangeError);
    await expect(store.append('s', [event('C')], -1)).rejects.toBeInstanceOf(RangeError);
    await expect(store.append('s', [event('C')], 1.5)).rejects.toBeInstanceOf(RangeError);
  });

  it('catches up in batches, then waits for appends without timers, and stops on abort', async () => {
    const setTimeoutSpy = jest.spyOn(global, 'setTimeout');
    const setIntervalSpy = jest.spyOn(global, 'setInterval');
    try {
      const store = new InMemoryEventStore();
      for (let i = 0; i < 25; i++) await store.append('s', [event(`E${i}`)], i === 0 ? 'no_stream' : i - 1);

      const controller = new AbortController();
      const seen: string[] = [];
      const done = (async () => {
        for await (const recorded of store.subscribe(START, { signal: controller.signal, batchSize: 10 })) seen.push(recorded.type);
      })();
      await settle();
      expect(seen).toHaveLength(25);

      await store.append('s', [event('Live1'), event('Live2')], 24);
      await settle();
      expect(seen.slice(25)).toEqual(['Live1', 'Live2']);

      // Waiting: one abort listener, no timer; after the abort, neither.
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
      controller.abort();
      await done;
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      expect(setTimeoutSpy).not.toHaveBeenCalled();
      expect(setIntervalSpy).not.toHaveBeenCalled();
    } finally {
      setTimeoutSpy.mockRestore();
      setIntervalSpy.mockRestore();
    }
  });

  it('does not miss an append that lands while the subscriber is busy with a batch', async () => {
    const store = new InMemoryEventStore();
    await store.append('s', [event('A')], 'no_stream');
    const controller = new AbortController();
    const seen: string[] = [];
    for await (const recorded of store.subscribe(START, { signal: controller.signal })) {
      seen.push(recorded.type);
      // Appended between the subscriber's read and its wait for the next append.
      if (recorded.type === 'A') await store.append('s', [event('B')], 0);
      if (seen.length === 2) controller.abort();
    }
    expect(seen).toEqual(['A', 'B']);
  });

  it('serves several subscribers from different positions', async () => {
    const store = new InMemoryEventStore();
    const { position } = await store.append('s', [event('A'), event('B')], 'no_stream');
    const first = new AbortController();
    const second = new AbortController();
    const fromStart = take(store.subscribe(START, { signal: first.signal }), 4, first);
    const fromB = take(store.subscribe(position, { signal: second.signal }), 2, second);
    await store.append('s', [event('C')], 1);
    await store.append('t', [event('D')], 'no_stream');
    expect((await fromStart).map((e) => e.type)).toEqual(['A', 'B', 'C', 'D']);
    expect((await fromB).map((e) => e.type)).toEqual(['C', 'D']);
  });

  it('yields nothing to an already aborted subscriber', async () => {
    const store = new InMemoryEventStore();
    await store.append('s', [event('A')], 'no_stream');
    const seen: RecordedEvent[] = [];
    for await (const recorded of store.subscribe(START, { signal: AbortSignal.abort() })) seen.push(recorded);
    expect(seen).toEqual([]);
  });

  it('ends live subscriptions on close and refuses to be used afterwards', async () => {
    const store = new InMemoryEventStore();
    await store.append('s', [event('A')], 'no_stream');
    const seen: string[] = [];
    const done = (async () => {
      for await (const recorded of store.subscribe(START)) seen.push(recorded.type);
    })();
    await settle();
    await store.ping();
    await store.close();
    await done;
    expect(seen).toEqual(['A']);
    await expect(store.ping()).rejects.toThrow(/closed/);
    await expect(store.append('s', [event('B')], 0)).rejects.toThrow(/closed/);
  });
});
