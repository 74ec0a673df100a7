import { Wakeup } from './wakeup';

describe('Wakeup', () => {
  it('wakes a waiter on notify, long before its timeout', async () => {
    const wakeup = new Wakeup();
    const started = Date.now();
    const waiting = wakeup.wait(60_000, wakeup.current);
    wakeup.notify();
    await waiting;
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('does not miss a notify that came between looking and waiting', async () => {
    const wakeup = new Wakeup();
    const seen = wakeup.current;
    wakeup.notify();
    const started = Date.now();
    await wakeup.wait(60_000, seen);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('wakes at the timeout without a notify, and on abort', async () => {
    const wakeup = new Wakeup();
    await wakeup.wait(10, wakeup.current);
    const abort = new AbortController();
    const waiting = wakeup.wait(60_000, wakeup.current, abort.signal);
    abort.abort();
    await waiting;
  });
});
