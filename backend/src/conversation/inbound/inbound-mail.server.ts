import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { HttpException, HttpStatus, Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { MESSAGE_BODY_MAX_LENGTH, MESSAGE_ATTACHMENTS_MAX_BYTES, type TicketDetail } from '@ppr/contracts';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { RateLimiter } from '../../auth/rate-limiter';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.tokens';
import { GetTicketDetailQuery } from '../../tickets/queries/customer-ticket.queries';
import { ConversationService } from '../conversation.service';
import { MessageLimits } from '../message-limits';
import { ReplyAddresses } from '../reply-address';
import { isAutomatic, replyText } from './reply-text';

/** A message past this is refused at once (552): the attachments' limit and room for the text and encoding. */
const MAX_MESSAGE_BYTES = Math.ceil(MESSAGE_ATTACHMENTS_MAX_BYTES * 1.4) + 1024 * 1024;
const SHORTENED = '\n\n[The rest of this email was left out: a message is at most 10,000 characters.]';
const FILES_ONLY = '(Files sent by email.)';

const INBOUND_ACTOR = { kind: 'system', id: 'inbound-email' } as const;

/** A message's text within the body's limit: a longer email is shortened, saying so. */
function fitted(text: string): string {
  return text.length > MESSAGE_BODY_MAX_LENGTH ? text.slice(0, MESSAGE_BODY_MAX_LENGTH - SHORTENED.length) + SHORTENED : text;
}

/** An SMTP answer: `code` and the text the sending server puts in its bounce or retries after. */
function smtpError(code: number, text: string): Error {
  return Object.assign(new Error(text), { responseCode: code });
}

/**
 * The inbound SMTP receiver of email replies (INBOUND_SMTP_PORT): a customer answers a ticket-reply email, whose
 * Reply-To is the ticket's reply address (reply-address.ts), and the answer is posted on the ticket as the
 * customer's message, via `email`. Refused at RCPT (550): any other address. Refused after DATA: files the portal
 * would refuse (550 with the reason). Held for staff's review as an internal note: a sender that is not the
 * ticket's email address.
 * Accepted and dropped, logged: automatic answers and bounces, a reply with no new text and no files. Told to
 * retry later (451): the ticket's message limit, the database away. The same Message-ID posts once (a
 * retrying sender after a lost answer).
 */
@Injectable()
export class InboundMailServer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('InboundMail');
  private readonly replies: ReplyAddresses;
  private readonly limits: MessageLimits;
  private server: SMTPServer | null = null;

  constructor(
    private readonly conversation: ConversationService,
    private readonly queries: QueryBus,
    limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.replies = new ReplyAddresses(config);
    this.limits = new MessageLimits(limiter, config);
  }

  /** Where it listens; null when it does not (no INBOUND_SMTP_PORT or INBOUND_EMAIL_DOMAIN). */
  address(): AddressInfo | null {
    const address = this.server?.server.address();
    return address && typeof address === 'object' ? address : null;
  }

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.INBOUND_SMTP_PORT;
    if (port === undefined) return;
    if (!this.replies.enabled) {
      this.logger.warn('INBOUND_SMTP_PORT is set but INBOUND_EMAIL_DOMAIN is not: no reply address exists, the receiver does not start');
      return;
    }
    const server = new SMTPServer({
      name: this.config.INBOUND_EMAIL_DOMAIN,
      banner: 'Replies to Potomac PC Repair tickets',
      size: MAX_MESSAGE_BYTES,
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        this.replies.ticketOf(address.address).then(
          (ticketId) => callback(ticketId === null ? smtpError(550, '5.1.1 No such recipient') : undefined),
          (error: unknown) => callback(this.temporary(error)),
        );
      },
      onData: (stream, session, callback) => {
        this.receive(stream, session).then(
          () => callback(),
          (error: unknown) => callback(error instanceof Error && 'responseCode' in error ? error : this.temporary(error)),
        );
      },
    });
    server.on('error', (error) => this.logger.error(`Inbound SMTP: ${error.message}`));
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(port, this.config.INBOUND_SMTP_HOST, () => resolve());
    });
    this.server = server;
    this.logger.log(`Receiving email replies for @${this.config.INBOUND_EMAIL_DOMAIN} on port ${this.address()?.port ?? port}`);
  }

  async onModuleDestroy(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * A reply from another address than the ticket's is never posted as the customer: it is held for staff's
   * review as an internal note (staff only; no email, feed or webhook carries it), its files not kept.
   */
  private async hold(ticket: TicketDetail, from: string, mail: ParsedMail, text: string, files: number): Promise<void> {
    this.logger.warn(`Reply to ticket ${ticket.id} from ${from || 'no sender'}: not the ticket's address, held for review`);
    const sender = from || 'an unknown sender';
    const lines = [
      `Held for review: an email from ${sender}, which is not the ticket's address (${ticket.email}). It was not posted as the customer's message and the customer does not see it.`,
      `Subject: ${mail.subject ?? '(none)'}`,
      ...(files > 0 ? [`${files} attached file${files === 1 ? ' was' : 's were'} not kept.`] : []),
      text === '' ? '(No text.)' : text,
    ];
    await this.conversation.post({
      ticketId: ticket.id,
      author: { kind: 'staff', id: null, name: `Email from ${sender}` },
      visibility: 'internal',
      via: 'email',
      body: fitted(lines.join('\n\n')),
      files: [],
      context: { actor: INBOUND_ACTOR, correlationId: randomUUID() },
      dedupeKey: `held:${mail.messageId ?? randomUUID()}`,
    });
  }

  private temporary(error: unknown): Error {
    this.logger.error(`Inbound SMTP: ${error instanceof Error ? error.message : String(error)}`);
    return smtpError(451, '4.3.0 Temporary failure, please try again later');
  }

  private async receive(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    if (stream.sizeExceeded) throw smtpError(552, '5.3.4 Message too big: attachments are at most 25 MB in all');
    const mail = await simpleParser(Buffer.concat(chunks));
    const envelopeFrom = session.envelope.mailFrom === false ? false : session.envelope.mailFrom.address;
    if (isAutomatic(mail.headers, envelopeFrom)) {
      this.logger.log(`Automatic email from ${envelopeFrom || '<>'} dropped (${mail.subject ?? 'no subject'})`);
      return;
    }
    const tickets = new Set<number>();
    for (const recipient of session.envelope.rcptTo) {
      const ticketId = await this.replies.ticketOf(recipient.address);
      if (ticketId !== null) tickets.add(ticketId);
    }
    const from = mail.from?.value[0]?.address ?? '';
    for (const ticketId of tickets) await this.post(ticketId, from, mail);
  }

  private async post(ticketId: number, from: string, mail: ParsedMail): Promise<void> {
    const ticket: TicketDetail | null = await this.queries.execute(new GetTicketDetailQuery(ticketId));
    if (!ticket) throw smtpError(550, '5.1.1 No such recipient');
    const held = from.toLowerCase() !== ticket.email.toLowerCase();
    const text = await replyText(mail.text ?? '');
    const files = mail.attachments
      .filter((attachment) => attachment.contentDisposition !== 'inline' || !attachment.contentId)
      .map((attachment) => ({ originalName: attachment.filename ?? 'attachment', content: attachment.content }));
    if (text === '' && files.length === 0) {
      this.logger.log(`Reply to ticket ${ticketId} without new text or files dropped`);
      return;
    }
    try {
      await this.limits.consume(ticketId, null);
      if (held) {
        await this.hold(ticket, from, mail, text, files.length);
        return;
      }
      await this.conversation.post({
        ticketId,
        author: { kind: 'customer', id: null, name: ticket.contactName },
        visibility: 'public',
        via: 'email',
        body: fitted(text === '' ? FILES_ONLY : text),
        files,
        context: { actor: INBOUND_ACTOR, correlationId: randomUUID() },
        dedupeKey: mail.messageId ?? randomUUID(),
      });
      this.logger.log(`Email reply posted on ticket ${ticketId}`);
    } catch (error) {
      if (!(error instanceof HttpException)) throw error;
      const status = error.getStatus();
      if (status === HttpStatus.TOO_MANY_REQUESTS) throw smtpError(451, '4.7.1 Too many messages on this ticket; please try again later');
      const response = error.getResponse();
      const message = typeof response === 'object' && response && 'message' in response ? String(response.message) : error.message;
      throw smtpError(status === HttpStatus.PAYLOAD_TOO_LARGE ? 552 : 550, `5.6.0 ${message}`);
    }
  }
}
