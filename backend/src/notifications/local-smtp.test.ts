// Test and bench support (not a test itself; named *.test.ts so that the production build leaves it out).
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message the local SMTP server accepted, parsed. */
export interface ReceivedMail {
  readonly to: string[];
  readonly parsed: ParsedMail;
  readonly acceptedAt: number;
}

export interface LocalSmtp {
  readonly url: string;
  readonly inbox: ReceivedMail[];
  /** 'accept' (default), 'refuse' (every recipient: 550 Mailbox unavailable), 'hold' (DATA is never answered). */
  mode: 'accept' | 'refuse' | 'hold';
  /** Messages whose DATA started while holding. */
  held: number;
  close(): Promise<void>;
}

/** A real SMTP server (smtp-server) on a free local port; what it accepts is parsed with mailparser. For tests and the bench. */
export async function startLocalSmtp(options: { parse?: boolean } = {}): Promise<LocalSmtp> {
  const parse = options.parse ?? true;
  const smtp: LocalSmtp = {
    url: '',
    inbox: [],
    mode: 'accept',
    held: 0,
    close: () => Promise.resolve(),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    closeTimeout: 200,
    onRcptTo(_address, _session, callback) {
      if (smtp.mode === 'refuse') callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      else callback();
    },
    onData(stream, session, callback) {
      if (smtp.mode === 'hold') {
        smtp.held += 1;
        stream.resume();
        return; // never answered: the sender is stuck between its event and the server's acceptance
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        const acceptedAt = Date.now();
        callback();
        if (!parse) {
          smtp.inbox.push({ to, parsed: {} as ParsedMail, acceptedAt });
          return;
        }
        void simpleParser(Buffer.concat(chunks)).then((parsed) => smtp.inbox.push({ to, parsed, acceptedAt }));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return Object.assign(smtp, {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** Polls until `probe` gives a value (the saga works in the background). */
export async function eventually<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
