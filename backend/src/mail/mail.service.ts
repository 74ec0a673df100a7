import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { type AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { GroupWriter } from '../common/group-writer';
import { retryTransient } from '../common/transient-errors';
import { sharedParts } from './shared-parts';
import type { MailMessage, MailOutcome, MailTransport } from './mail.types';
import { MAIL_TRANSPORT } from './mail.tokens';

/** What an attempt came to, for its row of the mail log. */
export interface MailLogOutcome {
  readonly id: number;
  readonly status: 'sent' | 'logged' | 'failed';
  readonly messageId: string | null;
  readonly error: string | null;
}

/** A row of the mail log. */
export interface MailLogEntry {
  readonly id: number;
  readonly kind: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string | null;
  readonly status: 'pending' | 'sent' | 'logged' | 'failed';
  readonly transport: string;
  readonly error: string | null;
  readonly createdAt: Date;
}

/**
 * Sends email and records every message in the mail log (mail_messages) before and after the attempt, so
 * nothing is lost: with SMTP the row says whether it was delivered; without SMTP the row is the delivery and
 * the message is logged. Sending never throws: the outcome says what happened.
 */
/** How many outcomes of a batch are written together (see `sendBatch`). */
const RECORD_EVERY = 10;
/** How long a batch's outcomes are retried while the database cannot be reached. */
const RECORD_PATIENCE_MS = 5 * 60_000;

@Injectable()
export class MailService implements OnApplicationShutdown {
  private readonly logger = new Logger(MailService.name);

  /**
   * The log's writes of concurrent sends go in one statement each (see GroupWriter): the row before the
   * attempt, and the outcome after it, still each committed before the send goes on.
   */
  private readonly pending = new GroupWriter<MailMessage, number | null>((messages) => this.insertPending(messages));
  private readonly outcomes = new GroupWriter<MailLogOutcome, null>((outcomes) => this.recordOutcomes(outcomes));

  /** For the outcomes' writes (never destroyed: that would end the pool, which is the app's). */
  private readonly kysely: Kysely<unknown>;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(MAIL_TRANSPORT) private readonly transport: MailTransport,
  ) {
    this.kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: db.pool }) });
  }

  get transportName(): MailTransport['name'] {
    return this.transport.name;
  }

  async send(message: MailMessage): Promise<MailOutcome> {
    const id = await this.pending.submit(message);
    if (id === null) return this.alreadyLogged(message);
    return this.attempt(id, message);
  }

  /**
   * `send`, except that the attempt's outcome is not written to its row of the mail log: the caller writes
   * it (`MailService.writeOutcomes`) in the same transaction as its own record of the attempt, one commit
   * instead of two. Until then the row stays pending; if the caller never writes it (a crash), a later
   * send of the same key with `resumeInterrupted` tries it again, as after a crash inside `send`.
   * `outcome` is null when there is nothing left to write (a duplicate, or a retry recorded by `send`).
   */
  async sendUnrecorded(message: MailMessage): Promise<{ readonly result: MailOutcome; readonly outcome: MailLogOutcome | null }> {
    const id = await this.pending.submit(message);
    if (id === null) return { result: await this.alreadyLogged(message), outcome: null };
    return this.deliver(id, message);
  }

  /**
   * Delivers a message whose pending row another statement wrote (`pendingRowsFrom`), without writing its
   * outcome: as `sendUnrecorded` once that row is in. The caller must have the row's key to itself (the
   * notifications worker, under its lock), as for `resumeInterrupted`.
   */
  deliverPending(id: number, message: MailMessage): Promise<{ readonly result: MailOutcome; readonly outcome: MailLogOutcome }> {
    return this.deliver(id, message);
  }

  /**
   * An INSERT of pending rows of the mail log, one per row of `relation` (a CTE of the caller's statement with
   * the columns idempotency_key, kind, to_address, subject, text_body, html_body), with the transport named
   * by the parameter `transport` (`transportName`). A key already in the log is left alone. It lets an
   * outbox write its jobs and their rows of the log in one statement, one commit instead of two; the rows
   * are what `send` would write before the attempt.
   */
  static pendingRowsFrom(relation: string, transport: string): string {
    return `INSERT INTO mail_messages (idempotency_key, kind, to_address, subject, text_body, html_body, transport, status)
       SELECT idempotency_key, kind, to_address, subject, text_body, html_body, ${transport}::text, 'pending' FROM ${relation}
       ON CONFLICT (idempotency_key) DO NOTHING`;
  }

  /**
   * Several messages that go together (a marketing campaign's batch): their pending rows in one statement,
   * every delivery at once (the transport's pool bounds the connections), and their outcomes RECORD_EVERY at a
   * time as they come, instead of a write for each. Each row is still committed before its SMTP exchange, so a
   * message is still never sent twice; what a crash in the middle costs is that up to RECORD_EVERY delivered
   * messages besides those in flight have no outcome yet (their rows stay pending: "interrupted").
   * Answers one outcome per message, in order, as `send` would; rejects only when the outcomes cannot be
   * written (the rows then stay pending: a resend answers them as duplicates, never sends them again).
   */
  async sendBatch(messages: readonly MailMessage[]): Promise<MailOutcome[]> {
    if (messages.length === 0) return [];
    const ids = await this.insertPending(messages);
    // Outcomes are recorded as they come, RECORD_EVERY at a time (one write in flight), and the rest at the
    // end: a crash mid-batch leaves at most that many delivered messages unrecorded ("Interrupted during
    // delivery"), besides those still in their SMTP exchange, instead of the whole batch.
    const unrecorded: MailLogOutcome[] = [];
    let recording: Promise<unknown> = Promise.resolve();
    const record = (): void => {
      const chunk = unrecorded.splice(0);
      // The messages are out: their outcomes are retried while the database is away (a restart, a short stop),
      // since a batch whose outcomes are lost is sent again by whoever takes it over.
      recording = recording.then(() => retryTransient(() => this.recordOutcomes(chunk), { patienceMs: RECORD_PATIENCE_MS }));
      // Awaited below; marked handled now so that a failed write is not an unhandled rejection meanwhile.
      recording.catch(() => undefined);
    };
    const results = await Promise.all(
      messages.map(async (message, index) => {
        const id = ids[index];
        if (id === null || id === undefined) return this.alreadyLogged(message);
        const attempt = await this.deliver(id, message);
        unrecorded.push(attempt.outcome);
        if (unrecorded.length >= RECORD_EVERY) record();
        return attempt.result;
      }),
    );
    if (unrecorded.length > 0) record();
    await recording;
    return results;
  }

  /** A keyed message whose key is in the log already: tried again when that attempt failed, else a duplicate. */
  private async alreadyLogged(message: MailMessage): Promise<MailOutcome> {
    const retry = await this.retryUndelivered(message.idempotencyKey!, message);
    if (retry) return retry;
    const { rows } = await this.db.pool.query<{ id: number }>('SELECT id FROM mail_messages WHERE idempotency_key = $1', [
      message.idempotencyKey,
    ]);
    return { status: 'duplicate', id: rows[0]!.id };
  }

  /**
   * The pending rows of several messages in one statement. Each row's id is drawn from the sequence first,
   * so every message learns its own (null: its key is already in the log, the row is another's). The bodies
   * the messages share (a campaign's content around each recipient's footer) go once, not once per row: the
   * statement puts every body back together, so the rows are what they would be otherwise.
   */
  private async insertPending(messages: readonly MailMessage[]): Promise<(number | null)[]> {
    const text = sharedParts(messages.map((message) => message.text));
    const html = sharedParts(messages.map((message) => message.html ?? null));
    const { rows } = await this.db.pool.query<{ ord: number; id: number | null }>(
      `WITH input AS MATERIALIZED (
         SELECT t.*, nextval(pg_get_serial_sequence('mail_messages', 'id')) AS new_id
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
           WITH ORDINALITY AS t(idempotency_key, kind, to_address, subject, text_middle, html_middle, headers, ord)
       ), inserted AS (
         INSERT INTO mail_messages (id, idempotency_key, kind, to_address, subject, text_body, html_body, headers, transport, status)
         SELECT new_id, idempotency_key, kind, to_address, subject, $9::text || text_middle || $10::text, $11::text || html_middle || $12::text,
                headers::jsonb, $8, 'pending'
         FROM input ORDER BY ord
         ON CONFLICT (idempotency_key) DO NOTHING
         RETURNING id
       )
       SELECT input.ord::int AS ord, inserted.id FROM input LEFT JOIN inserted ON inserted.id = input.new_id ORDER BY input.ord`,
      [
        messages.map((message) => message.idempotencyKey ?? null),
        messages.map((message) => message.kind),
        messages.map((message) => message.to),
        messages.map((message) => message.subject),
        text.middles,
        html.middles,
        messages.map((message) => JSON.stringify(message.headers ?? {})),
        this.transport.name,
        text.prefix,
        text.suffix,
        html.prefix,
        html.suffix,
      ],
    );
    return rows.map((row) => row.id);
  }

  /** The outcomes of several attempts in one statement. */
  private async recordOutcomes(outcomes: readonly MailLogOutcome[]): Promise<null[]> {
    await MailService.writeOutcomes(this.kysely, outcomes);
    return outcomes.map(() => null);
  }

  /**
   * Writes attempts' outcomes to their rows of the mail log (one statement on `db`): for a caller that writes
   * them in its own transaction together with its records of the same attempts (`sendUnrecorded`).
   */
  static async writeOutcomes(db: Kysely<unknown>, outcomes: readonly MailLogOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const ids = outcomes.map((outcome) => outcome.id);
    await sql`UPDATE mail_messages AS m
       SET status = v.status,
           message_id = CASE WHEN v.status = 'failed' THEN m.message_id ELSE v.message_id END,
           sent_at = CASE WHEN v.status = 'failed' THEN m.sent_at ELSE now() END,
           error = CASE WHEN v.status = 'failed' THEN v.error ELSE m.error END
       FROM unnest(${ids}::bigint[], ${outcomes.map((outcome) => outcome.status)}::text[],
                   ${outcomes.map((outcome) => outcome.messageId)}::text[], ${outcomes.map((outcome) => outcome.error)}::text[])
            AS v(id, status, message_id, error)
       WHERE m.id = v.id AND m.id = ANY(${ids}::bigint[])`.execute(db);
  }

  /**
   * A keyed message whose earlier attempt failed is tried again under the same row (and one left pending by
   * a stopped process, when the caller says it is the key's only sender).
   */
  private async retryUndelivered(key: string, message: MailMessage): Promise<MailOutcome | null> {
    const statuses = message.resumeInterrupted ? ['failed', 'pending'] : ['failed'];
    const { rows } = await this.db.pool.query<{ id: number }>(
      `UPDATE mail_messages SET status = 'pending', error = NULL, transport = $2
       WHERE idempotency_key = $1 AND status = ANY($3::text[]) RETURNING id`,
      [key, this.transport.name, statuses],
    );
    const row = rows[0];
    if (!row) return null;
    const { rows: stored } = await this.db.pool.query<{
      kind: string;
      to_address: string;
      subject: string;
      text_body: string;
      html_body: string | null;
      headers: Record<string, string>;
    }>('SELECT kind, to_address, subject, text_body, html_body, headers FROM mail_messages WHERE id = $1', [row.id]);
    const m = stored[0]!;
    return this.attempt(row.id, {
      kind: m.kind,
      to: m.to_address,
      subject: m.subject,
      text: m.text_body,
      ...(m.html_body === null ? {} : { html: m.html_body }),
      headers: m.headers,
      ...(message.messageId === undefined ? {} : { messageId: message.messageId }),
    });
  }

  /** Delivers a message whose pending row is in the log, and writes its outcome to the row. */
  private async attempt(id: number, message: MailMessage): Promise<MailOutcome> {
    const { outcome, result } = await this.deliver(id, message);
    if (outcome.status === 'failed') return this.recordFailure(outcome, result);
    try {
      await this.outcomes.submit(outcome);
      return result;
    } catch (error) {
      // Never throws: an outcome that cannot be written is answered (and, if it can be, recorded) as a failure.
      const text = error instanceof Error ? error.message : String(error);
      this.logger.error(`Email #${id} (${message.kind}) to ${message.to} failed: ${text}`);
      return this.recordFailure(
        { id, status: 'failed', messageId: null, error: text.slice(0, 2000) },
        { status: 'failed', id, error: text },
      );
    }
  }

  private async recordFailure(outcome: MailLogOutcome, result: MailOutcome): Promise<MailOutcome> {
    await this.outcomes
      .submit(outcome)
      .catch((updateError: unknown) => this.logger.error(`Could not record the failure of email #${outcome.id}: ${String(updateError)}`));
    return result;
  }

  /** One delivery attempt: what the row must say, and what the caller is told. Never throws. */
  private async deliver(id: number, message: MailMessage): Promise<{ outcome: MailLogOutcome; result: MailOutcome }> {
    try {
      const delivered = await this.transport.deliver(this.config.MAIL_FROM, message);
      const messageId = delivered.messageId ?? message.messageId ?? null;
      if (this.transport.name !== 'smtp') {
        // The text carries verification and reset links: printed for a developer's convenience only, never in
        // production, where logs travel further than the mail log table does.
        const body = this.config.NODE_ENV === 'production' ? '' : `\n${message.text}`;
        this.logger.log(
          `Email #${id} (${message.kind}) to ${message.to}: "${message.subject}" recorded in the mail log (no SMTP_URL)${body}`,
        );
        return { outcome: { id, status: 'logged', messageId, error: null }, result: { status: 'logged', id } };
      }
      this.logger.log(`Email #${id} (${message.kind}) sent to ${message.to}`);
      return { outcome: { id, status: 'sent', messageId, error: null }, result: { status: 'sent', id, messageId } };
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.logger.error(`Email #${id} (${message.kind}) to ${message.to} failed: ${text}`);
      return {
        outcome: { id, status: 'failed', messageId: null, error: text.slice(0, 2000) },
        result: { status: 'failed', id, error: text },
      };
    }
  }

  /** Checks the connection to the mail server (a no-op without SMTP). */
  verifyConnection(): Promise<void> {
    return this.transport.verify();
  }

  /** The newest messages to one address, newest first (for tests, support and the log-only mode). */
  async messagesTo(address: string, limit = 20): Promise<MailLogEntry[]> {
    const { rows } = await this.db.pool.query<{
      id: number;
      kind: string;
      to_address: string;
      subject: string;
      text_body: string;
      html_body: string | null;
      status: MailLogEntry['status'];
      transport: string;
      error: string | null;
      created_at: Date;
    }>(
      `SELECT id, kind, to_address, subject, text_body, html_body, status, transport, error, created_at
       FROM mail_messages WHERE lower(to_address) = lower($1) ORDER BY id DESC LIMIT $2`,
      [address, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      to: row.to_address,
      subject: row.subject,
      text: row.text_body,
      html: row.html_body,
      status: row.status,
      transport: row.transport,
      error: row.error,
      createdAt: row.created_at,
    }));
  }

  onApplicationShutdown(): void {
    this.transport.close();
  }
}
