import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { accountMessages } from '@ppr/contracts';
import { Pool } from 'pg';
import { aSupportRequest } from '../../test/builders';
import { startTestSmtp, type TestSmtpServer, waitFor } from '../../test/smtp-server';
import { type TestSchema, testSchema } from '../../test/test-schema';

/**
 * Issue 33, "Shutdown and readiness": the server as `node backend/dist/main.js` runs it (src/main.ts, compiled on
 * the fly by swc as the other process tests do, so no build is needed first), sent SIGTERM while a request is in
 * flight, keep-alive connections are open and a ticket email is being sent. Raw sockets, so the test decides what
 * each connection has sent when the signal comes.
 */

const BACKEND = resolve(__dirname, '../..');
const GRACE_MS = 5_000;

interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** One HTTP/1.1 connection: what is written goes out as is; answers are read one by one (JSON with Content-Length). */
class Connection {
  private buffer = '';
  private readonly arrivals: (() => void)[] = [];
  readonly closed: Promise<void>;

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      for (const wake of this.arrivals.splice(0)) wake();
    });
    this.closed = once(socket, 'close').then(() => {
      for (const wake of this.arrivals.splice(0)) wake();
    });
  }

  static async open(port: number): Promise<Connection> {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    return new Connection(socket);
  }

  get isClosed(): boolean {
    return this.socket.destroyed;
  }

  send(text: string): void {
    this.socket.write(text);
  }

  /** Waits for the interim `100 Continue`: the server has read the request's headers and is waiting for its body. */
  async continued(): Promise<void> {
    const head = 'HTTP/1.1 100 Continue\r\n\r\n';
    while (!this.buffer.startsWith(head)) {
      if (this.socket.destroyed) throw new Error(`The connection closed before 100 Continue: ${JSON.stringify(this.buffer)}`);
      await new Promise<void>((wake) => this.arrivals.push(wake));
    }
    this.buffer = this.buffer.slice(head.length);
  }

  async response(): Promise<RawResponse> {
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end >= 0) {
        const [statusLine, ...lines] = this.buffer.slice(0, end).split('\r\n');
        const headers = Object.fromEntries(
          lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
        );
        const length = Number(headers['content-length'] ?? 0);
        if (Buffer.byteLength(this.buffer.slice(end + 4)) >= length) {
          const body = this.buffer.slice(end + 4, end + 4 + length);
          this.buffer = this.buffer.slice(end + 4 + length);
          return { status: Number(statusLine!.split(' ')[1]), headers, body: body === '' ? undefined : JSON.parse(body) };
        }
      }
      if (this.socket.destroyed) throw new Error(`The connection closed before a whole answer: ${JSON.stringify(this.buffer)}`);
      await new Promise<void>((wake) => this.arrivals.push(wake));
    }
  }

  destroy(): void {
    this.socket.destroy();
  }
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;

const post = (path: string, body: string, more = '') =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Requested-With: XMLHttpRequest\r\n${more}` +
  `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

const CUSTOMER = 'sam@rockvillelaw.example';

/** The server's own main, with its log on stdout: resolves with its port once it listens. */
function startServer(schema: TestSchema, smtp: TestSmtpServer): { child: ChildProcess; port: Promise<number>; log: () => string } {
  const { NODE_OPTIONS: _options, DATABASE_URL: _url, DATABASE_SCHEMA: _schema, ...env } = process.env;
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/main.ts'], {
    cwd: BACKEND,
    env: {
      ...env,
      ...schema.env,
      SWC_NODE_PROJECT: 'tsconfig.spec.json',
      NODE_ENV: 'test',
      DATA_DIR: 'memory',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'log',
      NO_COLOR: '1',
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Potomac PC Repair <support@potomacpc.example>',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  const port = new Promise<number>((resolvePort, reject) => {
    const exited = (code: number | null, signal: string | null) =>
      reject(new Error(`The server exited (${code ?? signal}) before it listened:\n${log}`));
    child.once('exit', exited);
    lines.on('line', (line) => {
      log += `${line}\n`;
      const listening = /Listening on 127\.0\.0\.1:(\d+)/.exec(line);
      if (listening) {
        child.removeListener('exit', exited);
        resolvePort(Number(listening[1]));
      }
    });
  });
  port.catch(() => undefined);
  return { child, port, log: () => log };
}

