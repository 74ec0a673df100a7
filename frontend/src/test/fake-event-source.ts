/**
 * A stand-in for the browser's EventSource: a test pushes the server's messages into it with `emit`, and plays
 * the connection's fate with `opened` and `fail`. Every instance made is kept in `instances` (clear it between
 * tests).
 */
export class FakeEventSource {
  static instances: FakeEventSource[] = [];
  closed = false;
  /** CONNECTING (0), OPEN (1) or CLOSED (2), as EventSource's. */
  readyState = 0;
  private readonly listeners = new Map<string, Set<(event: MessageEvent) => void>>();

  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }

  addEventListener(type: string, listener: (event: MessageEvent) => void): void {
    let listeners = this.listeners.get(type);
    if (!listeners) {
      listeners = new Set();
      this.listeners.set(type, listeners);
    }
    listeners.add(listener);
  }

  removeEventListener(type: string, listener: (event: MessageEvent) => void): void {
    this.listeners.get(type)?.delete(listener);
  }

  close(): void {
    this.closed = true;
    this.readyState = 2;
  }

  /** Delivers one event of this type (`message` for unnamed ones) to the listeners, with its `id:` if given. */
  emit(type: string, data = '{}', lastEventId = ''): void {
    for (const listener of this.listeners.get(type) ?? []) listener(new MessageEvent(type, { data, lastEventId }));
  }

  /** The server answered with the stream. */
  opened(): void {
    this.readyState = 1;
    this.emit('open');
  }

  /**
   * The connection failed: `retrying` as after a dropped stream (the browser reconnects by itself), or not, as
   * after an answer that is not a stream (a 429, a 401), where the browser gives up.
   */
  fail(retrying: boolean): void {
    this.readyState = retrying ? 0 : 2;
    this.emit('error');
  }
}

/** The stand-in, typed as the constructor it stands in for. */
export const FakeEventSourceImpl = FakeEventSource as unknown as typeof EventSource;
