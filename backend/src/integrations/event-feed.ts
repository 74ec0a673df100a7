import { BadRequestException, Logger } from '@nestjs/common';
import { type ApiError, integrationMessages } from '@ppr/contracts';
import type { Request, Response } from 'express';
import { type EventStore, parsePosition, type Position, type RecordedEvent, START } from '../event-store/event-store.port';
import { type Audience, toIntegrationEvent } from './integration-events';

/**
 * Another spelling of `from` (`?From=`, `?from[]=`, `?from[x]=`: Express's simple parser keeps a bracketed name
 * as a name of its own) would otherwise be ignored, and the feed replayed from the start or the head instead of
 * where the client asked: refused. Other names are left alone: EventSource polyfills add `lastEventId=` on a
 * reconnect and some clients a cache-buster (`_=`), and a 400 would end their stream for good.
 */
const FROM_SPELLING = /^from(?:\[.*\])?$/i;

function refuseUnknownParameters(request: Request): void {
  const unknown = Object.keys(request.query).filter((name) => name !== 'from' && FROM_SPELLING.test(name));
  if (unknown.length === 0) return;
  const errors = unknown.map((name) => ({ path: name, message: `Unknown field "${name}"` }));
  throw new BadRequestException({ message: errors.map((error) => error.message).join('; '), errors } satisfies ApiError);
}

/** Where a client resumes: `Last-Event-ID` (a reconnect) wins over `?from=` (the first connection's). */
export function startPosition(request: Request): Position {
  refuseUnknownParameters(request);
  const header = request.header('last-event-id');
  const query = request.query.from;
  // `?from=a&from=b` or `?from[x]=a` names no one position: refused, not read as "from the start".
  if (query !== undefined && typeof query !== 'string') {
    throw new BadRequestException({ message: integrationMessages.badPosition } satisfies ApiError);
  }
  const raw = header !== undefined && header.trim() !== '' ? header.trim() : typeof query === 'string' ? query.trim() : undefined;
  if (raw === undefined || raw === '' || raw === '0') return START;
  try {
    return parsePosition(raw);
  } catch {
    throw new BadRequestException({ message: integrationMessages.badPosition } satisfies ApiError);
  }
}

/**
 * Where a screen's feed starts (the admin list, a customer's ticket page): after its `Last-Event-ID` or `?from=`
 * when it sends one (a reconnect), else at the store's head. The screen has just read what it shows; replaying
 * the whole store on every page load would be wasted work that grows with the business.
 */
export async function screenStartPosition(store: EventStore, request: Request): Promise<Position> {
  refuseUnknownParameters(request);
  const from = request.query.from;
  const explicit = request.header('last-event-id')?.trim() || (from !== undefined && (typeof from !== 'string' || from.trim()));
  if (explicit) return startPosition(request);
  return (await store.headPosition()) ?? START;
}

export interface FeedOptions {
  readonly from: Position;
  readonly audience: Audience;
  readonly heartbeatMs: number;
  /** Aborted from outside: reason 'revoked' (the key was revoked in this process) or anything else (shutdown). */
  readonly signal?: AbortSignal;
  /** Asked at every heartbeat: false ends the stream (the key was revoked elsewhere). */
  readonly stillAllowed?: () => Promise<boolean>;
  /** How long a client may leave the socket's buffer full before it is cut off and told to resume. */
  readonly slowClientMs?: number;
  /** Only this ticket's events (a customer's feed of their own ticket). */
  readonly ticketId?: number;
}

const logger = new Logger('EventFeed');

/**
 * Each stored event's SSE message per audience, computed once: live subscribers woken together share the same
 * event objects (the store shares their read), so a hundred clients cost one mapping and one JSON.stringify.
 */
const rendered = new WeakMap<RecordedEvent, { personal?: Rendered; plain?: Rendered }>();
type Rendered = { position: string; chunk: string } | null;

function render(event: RecordedEvent, audience: Audience): Rendered {
  let entry = rendered.get(event);
  if (!entry) rendered.set(event, (entry = {}));
  const slot = audience.personal ? 'personal' : 'plain';
  const cached = entry[slot];
  if (cached !== undefined) return cached;
  const published = toIntegrationEvent(event, audience);
  const result = published
    ? { position: published.position, chunk: `id: ${published.position}\ndata: ${JSON.stringify(published)}\n\n` }
    : null;
  entry[slot] = result;
  return result;
}

