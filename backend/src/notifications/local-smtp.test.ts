// Bench support (not a test itself; named *.test.ts so that the production build leaves it out).
import type { ParsedMail } from 'mailparser';
import { startTestSmtp } from '../../test/smtp-server';

/**
 * bench/mail/ticket-latency.ts's view of the one test SMTP server (backend/test/smtp-server.ts), which tests
 * use directly: the bench reads `to` where the server keeps `envelopeTo`. Once the bench uses startTestSmtp,
 * this file can go.
 */
export async function startLocalSmtp(options: { parse?: boolean } = {}): Promise<{
  readonly url: string;
  readonly inbox: readonly { readonly to: string[]; readonly parsed: ParsedMail; readonly acceptedAt: number }[];
  close(): Promise<void>;
}> {
  const smtp = await startTestSmtp(options);
  return {
    url: smtp.url,
    get inbox() {
      return smtp.inbox.map(({ envelopeTo, parsed, acceptedAt }) => ({ to: envelopeTo, parsed, acceptedAt }));
    },
    close: () => smtp.close(),
  };
}
