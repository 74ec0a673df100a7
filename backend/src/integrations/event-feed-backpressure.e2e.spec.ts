import { createServer, get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENT_SCHEMAS } from '@ppr/contracts';
import type { Request, Response } from 'express';
import type { EventStore, Position, RecordedEvent } from '../event-store/event-store.port';
import { serveFeed } from './event-feed';

/** A store whose subscription never ends: big public events, as fast as they are asked for. Counts them. */
function endlessStore(): { store: EventStore; read: () => number } {
  let count = 0;
  const notes = 'x'.repeat(64 * 1024);
  const store = {
    async *subscribe(_after: Position, options?: { signal?: AbortSignal }): AsyncIterable<RecordedEvent> {
      while (!options?.signal?.aborted) {
        count += 1;
        yield {
          id: `evt-${count}`,
          type: 'TicketNotesUpdated',
          data: { ticketId: 1, notes },
          metadata: {
            actor: { kind: 'admin', id: '1' },
            correlationId: 'c',
            causationId: null,
            occurredAt: new Date().toISOString(),
            schemaVersion: EVENT_SCHEMAS.TicketNotesUpdated.version,
          },
          streamId: 'ticket-1',
          revision: count - 1,
          position: { commit: BigInt(count), prepare: BigInt(count) },
          recordedAt: new Date(),
        };
        // A turn of the event loop per event, as a real store's reads give.
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  } as unknown as EventStore;
  return { store, read: () => count };
}

describe('a feed client that stops reading', () => {
  let server: Server;
  let url: string;
  const { store, read } = endlessStore();

  beforeAll(async () => {
    server = createServer((request, response) => {
      // serveFeed needs only what Express adds for status(); the rest is node's own request and response.
      const res = response as unknown as Response;
      (res as unknown as { status: (code: number) => Response }).status = (code: number) => {
        response.statusCode = code;
        return res;
      };
      void serveFeed(store, request as unknown as Request, res, {
        from: { commit: 0n, prepare: 0n },
        audience: { personal: true },
        heartbeatMs: 60_000,
        slowClientMs: 300,
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('is not buffered for: the server stops reading the store, then cuts the client with a resume event', async () => {
    const response = await new Promise<IncomingMessage>((resolve) => get(url, resolve));
    expect(response.statusCode).toBe(200);
    // Read nothing while the server fills the socket's buffers and waits for them to drain.
    response.pause();
    const readBeforeCut = await new Promise<number>((resolve) => {
      let last = -1;
      const timer = setInterval(() => {
        const now = read();
        if (now === last) {
          clearInterval(timer);
          resolve(now);
        }
        last = now;
      }, 500);
    });
    // Bounded: a few socket buffers' worth of 64 KiB events, not an ever-growing queue.
    expect(readBeforeCut).toBeLessThan(200);
    response.setEncoding('utf8');
    let body = '';
    response.on('data', (chunk: string) => (body += chunk));
    response.resume();
    await new Promise((resolve) => response.on('end', resolve));
    const blocks = body.split('\n\n').filter((block) => block.trim() !== '');
    const last = blocks.at(-1)!;
    expect(last).toMatch(/^event: resume\ndata: \{"from":"\d+\/\d+"\}$/);
    const lastId = [...body.matchAll(/^id: (.+)$/gm)].at(-1)![1];
    expect(JSON.parse(last.split('data: ')[1]!)).toEqual({ from: lastId });
    // Every event the client got before the cut is whole, and in order.
    const ids = [...body.matchAll(/^id: (\d+)\/\d+$/gm)].map((match) => Number(match[1]));
    expect(ids).toEqual(ids.map((_, index) => index + 1));
  });
});
