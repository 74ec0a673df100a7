import { loadEsm } from 'load-esm';

/** What is used of `email-reply-parser` (crisp-oss; an ES module, loaded once). */
interface EmailReplyParserModule {
  default: new () => { parseReply(text: string): string };
}
let parser: Promise<{ parseReply(text: string): string }> | undefined;

/**
 * The new text of an email reply: without the quoted message it answers ("On ... wrote:", `>` lines) and the
 * signature below `-- ` (email-reply-parser, after GitHub's and Crisp's), trimmed. Plain text in, plain text out.
 */
export async function replyText(text: string): Promise<string> {
  parser ??= loadEsm<EmailReplyParserModule>('email-reply-parser').then((module) => new module.default());
  return (await parser).parseReply(text.replace(/\r\n?/g, '\n')).trim();
}

/** Headers of an automatic message (an out-of-office answer, a bounce, a list's mail): never posted on a ticket. */
export function isAutomatic(headers: ReadonlyMap<string, unknown>, envelopeFrom: string | false): boolean {
  const text = (name: string): string => {
    const value = headers.get(name);
    if (value === undefined || value === null) return '';
    if (typeof value === 'string') return value.toLowerCase();
    if (typeof value === 'object' && 'value' in value) return String(value.value).toLowerCase();
    return JSON.stringify(value).toLowerCase();
  };
  if (envelopeFrom === false || envelopeFrom === '' || /^(mailer-daemon|postmaster)@/i.test(envelopeFrom)) return true;
  const autoSubmitted = text('auto-submitted');
  if (autoSubmitted !== '' && autoSubmitted !== 'no') return true;
  if (/^(bulk|junk|list|auto_reply)$/.test(text('precedence'))) return true;
  if (['x-autoreply', 'x-autorespond', 'list-id', 'list-unsubscribe'].some((name) => headers.has(name))) return true;
  return text('content-type').includes('multipart/report');
}
