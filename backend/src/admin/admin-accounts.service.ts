import { createHash } from 'node:crypto';
import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  UnauthorizedException,
} from '@nestjs/common';
import { accountMessages, adminMessages, type AdminSetup, type AdminUser, type ApiError } from '@ppr/contracts';
import { TooManyRequestsException } from '../accounts/accounts.service';
import { assertAcceptablePassword, hashPassword, verifyAgainstNothing, verifyPassword } from '../accounts/passwords';
import { principalKey } from '../auth/principal';
import { RateLimiter } from '../auth/rate-limiter';
import { PgSessionStore } from '../auth/session-store';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import * as admins from './admin-users.repository';
import type { AdminPrincipal } from './admin.types';

function toPrincipal(row: admins.AdminRow): AdminPrincipal {
  return { kind: 'admin', id: row.id, username: row.username, email: row.email, role: row.role };
}

/** The login counter of an admin account (apart from customers' counters: another table, another namespace). */
export function adminLoginKey(adminId: number): string {
  return `admin-login:account:${adminId}`;
}

/** The counter of a username that names no admin: its own, so the 429 says nothing about which names exist. */
function unknownAdminLoginKey(username: string): string {
  const digest = createHash('sha256').update(username.normalize('NFKC').trim().toLowerCase(), 'utf8').digest('hex');
  return `admin-login:unknown:${digest}`;
}

function currentPasswordWrong(): BadRequestException {
  return new BadRequestException({
    message: adminMessages.currentPasswordWrong,
    errors: [{ path: 'currentPassword', message: adminMessages.currentPasswordWrong }],
  } satisfies ApiError);
}

/**
 * Admin accounts: the one-time setup, further admins, credentials and password changes. The login limits
 * are the customers' (LOGIN_MAX_FAILURES_PER_ACCOUNT per account and window, each attempt counted before
 * its password check), on counters of their own.
 */
@Injectable()
export class AdminAccountsService implements OnApplicationBootstrap {
  private readonly logger = new Logger(AdminAccountsService.name);

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly limiter: RateLimiter,
    private readonly sessions: PgSessionStore,
  ) {}

  /** Until the setup is done, whoever reaches /admin/setup first becomes the admin: say so at every start. */
  async onApplicationBootstrap(): Promise<void> {
    if (await this.setupOpen()) this.logger.warn('No admin account exists yet: complete the setup at /admin/setup now');
  }

  async setupOpen(): Promise<boolean> {
    return !(await admins.anyAdminExists(this.db.pool));
  }

  /** The first admin account. A 403 once any admin exists, including for all but one of racing first setups. */
  async createFirstAdmin(input: AdminSetup): Promise<AdminUser> {
    assertAcceptablePassword(input.password, input, 'password', 'admin');
    const created = await admins.insertFirstAdmin(this.db.pool, await this.newAdmin(input));
    if (!created) throw new ForbiddenException({ message: adminMessages.setupClosed } satisfies ApiError);
    this.logger.log(`First admin ${created.id} (${created.username}) created by the setup`);
    return admins.toAdminUser(created);
  }

  /** A further admin account, added by a logged-in admin. */
  async createAdmin(input: AdminSetup, by: AdminPrincipal): Promise<AdminUser> {
    assertAcceptablePassword(input.password, input, 'password', 'admin');
    const created = await admins.insertAdmin(this.db.pool, await this.newAdmin(input), by.id);
    if (!created) throw new ConflictException({ message: adminMessages.adminTaken } satisfies ApiError);
    this.logger.log(`Admin ${created.id} (${created.username}) created by admin ${by.id}`);
    return admins.toAdminUser(created);
  }

  private async newAdmin(input: AdminSetup): Promise<admins.NewAdmin> {
    return { username: input.username, email: input.email, passwordHash: await hashPassword(input.password) };
  }

  private async reservePasswordCheck(key: string): Promise<void> {
    const windowSeconds = this.config.LOGIN_WINDOW_MINUTES * 60;
    const attempt = await this.limiter.hit(key, this.config.LOGIN_MAX_FAILURES_PER_ACCOUNT, windowSeconds);
    if (!attempt.allowed) {
      const message = accountMessages.tooManyLoginAttempts.replace('{minutes}', String(this.config.LOGIN_WINDOW_MINUTES));
      throw new TooManyRequestsException(message, attempt.retryAfterSeconds);
    }
  }

  /**
   * The admin for these credentials, or null. The attempt is counted before the password check (parallel
   * guesses cannot all pass a count read beforehand); an unknown username pays for a dummy verification, so
   * neither the answer, its time nor the 429 tells whether the name exists.
   */
  async authenticate(username: string, password: string): Promise<AdminPrincipal | null> {
    const admin = await admins.findAdminByUsername(this.db.pool, username);
    const key = admin ? adminLoginKey(admin.id) : unknownAdminLoginKey(username);
    await this.reservePasswordCheck(key);
    if (!admin) return verifyAgainstNothing(password).then(() => null);
    if (!(await verifyPassword(admin.passwordHash, password))) return null;
    await this.limiter.reset(key);
    await admins.recordAdminLogin(this.db.pool, admin.id);
    return toPrincipal(admin);
  }

  async findPrincipal(id: number): Promise<AdminPrincipal | null> {
    const row = await admins.findAdminById(this.db.pool, id);
    return row ? toPrincipal(row) : null;
  }

  async findUser(id: number): Promise<AdminUser | null> {
    const row = await admins.findAdminById(this.db.pool, id);
    return row ? admins.toAdminUser(row) : null;
  }

  /**
   * Checks the current password (counted on the admin's login counter: a stolen session cannot guess it
   * at leisure), applies the password rules, stores the new hash and ends every other session of the
   * admin, so whoever else was logged in with the old password is out.
   */
  async changePassword(admin: AdminPrincipal, currentPassword: string, newPassword: string, keepSessionId: string): Promise<void> {
    const row = await admins.findAdminById(this.db.pool, admin.id);
    if (!row) throw new UnauthorizedException({ message: adminMessages.notLoggedIn } satisfies ApiError);
    await this.reservePasswordCheck(adminLoginKey(row.id));
    if (!(await verifyPassword(row.passwordHash, currentPassword))) throw currentPasswordWrong();
    await this.limiter.reset(adminLoginKey(row.id));
    if (currentPassword === newPassword) {
      throw new BadRequestException({
        message: adminMessages.samePassword,
        errors: [{ path: 'newPassword', message: adminMessages.samePassword }],
      } satisfies ApiError);
    }
    assertAcceptablePassword(newPassword, row, 'newPassword', 'admin');
    // The current password was checked against the hash read above: the write happens only if that hash is
    // still the stored one. Of parallel changes one wins; for the others the password they gave is no longer
    // current, and they get that answer rather than a 200 for a password that was overwritten at once.
    if (!(await admins.setAdminPassword(this.db.pool, row.id, row.passwordHash, await hashPassword(newPassword)))) {
      throw currentPasswordWrong();
    }
    const ended = await this.sessions.destroyAllFor(principalKey('admin', row.id), keepSessionId);
    this.logger.log(`Admin ${row.id} changed their password; ${ended} other session(s) ended`);
  }
}
