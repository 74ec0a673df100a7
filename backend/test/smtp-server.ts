import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message a test SMTP server accepted, parsed with mailparser, with its envelope. */
export interface ReceivedMail {
  readonly envelopeTo: string[];
  /** Empty with `parse: false`. */
  readonly parsed: ParsedMail;
  /** When the server had the whole message (before it parsed it): what a latency is measured to. */
  readonly acceptedAt: number;
}

export interface TestSmtpServer {
  readonly url: string;
  readonly inbox: ReceivedMail[];
  /** While set, every recipient is refused with this text (the server's error, 550). */
  refuseWith: string | null;
  /** While set, DATA is never answered: the sender is stuck between its event and the server's acceptance. */
  holding: boolean;
  /** Messages whose DATA started while holding. */
  readonly held: number;
  /** While set, DATA is answered only once the promise settles: the sends wait, then go through. */
  gate: Promise<void> | null;
  /** Messages whose DATA was complete while a gate was set: waiting for it, or let through since. */
  readonly gated: number;
  /** Messages accepted (also counted with `parse: false`). */
  readonly accepted: number;
  close(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on a free local port, for tests and the bench: keeps and parses everything
 * it accepts. `parse: false` keeps the envelope only (the bench: parsing would measure mailparser).
 */
export async function startTestSmtp(options: { parse?: boolean } = {}): Promise<TestSmtpServer> {
  const parse = options.parse ?? true;
  const state = {
    url: '',
    inbox: [] as ReceivedMail[],
    refuseWith: null as string | null,
    holding: false,
    held: 0,
    gate: null as Promise<void> | null,
    gated: 0,
    accepted: 0,
    close: (): Promise<void> => Promise.resolve(),
  };
  const keep = (mail: ReceivedMail): void => {
    state.accepted += 1;
    state.inbox.push(mail);
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    maxClients: 500,
    closeTimeout: 200,
    onRcptTo(_address, _session, callback) {
      if (state.refuseWith !== null) callback(Object.assign(new Error(state.refuseWith), { responseCode: 550 }));
      else callback();
    },
    onData(stream, session, callback) {
      if (state.holding) {
        state.held += 1;
        stream.resume();
        return; // never answered
      }
      const envelopeTo = session.envelope.rcptTo.map((r) => r.address);
      const gate = state.gate;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        if (parse) chunks.push(chunk);
      });
      stream.on('end', () => {
        if (!gate) return accept();
        state.gated += 1;
        void gate.then(() => accept());
      });
      const accept = (): void => {
        const acceptedAt = Date.now();
        if (!parse) {
          keep({ envelopeTo, parsed: {} as ParsedMail, acceptedAt });
          callback();
          return;
        }
        simpleParser(Buffer.concat(chunks))
          .then((parsed) => {
            keep({ envelopeTo, parsed, acceptedAt });
            callback();
          })
          .catch((error: Error) => callback(error));
      };
    },
  });
  // A sender killed mid-session (the crash and fault suites kill app processes) resets its connections: a mail
  // server's everyday life, not the test's failure (unhandled, the error event would fail the whole file).
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  state.url = `smtp://127.0.0.1:${port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

/** Waits (polling) until `probe` returns a value; throws after `timeoutMs`. */
export async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
