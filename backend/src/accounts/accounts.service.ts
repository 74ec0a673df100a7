import { createHash, randomUUID } from 'node:crypto';
import {
  ConflictException,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { accountMessages, type ApiError, type CurrentCustomer, type RegisterRequest } from '@ppr/contracts';
import { type CustomerPrincipal, principalKey } from '../auth/principal';
import { RateLimiter } from '../auth/rate-limiter';
import { PgSessionStore } from '../auth/session-store';
import { type AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { escapeHtml } from '../mail/html';
import type { MailMessage } from '../mail/mail.types';
import type { EmailQueuePort } from '../notifications/email-queue.port';
import { EMAIL_QUEUE } from '../notifications/notifications.tokens';
import { alreadyRegisteredEmail, passwordChangedEmail, passwordResetEmail, verificationEmail } from './account-emails';
import * as users from './accounts.repository';
import { assertAcceptablePassword, hashPassword, passwordProblem, verifyAgainstNothing, verifyPassword } from './passwords';
import { newToken, tokenHash } from './tokens';

export function toPrincipal(user: users.UserRow): CustomerPrincipal {
  return { kind: 'customer', id: user.id, username: user.username, email: user.email, emailVerified: user.isVerified };
}

export function toCurrentCustomer(user: CustomerPrincipal): CurrentCustomer {
  return { id: user.id, username: user.username, email: user.email, emailVerified: user.emailVerified };
}

export class TooManyRequestsException extends HttpException {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super({ message } satisfies ApiError, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/**
 * Work that runs after the answer has been sent (emails): what the answer says and how long it takes must not
 * depend on whether an address has an account, and sending mail (SMTP, the mail log) takes long enough to tell.
 */
export type FollowUp = () => Promise<void>;

/** The part of an HTTP response a follow-up waits for: the end of the answer. */
export interface AnswerEnd {
  readonly destroyed: boolean;
  readonly writableFinished: boolean;
  once(event: 'close', listener: () => void): unknown;
}

/**
 * Per-recipient caps of the account emails anyone can trigger by typing an address (registration,
 * resend, forgot password): whoever asks, an address receives at most this many of each kind per hour.
 * Past a cap the request gets the same answer and no email (and the log says so).
 */
export const ACCOUNT_MAIL_CAPS_PER_HOUR = {
  /** "You already have an account": one is enough to tell the owner; 25 were a mail bomb. */
  'account-exists': 1,
  /** A person who registers and asks for a new link twice still gets every link. */
  'account-verification': 3,
  'password-reset': 3,
} as const;
type CappedMail = keyof typeof ACCOUNT_MAIL_CAPS_PER_HOUR;

/** New verification emails one account may ask for per hour (its own requests: a 429 past it). */
const VERIFICATION_RESENDS_PER_HOUR = 3;

/** What shows that the person verifying an address is the one who registered the account. */
export interface VerificationProof {
  /** Accounts registered from the request's browser session. */
  readonly registeredInSession: readonly number[];
  /** The customer the session is logged in as (they knew the password). */
  readonly loggedInAs: number | null;
  /** The account's password, typed on the verification page. */
  readonly password?: string | undefined;
}

export type VerificationPageState =
  { readonly state: 'ok'; readonly username: string; readonly askPassword: boolean } | { readonly state: 'invalid' | 'expired' };

export type VerificationOutcome = 'ok' | 'invalid' | 'expired' | 'needs-password' | 'wrong-password' | 'address-taken';

/** SHA-256 of a normalised address or identifier: rate-limit keys then hold no personal data. */
function keyOf(text: string): string {
  return createHash('sha256').update(text.normalize('NFKC').trim().toLowerCase(), 'utf8').digest('hex');
}

/** The login counter of an account, shared by its username and its address. */
export function loginAccountKey(accountId: number): string {
  return `login:account:${accountId}`;
}

/** The login counter of an identifier that names no account: its own, so the 429 says nothing about existence. */
export function unknownLoginKey(identifier: string): string {
  return `login:unknown:${keyOf(identifier)}`;
}

/** Customer accounts: registration, verification, credentials, password reset. */
@Injectable()
export class AccountsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(AccountsService.name);
  private readonly pending = new Set<Promise<void>>();

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EMAIL_QUEUE) private readonly emails: EmailQueuePort,
    private readonly limiter: RateLimiter,
    private readonly sessions: PgSessionStore,
  ) {}

  onModuleInit(): void {
    // Loads the common-password list now rather than inside the first registration.
    passwordProblem('warm up the list', { username: '', email: '' });
  }

  /** Emails still being sent after their answers are finished before the database closes. */
  async onModuleDestroy(): Promise<void> {
    await this.settled();
  }

  /** Resolves once every follow-up started so far has finished (shutdown; tests). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /**
   * Runs the follow-up once the answer has been sent (or the client has gone). Errors are logged: the person
   * already has their answer, and a follow-up only sends email, which the mail log records either way.
   */
  afterAnswer(response: AnswerEnd, label: string, work: FollowUp): void {
    const answered =
      response.destroyed || response.writableFinished ? Promise.resolve() : new Promise<void>((resolve) => response.once('close', resolve));
    const task = answered.then(work).catch((error: unknown) => {
      this.logger.error(`${label} failed after the answer: ${error instanceof Error ? error.message : String(error)}`);
    });
    this.pending.add(task);
    void task.finally(() => this.pending.delete(task));
  }

  private get baseUrl(): string {
    return (this.config.APP_BASE_URL ?? `http://localhost:${this.config.PORT}`).replace(/\/+$/, '');
  }

  private get loginWindowSeconds(): number {
    return this.config.LOGIN_WINDOW_MINUTES * 60;
  }

  private tooManyLogins(retryAfterSeconds: number): TooManyRequestsException {
    const message = accountMessages.tooManyLoginAttempts.replace('{minutes}', String(this.config.LOGIN_WINDOW_MINUTES));
    return new TooManyRequestsException(message, retryAfterSeconds);
  }

  /**
   * Counts one password check against the account (or the unknown identifier) before it runs; a 429 once
   * the window's checks are used up, so parallel guesses cannot all get past a counter read beforehand.
   */
  private async reservePasswordCheck(key: string): Promise<void> {
    const attempt = await this.limiter.hit(key, this.config.LOGIN_MAX_FAILURES_PER_ACCOUNT, this.loginWindowSeconds);
    if (!attempt.allowed) throw this.tooManyLogins(attempt.retryAfterSeconds);
  }

  /**
   * Adds an account email to the email outbox, which sends it at once (and, should this process stop first,
   * another process a moment later), with its attempts in the mail log like every other email.
   */
  private async queue(message: MailMessage): Promise<void> {
    const send = await this.emails.enqueue(this.db.pool, [
      {
        key: message.idempotencyKey ?? `account:${message.kind}:${randomUUID()}`,
        kind: message.kind,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html ?? `<pre>${escapeHtml(message.text)}</pre>`,
      },
    ]);
    send();
  }

  /** Sends a capped account email unless the recipient already had its share this hour. */
  private async sendCapped(kind: CappedMail, to: string, build: () => MailMessage | Promise<MailMessage>): Promise<void> {
    const cap = await this.limiter.hit(`mail:${kind}:${keyOf(to)}`, ACCOUNT_MAIL_CAPS_PER_HOUR[kind], 3600);
    if (!cap.allowed) {
      this.logger.warn(`No ${kind} email sent: the recipient already had ${ACCOUNT_MAIL_CAPS_PER_HOUR[kind]} this hour`);
      return;
    }
    await this.queue(await build());
  }

  /**
   * Creates an unverified account, whether or not a verified account already owns the address: the answer,
   * its time and what the registrant can do next (log in by username) are the same either way. The email
   * decides: a verification link when nobody owns the address yet, otherwise the owner learns that someone
   * tried (at most once an hour). A taken username is the spec's 409.
   */
  async register(input: RegisterRequest): Promise<{ readonly accountId: number; readonly followUp: FollowUp }> {
    assertAcceptablePassword(input.password, input);
    if (await users.usernameTaken(this.db.pool, input.username)) {
      throw new ConflictException({ message: accountMessages.usernameTaken } satisfies ApiError);
    }
    const token = newToken();
    const created = await users.insertUser(this.db.pool, {
      username: input.username,
      email: input.email,
      passwordHash: await hashPassword(input.password),
      businessName: input.businessName ? input.businessName : null,
      phone: input.phone ? input.phone : null,
      address: input.address ? input.address : null,
      verificationTokenHash: tokenHash(token),
      verificationTokenSeconds: this.verificationSeconds,
    });
    // The only other unique value is the 256-bit token: no row means a concurrent registration took the name.
    if (!created) throw new ConflictException({ message: accountMessages.usernameTaken } satisfies ApiError);
    this.logger.log(`Customer ${created.id} registered`);
    return { accountId: created.id, followUp: () => this.sendVerificationOrNotice(created, token) };
  }

  /** A verification token's lifetime; the database adds it to its own now() (the clock that checks it). */
  private get verificationSeconds(): number {
    return this.config.VERIFICATION_TOKEN_HOURS * 3600;
  }

  /**
   * The verification link with `token` (a registration's), or with a new token (`null`: a resend). A resend's
   * token is stored only when its email goes out: a capped resend leaves the last link working, as a capped
   * password reset does.
   */
  private async sendVerificationOrNotice(user: users.UserRow, token: string | null): Promise<void> {
    const owner = await users.findVerifiedByEmail(this.db.pool, user.email);
    if (owner && owner.id !== user.id) {
      await this.sendCapped('account-exists', owner.email, () =>
        alreadyRegisteredEmail(owner.email, `${this.baseUrl}/customer/login`, `${this.baseUrl}/customer/forgot-password`),
      );
      return;
    }
    await this.sendCapped('account-verification', user.email, async () => {
      const link = token ?? (await this.newVerificationToken(user.id));
      return verificationEmail(user.email, user.username, this.verificationUrl(link), this.config.VERIFICATION_TOKEN_HOURS);
    });
  }

  private async newVerificationToken(userId: number): Promise<string> {
    const token = newToken();
    await users.setVerificationToken(this.db.pool, userId, tokenHash(token), this.verificationSeconds);
    return token;
  }

  verificationUrl(token: string): string {
    return `${this.baseUrl}/api/customer/verify-email?token=${encodeURIComponent(token)}`;
  }

  /** What the emailed link's page shows: whether the token works, and whether it must ask for the password. */
  async verificationPage(token: string, proof: VerificationProof): Promise<VerificationPageState> {
    const owner = await users.findByVerificationToken(this.db.pool, tokenHash(token));
    if (!owner) return { state: 'invalid' };
    if (owner.expired) return { state: 'expired' };
    return { state: 'ok', username: owner.username, askPassword: !this.sessionProves(owner.id, proof) };
  }

  private sessionProves(accountId: number, proof: VerificationProof): boolean {
    return proof.registeredInSession.includes(accountId) || proof.loggedInAs === accountId;
  }

  /**
   * Verifies the address of the token's account, only when the person shows they registered it: the browser
   * session that registered it, a session logged in as it, or its password (counted like a login attempt).
   * The token alone proves only that they read the mailbox: otherwise whoever registers with someone else's
   * address gets it verified the moment its owner presses the button.
   */
  async verifyEmail(token: string, proof: VerificationProof): Promise<VerificationOutcome> {
    const hash = tokenHash(token);
    const owner = await users.findByVerificationToken(this.db.pool, hash);
    if (!owner) return 'invalid';
    if (owner.expired) return 'expired';
    if (!this.sessionProves(owner.id, proof)) {
      if (proof.password === undefined) return 'needs-password';
      await this.reservePasswordCheck(loginAccountKey(owner.id));
      if (!(await verifyPassword(owner.passwordHash, proof.password))) return 'wrong-password';
      await this.limiter.reset(loginAccountKey(owner.id));
    }
    const result = await users.consumeVerificationToken(this.db.pool, owner.id, hash);
    if (result.outcome === 'ok') this.logger.log(`Customer ${owner.id} verified their email address`);
    return result.outcome;
  }

  /**
   * A new link for a logged-in unverified customer. The answer is 'sent' even when a verified account owns
   * the address meanwhile (its owner is told instead): it must not differ from a free address's.
   */
  async resendVerification(
    customer: CustomerPrincipal,
  ): Promise<{ readonly outcome: 'sent' | 'already-verified'; readonly followUp?: FollowUp }> {
    const user = await users.findById(this.db.pool, customer.id);
    if (!user || user.isVerified) return { outcome: 'already-verified' };
    const limit = await this.limiter.hit(`verify-resend:${user.id}`, VERIFICATION_RESENDS_PER_HOUR, 3600);
    if (!limit.allowed) throw new TooManyRequestsException(accountMessages.tooManyRequests, limit.retryAfterSeconds);
    return { outcome: 'sent', followUp: () => this.sendVerificationOrNotice(user, null) };
  }

  /**
   * The account for these credentials, or null. The identifier is resolved to its account first (a username,
   * or the address of a verified account) so both share one counter; an identifier that names no account has
   * a counter of its own and pays for a dummy argon2 verification, so neither the 429 nor the time tells.
   * The attempt is counted before the password check: at most LOGIN_MAX_FAILURES_PER_ACCOUNT checks run per
   * window whatever the concurrency, and once they are spent even the right password gets the 429.
   */
  async authenticate(identifier: string, password: string): Promise<CustomerPrincipal | null> {
    const user = await users.findLoginAccount(this.db.pool, identifier);
    const key = user ? loginAccountKey(user.id) : unknownLoginKey(identifier);
    await this.reservePasswordCheck(key);
    if (!user) return verifyAgainstNothing(password).then(() => null);
    if (!(await verifyPassword(user.passwordHash, password))) return null;
    await this.limiter.reset(key);
    await users.recordLogin(this.db.pool, user.id);
    return toPrincipal(user);
  }

  async findPrincipal(id: number): Promise<CustomerPrincipal | null> {
    const user = await users.findById(this.db.pool, id);
    return user ? toPrincipal(user) : null;
  }

  /**
   * Everything that depends on the address happens after the answer, which is therefore the same, in content
   * and in time, for every address. Only the verified account of an address can reset its password (a reset
   * link proves who reads the mailbox, not who registered an unverified account).
   */
  forgotPassword(email: string): FollowUp {
    return async () => {
      const owner = await users.findVerifiedByEmail(this.db.pool, email);
      if (!owner) return;
      await this.sendCapped('password-reset', owner.email, async () => {
        // A token is stored only when its email goes out (a capped request leaves the last link working). The
        // database sets its expiry from its own now(), the clock that checks it.
        const token = newToken();
        await users.setResetToken(this.db.pool, owner.id, tokenHash(token), this.config.RESET_TOKEN_MINUTES * 60);
        return passwordResetEmail(
          owner.email,
          `${this.baseUrl}/customer/reset-password?token=${encodeURIComponent(token)}`,
          this.config.RESET_TOKEN_MINUTES,
        );
      });
    };
  }

  /** Sets the new password (same rules as registration), ends every session of the account, lifts its login lock. */
  async resetPassword(token: string, password: string): Promise<'ok' | 'invalid' | 'expired'> {
    const hash = tokenHash(token);
    const owner = await users.findByResetToken(this.db.pool, hash);
    if (!owner) return 'invalid';
    if (owner.expired) return 'expired';
    assertAcceptablePassword(password, owner);
    const user = await users.consumeResetToken(this.db.pool, owner.id, hash, await hashPassword(password));
    if (!user) return 'invalid';
    const ended = await this.sessions.destroyAllFor(principalKey('customer', user.id));
    await this.limiter.reset(loginAccountKey(user.id));
    this.logger.log(`Customer ${user.id} reset their password; ${ended} session(s) ended`);
    await this.queue(passwordChangedEmail(user.email));
    return 'ok';
  }
}
