import { createHash, randomUUID } from 'node:crypto';
import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  type ApiError,
  type AttachmentContentType,
  type MessageVisibility,
  messageTexts,
  type TicketMessage,
  type TicketMessages,
} from '@ppr/contracts';
import type { RequestContext } from '../common/request-context';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { ReadYourWrites } from '../projections/read-your-writes';
import { HandleTicketCommand } from '../tickets/commands/handle-ticket.command';
import {
  attachmentFilename,
  type AttachmentFile,
  detectAttachmentType,
  findAttachment,
  type NewAttachment,
  storeAttachments,
} from './attachments';
import type { UploadedFile } from './message-form';
import { markRead, type ReaderSide, readRevision } from './message-reads';

/** Who writes a message, as the event records it. */
export interface MessageAuthor {
  readonly kind: 'customer' | 'staff';
  /** The customer's account id or the admin's id; null for a guest or a reply by email. */
  readonly id: string | null;
  readonly name: string;
}

export interface NewMessage {
  readonly ticketId: number;
  readonly author: MessageAuthor;
  readonly visibility: MessageVisibility;
  readonly via: 'portal' | 'email';
  readonly body: string;
  readonly files: readonly UploadedFile[];
  readonly context: RequestContext;
  /**
   * What makes a repeated send the same message: the request's Idempotency-Key, an email's Message-ID. The same
   * key from the same author on the same ticket posts the message once.
   */
  readonly dedupeKey?: string;
}

interface MessageRow {
  id: string;
  ticket_id: number;
  revision: string;
  author_kind: 'customer' | 'staff';
  author_name: string;
  visibility: MessageVisibility;
  via: 'portal' | 'email';
  body: string;
  attachments: { id: string; filename: string; contentType: AttachmentContentType; sizeBytes: number }[];
  created_at: Date;
}

function toMessage(row: MessageRow): TicketMessage {
  return {
    id: row.id,
    ticketId: row.ticket_id,
    author: { kind: row.author_kind, name: row.author_name },
    visibility: row.visibility,
    via: row.via,
    body: row.body,
    attachments: row.attachments.map(({ id, filename, contentType, sizeBytes }) => ({ id, filename, contentType, sizeBytes })),
    createdAt: row.created_at.toISOString(),
  };
}

/** A UUID (version 8, RFC 9562: custom) made from text: the same text, the same id. */
export function uuidFrom(text: string): string {
  const hex = createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32).split('');
  hex[12] = '8';
  hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * The ticket conversation: posting a message (its files judged by their bytes and stored first, then the
 * PostMessage command through the one ticket command path, answered once the read side shows it), reading the
 * thread (which marks it read for the reader's side) and serving an attachment. Who may do which is the
 * controllers' (TicketAccess for customers, AdminGuard for staff).
 */
@Injectable()
export class ConversationService {
  constructor(
    private readonly commands: CommandBus,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(DATABASE) private readonly db: Database,
  ) {}

  async post(message: NewMessage): Promise<TicketMessage> {
    const messageId =
      message.dedupeKey === undefined
        ? randomUUID()
        : uuidFrom(`message:${message.ticketId}:${message.author.kind}:${message.author.id ?? ''}:${message.dedupeKey}`);
    // Every file is judged before anything is written: one refused file refuses the message.
    const files: NewAttachment[] = [];
    for (const [index, file] of message.files.entries()) {
      const contentType = await detectAttachmentType(file.content);
      if (!contentType) {
        throw new BadRequestException({
          message: messageTexts.attachmentType,
          errors: [{ path: `attachments.${index}`, message: `${messageTexts.attachmentType}: ${file.originalName}` }],
        } satisfies ApiError);
      }
      files.push({
        id: uuidFrom(`attachment:${messageId}:${index}`),
        filename: attachmentFilename(file.originalName, contentType),
        contentType,
        content: file.content,
      });
    }
    const attachments = await storeAttachments(this.db.pool, message.ticketId, messageId, files);
    const command: ConstructorParameters<typeof HandleTicketCommand>[1] = {
      type: 'PostMessage',
      data: {
        messageId,
        author: message.author,
        visibility: message.visibility,
        via: message.via,
        body: message.body,
        attachments,
      },
    };
    const result = await this.commands.execute(new HandleTicketCommand(message.ticketId, command, message.context));
    await this.readYourWrites.waitFor(['tickets'], result.current);
    const row = await this.messageRow(message.ticketId, messageId);
    if (!row) {
      // The read side is behind its wait (a restart of the database): the message as it was sent.
      return toMessage({
        id: messageId,
        ticket_id: message.ticketId,
        revision: '0',
        author_kind: message.author.kind,
        author_name: message.author.name,
        visibility: message.visibility,
        via: message.via,
        body: message.body,
        attachments,
        created_at: new Date(),
      });
    }
    // Writing is reading: what the writer answered needs no badge.
    await markRead(this.db.pool, message.ticketId, message.author.kind === 'customer' ? 'customer' : 'staff', Number(row.revision));
    return toMessage(row);
  }

  /**
   * The thread as `side` sees it (a customer: public messages only), oldest first, and how many of the other
   * side's messages it had not read; the thread is then read up to its newest message.
   */
  async thread(ticketId: number, side: ReaderSide): Promise<TicketMessages> {
    const [rows, marker] = await Promise.all([this.rows(ticketId, side), readRevision(this.db.pool, ticketId, side)]);
    const other = side === 'customer' ? 'staff' : 'customer';
    const unread = rows.filter((row) => row.author_kind === other && row.visibility === 'public' && Number(row.revision) > marker).length;
    const newest = rows.at(-1);
    if (newest && Number(newest.revision) > marker) await markRead(this.db.pool, ticketId, side, Number(newest.revision));
    return { messages: rows.map(toMessage), unread };
  }

  /** An attachment of this ticket's messages that `side` may see; 404 otherwise. */
  async attachment(ticketId: number, attachmentId: string, side: ReaderSide): Promise<AttachmentFile> {
    const file = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(attachmentId)
      ? await findAttachment(this.db.pool, ticketId, attachmentId, side)
      : null;
    if (!file) throw new NotFoundException({ message: messageTexts.attachmentNotFound } satisfies ApiError);
    return file;
  }

  private async rows(ticketId: number, side: ReaderSide): Promise<MessageRow[]> {
    const { rows } = await this.db.pool.query<MessageRow>(
      `SELECT id, ticket_id, revision, author_kind, author_name, visibility, via, body, attachments, created_at
       FROM ticket_messages WHERE ticket_id = $1 AND ($2 OR visibility = 'public') ORDER BY revision`,
      [ticketId, side === 'staff'],
    );
    return rows;
  }

  private async messageRow(ticketId: number, messageId: string): Promise<MessageRow | null> {
    const { rows } = await this.db.pool.query<MessageRow>(
      `SELECT id, ticket_id, revision, author_kind, author_name, visibility, via, body, attachments, created_at
       FROM ticket_messages WHERE ticket_id = $1 AND id = $2`,
      [ticketId, messageId],
    );
    return rows[0] ?? null;
  }
}
