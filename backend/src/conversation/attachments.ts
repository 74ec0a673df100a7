import { createHash } from 'node:crypto';
import { ATTACHMENT_TYPES, type AttachmentContentType } from '@ppr/contracts';
import { loadEsm } from 'load-esm';
import type { Pool } from 'pg';

/** What is used of `file-type` (an ES module; its own types cannot be imported from CommonJS without it). */
interface FileTypeModule {
  fileTypeFromBuffer(buffer: Uint8Array): Promise<{ readonly ext: string; readonly mime: string } | undefined>;
}
let fileType: Promise<FileTypeModule> | undefined;

/** `file-type` is an ES module only; it is loaded once, at the first attachment. */
function fileTypeModule(): Promise<FileTypeModule> {
  fileType ??= loadEsm<FileTypeModule>('file-type');
  return fileType;
}

/** The bytes are text a person wrote: valid UTF-8 (a BOM allowed), no NUL and no control characters but tab, line breaks and form feed. */
export function isPlainText(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u0008\u000B\u000E-\u001F\u007F]/.test(text);
}

/**
 * What an attachment is, decided by its bytes (the name and the type its sender claims are never believed):
 * one of ATTACHMENT_TYPES, or null. An empty file is nothing.
 */
export async function detectAttachmentType(bytes: Uint8Array): Promise<AttachmentContentType | null> {
  if (bytes.length === 0) return null;
  const detected = await (await fileTypeModule()).fileTypeFromBuffer(bytes);
  if (detected) return detected.mime in ATTACHMENT_TYPES ? (detected.mime as AttachmentContentType) : null;
  return isPlainText(bytes) ? 'text/plain' : null;
}

const MAX_NAME_LENGTH = 100;

/**
 * The name an attachment is stored and downloaded under: the sender's name without any folder, control or
 * path characters, at most 100 characters, ending with the extension of what the bytes are (a `.exe` renamed
 * `.png` that is really a PNG is `....png`; an HTML page never gets to be `.html`).
 */
export function attachmentFilename(original: string, type: AttachmentContentType): string {
  const extension = ATTACHMENT_TYPES[type];
  const base = (original.split(/[\\/]/).pop() ?? '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001F\u007F"*:<>?|]/g, '')
    .normalize('NFC')
    .trim()
    .replace(/\.[^.]*$/, '')
    .replace(/^\.+/, '');
  const stem = [...(base || 'attachment')].slice(0, MAX_NAME_LENGTH - extension.length - 1).join('');
  return `${stem}.${extension}`;
}

/** An attachment on its way into ticket_attachments. */
export interface NewAttachment {
  readonly id: string;
  readonly filename: string;
  readonly contentType: AttachmentContentType;
  readonly content: Buffer;
}

export interface StoredAttachment {
  readonly id: string;
  readonly filename: string;
  readonly contentType: AttachmentContentType;
  readonly sizeBytes: number;
  readonly sha256: string;
}

/**
 * Stores a message's files before its event is appended (the event lists them by id). An id already there
 * (the same message sent again with its Idempotency-Key) keeps its first row.
 */
export async function storeAttachments(
  pool: Pool,
  ticketId: number,
  messageId: string,
  files: readonly NewAttachment[],
): Promise<StoredAttachment[]> {
  const stored = files.map((file) => ({
    id: file.id,
    filename: file.filename,
    contentType: file.contentType,
    sizeBytes: file.content.length,
    sha256: createHash('sha256').update(file.content).digest('hex'),
  }));
  if (files.length === 0) return stored;
  await pool.query(
    `INSERT INTO ticket_attachments (id, ticket_id, message_id, filename, content_type, size_bytes, sha256, content)
     SELECT * FROM unnest($1::uuid[], $2::int[], $3::uuid[], $4::text[], $5::text[], $6::int[], $7::text[], $8::bytea[])
     ON CONFLICT (id) DO NOTHING`,
    [
      stored.map((file) => file.id),
      stored.map(() => ticketId),
      stored.map(() => messageId),
      stored.map((file) => file.filename),
      stored.map((file) => file.contentType),
      stored.map((file) => file.sizeBytes),
      stored.map((file) => file.sha256),
      files.map((file) => file.content),
    ],
  );
  return stored;
}

export interface AttachmentFile {
  readonly filename: string;
  readonly contentType: AttachmentContentType;
  readonly content: Buffer;
}

/**
 * One attachment's bytes, when it belongs to a message of this ticket that the reader may see (`staff`: any,
 * the customer: public messages only); null otherwise, so that an id tells nothing about another ticket.
 */
export async function findAttachment(
  pool: Pool,
  ticketId: number,
  attachmentId: string,
  reader: 'customer' | 'staff',
): Promise<AttachmentFile | null> {
  const { rows } = await pool.query<{ filename: string; content_type: AttachmentContentType; content: Buffer }>(
    `SELECT a.filename, a.content_type, a.content FROM ticket_attachments AS a
     JOIN ticket_messages AS m ON m.id = a.message_id AND m.ticket_id = a.ticket_id
     WHERE a.id = $1 AND a.ticket_id = $2 AND ($3 OR m.visibility = 'public')`,
    [attachmentId, ticketId, reader === 'staff'],
  );
  const row = rows[0];
  return row ? { filename: row.filename, contentType: row.content_type, content: row.content } : null;
}
