import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message a test SMTP server accepted, parsed with mailparser, with its envelope. */
export interface ReceivedMail {
  readonly envelopeTo: string[];
  readonly parsed: ParsedMail;
}

export interface TestSmtpServer {
  readonly url: string;
  readonly inbox: ReceivedMail[];
  /** While set, every recipient is refused with this text (the server's error). */
  refuseWith: string | null;
  close(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on a free local port, for tests and the bench: keeps and parses everything
 * it accepts. `parse: false` only counts (the bench: parsing would measure mailparser).
 */
export async function startTestSmtp(options: { parse?: boolean } = {}): Promise<TestSmtpServer & { accepted: number }> {
  const parse = options.parse ?? true;
  const state: TestSmtpServer & { accepted: number } = {
    url: '',
    inbox: [],
    refuseWith: null,
    accepted: 0,
    close: () => Promise.resolve(),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    maxClients: 500,
    onRcptTo(_address, _session, callback) {
      if (state.refuseWith !== null) callback(new Error(state.refuseWith));
      else callback();
    },
    onData(stream, session, callback) {
      const envelopeTo = session.envelope.rcptTo.map((r) => r.address);
      if (!parse) {
        stream.on('data', () => undefined);
        stream.on('end', () => {
          state.accepted += 1;
          callback();
        });
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          state.accepted += 1;
          state.inbox.push({ envelopeTo, parsed });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  Object.assign(state, {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
  return state;
}

/** Waits (polling) until `probe` returns a value; throws after `timeoutMs`. */
export async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
