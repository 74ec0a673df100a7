import { get, type IncomingMessage } from 'node:http';

export interface SseMessage {
  readonly id: string | undefined;
  readonly event: string;
  readonly data: string;
}

/** A minimal Server-Sent Events reader over node:http, for tests and benches: every message, as it arrives. */
export class SseConnection {
  readonly messages: SseMessage[] = [];
  /** Comment lines received (the server's heartbeats). */
  comments = 0;
  status = 0;
  body = '';
  private response: IncomingMessage | undefined;
  private buffer = '';
  private listeners: (() => void)[] = [];
  private ended = false;
  /** Resolves when the server ended the stream (or the connection broke). */
  readonly closed: Promise<void>;
  readonly opened: Promise<void>;

  constructor(url: string, headers: Record<string, string>, onMessage?: (message: SseMessage) => void) {
    let markClosed: () => void = () => undefined;
    this.closed = new Promise((resolve) => (markClosed = resolve));
    this.opened = new Promise((resolve, reject) => {
      const request = get(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) => {
        this.response = response;
        this.status = response.statusCode ?? 0;
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (this.status !== 200) {
            this.body += chunk;
            return;
          }
          this.buffer += chunk;
          let end: number;
          while ((end = this.buffer.indexOf('\n\n')) >= 0) {
            const block = this.buffer.slice(0, end);
            this.buffer = this.buffer.slice(end + 2);
            this.comments += block.split('\n').filter((line) => line.startsWith(':')).length;
            const message = parseBlock(block);
            if (message) {
              this.messages.push(message);
              onMessage?.(message);
            }
          }
          this.notify();
        });
        const finish = () => {
          this.ended = true;
          this.notify();
          markClosed();
        };
        response.on('end', finish);
        response.on('close', finish);
        response.on('error', finish);
        resolve();
      });
      request.on('error', (error) => {
        this.ended = true;
        this.notify();
        markClosed();
        reject(error);
      });
    });
  }

  /** The data messages (not heartbeats, not `resume` / `revoked`). */
  get events(): SseMessage[] {
    return this.messages.filter((message) => message.event === 'message');
  }

  /** Waits until `predicate` holds (checked on every message); throws after `timeoutMs` or when the stream ends first. */
  async waitFor(predicate: () => boolean, timeoutMs = 60_000, what = 'the expected messages'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (this.ended) throw new Error(`The stream ended before ${what} (${this.messages.length} messages)`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`Timed out waiting for ${what} (${this.messages.length} messages)`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 500));
        this.listeners.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.response?.destroy();
  }

  private notify(): void {
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }
}

function parseBlock(block: string): SseMessage | null {
  let id: string | undefined;
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return null;
  return { id, event, data: data.join('\n') };
}