describe('shutdown on SIGTERM (the real server process)', () => {
  const schema = testSchema('shutdown');
  let smtp: TestSmtpServer;
  let server: ReturnType<typeof startServer>;
  const connections: Connection[] = [];

  beforeAll(async () => {
    smtp = await startTestSmtp();
  });
  afterAll(async () => {
    for (const connection of connections) connection.destroy();
    if (server?.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await smtp?.close();
    await schema.drop();
  });

  it('turns readiness off, answers the request in flight, closes keep-alive connections, lets the email being sent finish, and exits 0 within the grace', async () => {
    server = startServer(schema, smtp);
    const port = await server.port;
    const open = async () => {
      const connection = await Connection.open(port);
      connections.push(connection);
      return connection;
    };

    // A ticket email being sent: the mail server has its whole message and does not answer yet.
    let release: () => void = () => undefined;
    smtp.gate = new Promise((resolveGate) => (release = resolveGate));
    const ticket = await open();
    ticket.send(post('/api/support-request', JSON.stringify(aSupportRequest({ email: CUSTOMER })), 'Connection: close\r\n'));
    expect(await ticket.response()).toMatchObject({ status: 201 });
    await waitFor(() => (smtp.gated === 1 ? true : undefined), 20_000);

    // A kept-alive connection that has begun its next request (half its headers) when the signal comes.
    const keptAlive = await open();
    keptAlive.send(get('/api/health/ready'));
    expect(await keptAlive.response()).toMatchObject({ status: 200, headers: { connection: 'keep-alive' }, body: { status: 'ready' } });
    keptAlive.send('GET /api/health/ready HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    // A kept-alive connection with nothing to send.
    const idle = await open();
    idle.send(get('/api/health'));
    expect(await idle.response()).toMatchObject({ status: 200, headers: { connection: 'keep-alive' } });
    // A write in flight: the server has its headers (it asked for the body), half of its body is not sent yet.
    const body = JSON.stringify({ email: 'drain@example.com' });
    const slow = await open();
    const [head] = post('/api/unsubscribe', body, 'Expect: 100-continue\r\n').split('\r\n\r\n');
    slow.send(`${head}\r\n\r\n`);
    await slow.continued();
    slow.send(body.slice(0, 10));

    const signalled = Date.now();
    const exited = once(server.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    server.child.kill('SIGTERM');

    // The idle keep-alive connection is closed by the server at once (its keep-alive timeout, 5 s, is far off).
    await idle.closed;
    expect(Date.now() - signalled).toBeLessThan(2_500);
    // The request that arrives on the kept-alive connection during the drain: not ready, and told to go elsewhere.
    keptAlive.send('\r\n');
    expect(await keptAlive.response()).toEqual({
      status: 503,
      headers: expect.objectContaining({ connection: 'close' }),
      body: { status: 'draining' },
    });
    await keptAlive.closed;
    // No new connection is accepted.
    await expect(Connection.open(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    // The write in flight completes, and is acknowledged.
    slow.send(body.slice(10));
    expect(await slow.response()).toEqual({
      status: 200,
      headers: expect.objectContaining({ connection: 'close' }),
      body: { message: accountMessages.unsubscribed },
    });

    // The HTTP side is done; the workers' stop waits for the email in flight (the mail pool is still open).
    await new Promise((wait) => setTimeout(wait, 300));
    expect({ exitCode: server.child.exitCode, accepted: smtp.accepted }).toEqual({ exitCode: null, accepted: 0 });
    release();

    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalled).toBeLessThan(GRACE_MS);
    const log = server.log();
    expect(log).toMatch(/SIGTERM: readiness is off; finishing 1 request\(s\) in flight/);
    expect(log).not.toMatch(/were cut/);
    expect(log).toMatch(/\[Main\] Stopped/);
    // Nothing went wrong from the signal on, and the email went out after the HTTP drain, before the end.
    const shutdown = log.slice(log.indexOf('SIGTERM:'));
    expect(shutdown).not.toMatch(/ (ERROR|WARN) /);
    expect(shutdown).toMatch(/ticket-created\) sent to sam@rockvillelaw\.example[\s\S]*\[Main\] Stopped/);
    expect(smtp.inbox.map((mail) => mail.envelopeTo)).toEqual([[CUSTOMER]]);

    // On PostgreSQL the acknowledged write is still there after the process ended (the embedded one ended with it).
    if (schema.name !== undefined) {
      const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
      try {
        const { rows } = await pool.query<{ subscribed: boolean }>(
          `SELECT subscribed FROM "${schema.name}".email_subscriptions WHERE email = $1`,
          ['drain@example.com'],
        );
        expect(rows).toEqual([{ subscribed: false }]);
        const sent = await pool.query<{ status: string }>(`SELECT status FROM "${schema.name}".mail_messages WHERE to_address = $1`, [
          CUSTOMER,
        ]);
        expect(sent.rows).toEqual([{ status: 'sent' }]);
      } finally {
        await pool.end();
      }
    }
  });
});
