import { ConflictException, HttpException, HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { accountMessages, type ApiError, type CurrentCustomer, type RegisterRequest } from '@ppr/contracts';
import { type CustomerPrincipal, principalKey } from '../auth/principal';
import { RateLimiter } from '../auth/rate-limiter';
import { PgSessionStore } from '../auth/session-store';
import { APP_CONFIG, type AppConfig } from '../config/config';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.module';
import { MailService } from '../mail/mail.service';
import {
  alreadyRegisteredEmail,
  passwordChangedEmail,
  passwordResetEmail,
  verificationEmail,
} from './account-emails';
import * as users from './accounts.repository';
import { hashPassword, verifyAgainstNothing, verifyPassword } from './passwords';
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

/** Password-reset emails sent to one address per hour at most (more requests get the same answer, no email). */
const RESETS_PER_ADDRESS_PER_HOUR = 3;
/** New verification emails one account may ask for per hour. */
const VERIFICATION_RESENDS_PER_HOUR = 3;

/** Customer accounts: registration, verification, credentials, password reset. */
@Injectable()
export class AccountsService {
  private readonly logger = new Logger(AccountsService.name);

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly mail: MailService,
    private readonly limiter: RateLimiter,
    private readonly sessions: PgSessionStore,
  ) {}

  private get baseUrl(): string {
    return (this.config.APP_BASE_URL ?? `http://localhost:${this.config.PORT}`).replace(/\/+$/, '');
  }

  /** Counts a public form submission (registration, forgot password) from one address; 429 past the limit. */
  async limitPublicForm(form: string, address: string): Promise<void> {
    const result = await this.limiter.hit(`form:${form}:${address}`, this.config.PUBLIC_FORM_MAX_PER_ADDRESS_PER_HOUR, 3600);
    if (!result.allowed) throw new TooManyRequestsException(accountMessages.tooManyRequests, result.retryAfterSeconds);
  }

  /**
   * A taken username is a 409 (the spec's answer). An email that already has an account gets the same answer as
   * a new registration, and its owner an email saying so: the answer never tells who has an account.
   */
  async register(input: RegisterRequest): Promise<void> {
    if (await users.usernameTaken(this.db.pool, input.username)) {
      throw new ConflictException({ message: accountMessages.usernameTaken } satisfies ApiError);
    }
    const token = newToken();
    const passwordHash = await hashPassword(input.password);
    const created = await users.insertUser(this.db.pool, {
      username: input.username,
      email: input.email,
      passwordHash,
      businessName: input.businessName ? input.businessName : null,
      phone: input.phone ? input.phone : null,
      address: input.address ? input.address : null,
      verificationTokenHash: tokenHash(token),
      verificationTokenExpiry: new Date(Date.now() + this.config.VERIFICATION_TOKEN_HOURS * 3_600_000),
    });
    if (created) {
      this.logger.log(`Customer ${created.id} registered`);
      await this.mail.send(verificationEmail(created.email, created.username, this.verificationUrl(token), this.config.VERIFICATION_TOKEN_HOURS));
      return;
    }
    // Nothing inserted: the username or the email was taken (perhaps by a concurrent registration).
    if (await users.usernameTaken(this.db.pool, input.username)) {
      throw new ConflictException({ message: accountMessages.usernameTaken } satisfies ApiError);
    }
    const existing = await users.findByEmail(this.db.pool, input.email);
    if (existing) {
      await this.mail.send(
        alreadyRegisteredEmail(existing.email, `${this.baseUrl}/customer/login`, `${this.baseUrl}/customer/forgot-password`),
      );
    }
  }

  verificationUrl(token: string): string {
    return `${this.baseUrl}/api/customer/verify-email?token=${encodeURIComponent(token)}`;
  }

  checkVerificationToken(token: string): Promise<'ok' | 'invalid' | 'expired'> {
    return users.checkVerificationToken(this.db.pool, tokenHash(token));
  }

  async verifyEmail(token: string): Promise<'ok' | 'invalid' | 'expired'> {
    const result = await users.consumeVerificationToken(this.db.pool, tokenHash(token));
    if (result.outcome === 'ok') this.logger.log(`Customer ${result.user.id} verified their email address`);
    return result.outcome;
  }

  /** A new verification link for a logged-in customer whose address is not verified yet. */
  async resendVerification(customer: CustomerPrincipal): Promise<'sent' | 'already-verified'> {
    const user = await users.findById(this.db.pool, customer.id);
    if (!user || user.isVerified) return 'already-verified';
    const limit = await this.limiter.hit(`verify-resend:${user.id}`, VERIFICATION_RESENDS_PER_HOUR, 3600);
    if (!limit.allowed) throw new TooManyRequestsException(accountMessages.tooManyRequests, limit.retryAfterSeconds);
    const token = newToken();
    await users.setVerificationToken(
      this.db.pool,
      user.id,
      tokenHash(token),
      new Date(Date.now() + this.config.VERIFICATION_TOKEN_HOURS * 3_600_000),
    );
    await this.mail.send(verificationEmail(user.email, user.username, this.verificationUrl(token), this.config.VERIFICATION_TOKEN_HOURS));
    return 'sent';
  }

  /** The account for these credentials, or null; takes as long whether or not the account exists. */
  async verifyCredentials(identifier: string, password: string): Promise<CustomerPrincipal | null> {
    const user = await users.findByIdentifier(this.db.pool, identifier);
    if (!user) return verifyAgainstNothing(password).then(() => null);
    if (!(await verifyPassword(user.passwordHash, password))) return null;
    await users.recordLogin(this.db.pool, user.id);
    return toPrincipal(user);
  }

  async findPrincipal(id: number): Promise<CustomerPrincipal | null> {
    const user = await users.findById(this.db.pool, id);
    return user ? toPrincipal(user) : null;
  }

  /** Always the same answer; an email only when an account has this address (and not too often). */
  async forgotPassword(email: string): Promise<void> {
    const user = await users.findByEmail(this.db.pool, email);
    if (!user) {
      await verifyAgainstNothing(email);
      return;
    }
    const limit = await this.limiter.hit(`reset-mail:${user.id}`, RESETS_PER_ADDRESS_PER_HOUR, 3600);
    if (!limit.allowed) {
      this.logger.warn(`Password reset for customer ${user.id} not sent: ${RESETS_PER_ADDRESS_PER_HOUR} already this hour`);
      return;
    }
    const token = newToken();
    await users.setResetToken(
      this.db.pool,
      user.id,
      tokenHash(token),
      new Date(Date.now() + this.config.RESET_TOKEN_MINUTES * 60_000),
    );
    await this.mail.send(
      passwordResetEmail(
        user.email,
        `${this.baseUrl}/customer/reset-password?token=${encodeURIComponent(token)}`,
        this.config.RESET_TOKEN_MINUTES,
      ),
    );
  }

  /** Sets the new password, ends every session of the account, lifts its login lock. */
  async resetPassword(token: string, password: string): Promise<'ok' | 'invalid' | 'expired'> {
    const result = await users.consumeResetToken(this.db.pool, tokenHash(token), await hashPassword(password));
    if (result.outcome !== 'ok') return result.outcome;
    const { user } = result;
    const ended = await this.sessions.destroyAllFor(principalKey('customer', user.id));
    await this.limiter.reset(loginAccountKey(user.email));
    await this.limiter.reset(loginAccountKey(user.username));
    this.logger.log(`Customer ${user.id} reset their password; ${ended} session(s) ended`);
    await this.mail.send(passwordChangedEmail(user.email));
    return 'ok';
  }
}

/** The per-account login counter is keyed by what was typed (email or username), lower-cased. */
export function loginAccountKey(identifier: string): string {
  return `login:account:${identifier.trim().toLowerCase()}`;
}
