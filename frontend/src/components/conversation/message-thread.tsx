import type { MessageAttachment, MessageAuthorKind, TicketMessage } from '@ppr/contracts';
import { Lock, Mail, Paperclip } from 'lucide-react';
import { useState } from 'react';
import { formatDateTime } from '../../lib/format-date';
import { formatBytes } from './attachment-rules';

/** Who reads the thread: the ticket's customer, or staff (who also see the internal notes). */
export type ThreadViewer = MessageAuthorKind;

export interface MessageThreadProps {
  messages: readonly TicketMessage[];
  viewer: ThreadViewer;
  /** Where an attachment's bytes are, for this viewer (the customer's and the admin's routes differ). */
  attachmentHref: (message: TicketMessage, attachment: MessageAttachment) => string;
  /** What an empty thread says. */
  empty: string;
}

/** The side of the conversation a message is on, as this viewer calls it. */
export function authorLabel(kind: MessageAuthorKind, viewer: ThreadViewer): string {
  if (kind === 'staff') return 'Staff';
  return viewer === 'customer' ? 'You' : 'Customer';
}

function tone(message: TicketMessage): string {
  // Not colour alone: an internal note also has a dashed border, a lock and its "Internal note" label.
  if (message.visibility === 'internal') return 'border-2 border-dashed border-amber-700 bg-amber-50';
  return message.author.kind === 'staff' ? 'border border-slate-300 bg-white' : 'border border-brand-100 bg-brand-50';
}

/** A web address in a message: http or https only, without the punctuation that ends the sentence it is in. */
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"']+/gi;
const TRAILING = /[.,;:!?)\]'"]+$/;

/** The parts of a body: text, and the web addresses in it. */
export function bodyParts(body: string): { text: string; href?: string }[] {
  const parts: { text: string; href?: string }[] = [];
  let last = 0;
  for (const match of body.matchAll(URL_PATTERN)) {
    const url = match[0].replace(TRAILING, '');
    const start = match.index;
    if (start > last) parts.push({ text: body.slice(last, start) });
    parts.push({ text: url, href: url });
    last = start + url.length;
  }
  if (last < body.length) parts.push({ text: body.slice(last) });
  return parts;
}

/**
 * A message's text: plain text with its line breaks, its web addresses as links that open apart from this site
 * (no referrer, no opener, not followed by search engines). Never HTML.
 */
function Body({ body }: { body: string }) {
  return (
    <p className="mt-2 whitespace-pre-wrap text-slate-900 [overflow-wrap:anywhere]">
      {bodyParts(body).map((part, index) =>
        part.href ? (
          <a
            key={index}
            href={part.href}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="text-brand-700 underline hover:text-brand-800"
          >
            {part.text}
          </a>
        ) : (
          part.text
        ),
      )}
    </p>
  );
}

function Attachments({ message, href }: { message: TicketMessage; href: MessageThreadProps['attachmentHref'] }) {
  if (message.attachments.length === 0) return null;
  return (
    <ul aria-label="Attachments" className="mt-3 flex flex-col gap-1.5">
      {message.attachments.map((attachment) => (
        <li key={attachment.id}>
          <a
            href={href(message, attachment)}
            download={attachment.filename}
            className="inline-flex max-w-full items-center gap-1.5 font-semibold text-brand-700 underline hover:text-brand-800"
          >
            <Paperclip aria-hidden="true" className="h-4 w-4 shrink-0" />
            <span className="[overflow-wrap:anywhere]">{attachment.filename}</span>{' '}
            <span className="shrink-0 font-normal text-slate-700">({formatBytes(attachment.sizeBytes)})</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

/**
 * A ticket's messages, oldest first. Bodies are plain text: rendered as text (never HTML) with their line
 * breaks kept. A message from the other side that arrives while the thread is open is announced politely.
 */
export function MessageThread({ messages, viewer, attachmentHref, empty }: MessageThreadProps) {
  // The messages of the last render, to tell which ones just arrived (state, not a ref: read while rendering).
  const [shown, setShown] = useState(messages);
  const [announcement, setAnnouncement] = useState('');
  if (shown !== messages) {
    const known = new Set(shown.map((message) => message.id));
    const arrived = messages.filter((message) => !known.has(message.id) && message.author.kind !== viewer);
    setShown(messages);
    if (arrived.length > 0) {
      const last = arrived[arrived.length - 1]!;
      setAnnouncement(arrived.length === 1 ? `New message from ${last.author.name}` : `${arrived.length} new messages`);
    }
  }

  return (
    <>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {messages.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-400 p-5 text-center text-slate-700">{empty}</p>
      ) : (
        <ol aria-label="Messages" className="flex flex-col gap-3">
          {messages.map((message) => (
            <li key={message.id} data-message-id={message.id} className={`rounded-lg p-4 ${tone(message)}`}>
              <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
                <span className="font-semibold text-slate-900 [overflow-wrap:anywhere]">{message.author.name}</span>
                <span className="rounded-full border border-slate-500 bg-white px-2 py-0.5 text-xs font-semibold text-slate-800">
                  {authorLabel(message.author.kind, viewer)}
                </span>
                {message.visibility === 'internal' ? (
                  <span className="inline-flex items-center gap-1 rounded-full bg-amber-800 px-2 py-0.5 text-xs font-semibold text-white">
                    <Lock aria-hidden="true" className="h-3 w-3" />
                    Internal note
                  </span>
                ) : null}
                <time dateTime={message.createdAt} className="text-slate-700">
                  {formatDateTime(message.createdAt)}
                </time>
                {message.via === 'email' ? (
                  <span className="inline-flex items-center gap-1 text-slate-700">
                    <Mail aria-hidden="true" className="h-3.5 w-3.5" />
                    by email
                  </span>
                ) : null}
              </p>
              <Body body={message.body} />
              <Attachments message={message} href={attachmentHref} />
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
