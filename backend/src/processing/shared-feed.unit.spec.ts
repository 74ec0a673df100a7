import { testMetadata } from '../../test/event-store-fixtures';
import { InMemoryEventStore } from '../event-store/in-memory-event-store';
import type { Position, RecordedEvent, SubscribeOptions } from '../event-store/event-store.port';
import { FeedMember, SharedFeed } from './shared-feed';

const note = (text: string) => ({ type: 'TicketNotesUpdated', data: { ticketId: 1, notes: text }, metadata: testMetadata() });
const tick = (ms = 5): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const notes = (events: readonly RecordedEvent[]): string[] => events.map((event) => (event.data as { notes: string }).notes);

/** The in-memory store, whose subscriptions can be made to fail (the database away) and are counted. */
class FlakyStore extends InMemoryEventStore {
  subscriptions = 0;
  failNext = false;

  override subscribe(after: Position, options: SubscribeOptions = {}): AsyncIterable<RecordedEvent> {
    this.subscriptions += 1;
    const inner = super.subscribe(after, options);
    return {
      [Symbol.asyncIterator]: () => {
        const iterator = inner[Symbol.asyncIterator]();
        return {
          next: async () => {
            const result = await iterator.next();
            if (this.failNext) {
              this.failNext = false;
              throw Object.assign(new Error('Connection terminated unexpectedly'));
            }
            return result;
          },
          return: async () => (await iterator.return?.()) ?? { done: true, value: undefined },
        };
      },
    };
  }
}

async function drain(member: FeedMember, count: number, signal: AbortSignal): Promise<RecordedEvent[]> {
  const taken: RecordedEvent[] = [];
  while (taken.length < count) {
    await member.ready(signal);
    if (signal.aborted) break;
    taken.push(...member.take(1000));
  }
  return taken;
}

describe('SharedFeed: one read of the store for every processor of a process', () => {
  const stop = new AbortController();
  afterAll(() => stop.abort());

  it('gives every member each event after the position it joined at, in order, from one subscription', async () => {
    const store = new FlakyStore();
    await store.append('s', [note('before')], 'any');
    const feed = new SharedFeed(store);
    await feed.start();
    try {
      const a = new FeedMember();
      const b = new FeedMember();
      const joinedA = await feed.join(a);
      const joinedB = await feed.join(b);
      // Both join at the head: what came before is theirs to read.
      expect(joinedA).toEqual(await store.headPosition());
      expect(joinedB).toEqual(joinedA);
      for (let i = 1; i <= 5; i++) await store.append('s', [note(`n${i}`)], 'any');
      expect(notes(await drain(a, 5, stop.signal))).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
      expect(notes(await drain(b, 5, stop.signal))).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
      expect(store.subscriptions).toBe(1);
    } finally {
      await feed.stop();
    }
  });

  it('resumes after a failed subscription from the last event it delivered: no gap, no repeat', async () => {
    const store = new FlakyStore();
    const feed = new SharedFeed(store);
    await feed.start();
    try {
      const member = new FeedMember();
      await feed.join(member);
      await store.append('s', [note('one')], 'any');
      store.failNext = true;
      await store.append('s', [note('two')], 'any');
      await store.append('s', [note('three')], 'any');
      const got = await drain(member, 3, stop.signal);
      expect(notes(got)).toEqual(['one', 'two', 'three']);
      expect(store.subscriptions).toBeGreaterThanOrEqual(2);
    } finally {
      await feed.stop();
    }
  });

  it('lets a member that falls too far behind go (overflowed), without holding back the others', async () => {
    const store = new FlakyStore();
    const feed = new SharedFeed(store);
    await feed.start();
    try {
      const slow = new FeedMember();
      const fast = new FeedMember();
      await feed.join(slow);
      await feed.join(fast);
      const batch = Array.from({ length: 1000 }, (_, i) => note(`bulk ${i}`));
      let taken = 0;
      for (let round = 0; round < 21; round++) {
        await store.append(`s-${round}`, batch, 'any');
        await tick(1);
        taken += fast.take(100_000).length;
      }
      await tick(20);
      taken += fast.take(100_000).length;
      expect(taken).toBe(21_000);
      expect(slow.overflowed).toBe(true);
      expect(slow.waiting).toBe(0);
    } finally {
      await feed.stop();
    }
  });

  it('reads nothing while no member is there (a standby), and starts again at the head when one joins', async () => {
    const store = new FlakyStore();
    const feed = new SharedFeed(store);
    await feed.start();
    try {
      await tick();
      expect(store.subscriptions).toBe(0);
      expect(feed.reading).toBe(false);
      const first = new FeedMember();
      await feed.join(first);
      await store.append('s', [note('one')], 'any');
      expect(notes(await drain(first, 1, stop.signal))).toEqual(['one']);
      expect(store.subscriptions).toBe(1);

      // The last member leaves: the subscription ends. Events appended meanwhile are read by nobody.
      feed.leave(first);
      await tick(20);
      expect(feed.reading).toBe(false);
      for (let i = 0; i < 50; i++) await store.append('s', [note(`away ${i}`)], 'any');
      expect(store.subscriptions).toBe(1);

      // A member joining now joins at the head (what came before is its own to read), and gets what follows.
      const second = new FeedMember();
      const joinedAt = await feed.join(second);
      expect(joinedAt).toEqual(await store.headPosition());
      await store.append('s', [note('two')], 'any');
      expect(notes(await drain(second, 1, stop.signal))).toEqual(['two']);
      expect(second.waiting).toBe(0);
      expect(store.subscriptions).toBe(2);
    } finally {
      await feed.stop();
    }
  });

  it('wakes a waiting member once, however often a timer made it give up waiting', async () => {
    const member = new FeedMember();
    const signal = new AbortController();
    const waits = [member.ready(signal.signal), member.ready(signal.signal), member.ready(signal.signal)];
    expect(new Set(waits).size).toBe(1);
    member.offer([]);
    signal.abort();
    await Promise.all(waits);
  });
});
