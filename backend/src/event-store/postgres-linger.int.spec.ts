import { randomUUID } from 'node:crypto';
import { openTestStore, testEvent as event, type TestStore } from '../../test/event-store-fixtures';
import { type RecordedEvent, START } from './event-store.port';

/**
 * `lingerMs`: a subscriber nobody waits for reads a while after it is woken, so that what is appended
 * meanwhile comes in the same read (a real PostgreSQL when DATABASE_URL is set, else the embedded one).
 */
jest.setTimeout(60_000);

describe(`subscribe with lingerMs on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'the embedded database'}`, () => {
  let opened: TestStore;

  beforeAll(async () => {
    opened = await openTestStore('es_linger', { pollIntervalMs: 60_000 });
  });
  afterAll(async () => {
    await opened?.close();
  });

  it('reads no sooner than the linger after a wake-up, and then gets what was appended meanwhile, in order', async () => {
    const linger = 300;
    const stop = new AbortController();
    const received: { event: RecordedEvent; at: number }[] = [];
    let caughtUp: () => void = () => undefined;
    const idle = new Promise<void>((resolve) => (caughtUp = resolve));
    const reading = (async () => {
      // The first read (nothing there) is at once; it then waits for a wake-up.
      setTimeout(caughtUp, 100);
      for await (const recorded of opened.store.subscribe(START, { signal: stop.signal, lingerMs: linger })) {
        received.push({ event: recorded, at: performance.now() });
        if (received.length === 5) stop.abort();
      }
    })();
    await idle;

    const stream = `linger-${randomUUID()}`;
    const woken = performance.now();
    await opened.store.append(stream, [event('E1')], 'no_stream');
    for (const type of ['E2', 'E3', 'E4', 'E5']) await opened.store.append(stream, [event(type)], 'any');
    await reading;

    expect(received.map((r) => r.event.type)).toEqual(['E1', 'E2', 'E3', 'E4', 'E5']);
    // Not delivered before the linger was over (a timer never fires early).
    expect(received[0]!.at - woken).toBeGreaterThanOrEqual(linger - 1);
  });
});