/**
 * Serves the integration events after `from` as Server-Sent Events: first the stored ones, then live. Each
 * event's `id:` is its global position, so a client's Last-Event-ID resumes right after it.
 *
 * Bounded memory per client: the store is read only when the socket has taken the previous event (write()
 * returned true, or 'drain' came), so a slow client holds at most one socket buffer plus one event. A client
 * that does not drain within `slowClientMs` gets a `resume` event naming the last position sent, and is cut off.
 */
export async function serveFeed(store: EventStore, request: Request, response: Response, options: FeedOptions): Promise<void> {
  const stop = new AbortController();
  const abort = (): void => stop.abort();
  request.on('close', abort);
  response.on('close', abort);
  options.signal?.addEventListener('abort', () => {
    // 'revoked' tells the client not to come back; on a shutdown it reconnects (to another instance) by itself.
    if (options.signal?.reason === 'revoked' && !response.writableEnded && !response.destroyed)
      response.write('event: revoked\ndata: {}\n\n');
    abort();
  });
  if (options.signal?.aborted) abort();
  // A client that hung up while the caller checked its key, session or ticket sent its 'close' before anyone
  // listened: without this its stream (and its slot of EVENT_STREAMS_PER_CLIENT) would wait for an event to fail on.
  if (request.destroyed || response.destroyed || request.socket.destroyed) abort();
  if (stop.signal.aborted) {
    request.off('close', abort);
    response.off('close', abort);
    if (!response.destroyed) response.end();
    return;
  }

  response.status(200);
  response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  // no-store as every other API answer (the events carry personal data: no browser or proxy may keep them);
  // no-transform so that no proxy recompresses, and so buffers, the stream.
  response.setHeader('Cache-Control', 'no-store, no-transform');
  response.setHeader('Connection', 'keep-alive');
  // Proxies such as nginx would otherwise buffer the stream.
  response.setHeader('X-Accel-Buffering', 'no');
  response.flushHeaders();
  request.socket.setNoDelay(true);
  request.socket.setKeepAlive(true);
  response.write('retry: 2000\n\n');

  const heartbeat = setInterval(() => {
    void (async () => {
      if (response.destroyed) {
        abort();
        return;
      }
      if (options.stillAllowed && !(await options.stillAllowed().catch(() => true))) {
        if (!response.destroyed) response.write('event: revoked\ndata: {}\n\n');
        abort();
        return;
      }
      // A heartbeat into a full buffer would only grow it; the slow-client timer handles that case.
      if (!response.destroyed && response.writableLength === 0) response.write(': heartbeat\n\n');
    })();
  }, options.heartbeatMs);

  let corked = false;
  try {
    for await (const event of store.subscribe(options.from, { signal: stop.signal })) {
      if (stop.signal.aborted) break;
      if (options.ticketId !== undefined && (event.data as { ticketId?: unknown } | null)?.ticketId !== options.ticketId) continue;
      const published = render(event, options.audience);
      if (!published) continue;
      // Events that arrive together (one read of the store) leave in one packet, not one write each.
      if (!corked) {
        corked = true;
        response.cork();
        process.nextTick(() => {
          corked = false;
          response.uncork();
        });
      }
      if (!response.write(published.chunk) && !(await drained(response, stop.signal, options.slowClientMs ?? 30_000))) {
        if (!stop.signal.aborted) {
          response.write(`event: resume\ndata: ${JSON.stringify({ from: published.position })}\n\n`);
          logger.warn(`Cut off a feed client that stopped reading (it resumes after ${published.position})`);
        }
        break;
      }
    }
  } catch (error) {
    if (!stop.signal.aborted) logger.error(`Event feed failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearInterval(heartbeat);
    request.off('close', abort);
    stop.abort();
    if (!response.destroyed) {
      response.end();
      // A client that never reads would keep the socket (and its buffer) forever.
      setTimeout(() => response.destroy(), 5_000).unref();
    }
  }
}

/** true once the socket drained; false when the client went away or did not read within `ms`. */
function drained(response: Response, signal: AbortSignal, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer);
      response.off('drain', onDrain);
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const onDrain = () => done(true);
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(false), ms);
    response.once('drain', onDrain);
    signal.addEventListener('abort', onAbort);
  });
}
