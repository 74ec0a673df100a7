/**
 * Events that arrive together (the catch-up of a first connection, or a command that appends several) make one
 * change, not one per event.
 */
const COALESCE_MS = 150;
/**
 * The screens' data are projections that may apply an event a moment after the feed sends it: a second change
 * shortly after the first picks up whatever the first one read too early.
 */
const SETTLE_MS = 600;
/** The first wait before a feed the browser gave up on is opened again; doubled after each failure. */
export const REOPEN_FIRST_MS = 5_000;
/** The longest wait between two attempts at opening a feed again. */
export const REOPEN_MAX_MS = 300_000;

/** EventSource.CLOSED, written out so that the module loads where EventSource does not exist. */
const CLOSED = 2;

export interface LiveFeedOptions {
  readonly url: string;
  readonly onChange: () => void;
  /** For tests; the browser's EventSource otherwise. */
  readonly EventSourceImpl?: typeof EventSource;
}

/** The feed's address resuming after `position` (the id of the last event seen), the way the server reads it. */
function resumeUrl(url: string, position: string | undefined): string {
  if (!position) return url;
  return `${url}${url.includes('?') ? '&' : '?'}from=${encodeURIComponent(position)}`;
}

/**
 * Follows a Server-Sent Events feed and calls `onChange` (coalesced) after its events. Nothing is polled.
 *
 * A dropped connection is reopened by EventSource itself with Last-Event-ID, so the server resumes right after the
 * last event this page saw. An answer other than the stream (a 429 when too many streams are open, a 503 during a
 * restart, a 401 once the session ended) makes the browser give up for good; the feed is then opened again after
 * a wait that doubles up to five minutes, from the last event seen, with one change on reopening (the screen may
 * have missed changes while it was away). `event: revoked` means the server will not serve this page again: stop.
 * Answers the function that closes the feed.
 */
export function followFeed({ url, onChange, EventSourceImpl }: LiveFeedOptions): () => void {
  const Impl = EventSourceImpl ?? (typeof EventSource === 'undefined' ? undefined : EventSource);
  if (!Impl) return () => undefined;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let pending = false;
  let stopped = false;
  let lastEventId: string | undefined;
  let reopenDelay = REOPEN_FIRST_MS;
  let source: EventSource;

  const schedule = (delay: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, delay);
    timers.add(timer);
  };
  const changed = () => {
    if (pending) return;
    pending = true;
    schedule(COALESCE_MS, () => {
      pending = false;
      onChange();
      schedule(SETTLE_MS, onChange);
    });
  };
  const onMessage = (event: MessageEvent) => {
    if (event.lastEventId) lastEventId = event.lastEventId;
    changed();
  };

  const open = (reopening: boolean) => {
    const current = new Impl(resumeUrl(url, reopening ? lastEventId : undefined));
    source = current;
    let catchUp = reopening;
    current.addEventListener('message', onMessage);
    current.addEventListener('revoked', stop);
    current.addEventListener('open', () => {
      reopenDelay = REOPEN_FIRST_MS;
      if (catchUp) changed();
      catchUp = false;
    });
    current.addEventListener('error', () => {
      if (stopped || current.readyState !== CLOSED) return; // CONNECTING: the browser is retrying by itself
      current.close();
      const delay = reopenDelay;
      reopenDelay = Math.min(reopenDelay * 2, REOPEN_MAX_MS);
      schedule(delay, () => {
        if (!stopped) open(true);
      });
    });
  };

  function stop() {
    stopped = true;
    source.removeEventListener('message', onMessage);
    source.close();
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  }

  open(false);
  return stop;
}
