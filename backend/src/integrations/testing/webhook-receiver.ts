import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly at: number;
  /** The status this receiver answered. */
  readonly status: number;
}

/** A webhook receiver on loopback: records every request and answers what `answer` says for it. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  answer: (path: string, countForPath: number) => number = () => 200;
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        const count = this.received.filter((entry) => entry.path === path).length + 1;
        const status = this.answer(path, count);
        this.received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), status });
        response.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  to(path: string): ReceivedWebhook[] {
    return this.received.filter((entry) => entry.path === path);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** Polls `probe` until it returns a value (not undefined); throws after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
