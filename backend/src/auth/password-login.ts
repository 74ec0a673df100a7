import { UnauthorizedException } from '@nestjs/common';
import { accountMessages, type ApiError } from '@ppr/contracts';
import type { NextFunction, Request, Response } from 'express';
import { TooManyRequestsException } from '../accounts/accounts.service';
import type { AppConfig } from '../config/config';
import { isSessionCookieSecure, SESSION_COOKIE } from './http-security';
import type { PassportService } from './passport.service';
import { clientAddressKey } from './public-form-limit';
import type { RateLimiter } from './rate-limiter';
import { clearTicketGrants } from './ticket-grants';

/** What a login endpoint already holds: the app's passport, the rate limiter and the login limits. */
export interface PasswordLoginDeps {
  readonly passport: PassportService;
  readonly limiter: RateLimiter;
  readonly config: Pick<AppConfig, 'LOGIN_MAX_ATTEMPTS_PER_ADDRESS' | 'LOGIN_WINDOW_MINUTES' | 'NODE_ENV' | 'APP_BASE_URL'>;
}

export interface PasswordLoginOptions {
  /**
   * The passport strategy that checks the credentials. It must count the attempt on the account's counter
   * before it checks the password (so parallel guesses cannot all pass a count read beforehand) and report a
   * spent counter as a TooManyRequestsException.
   */
  readonly strategy: string;
  /** The per-address counter's prefix: customers and admins count apart (`login`, `admin-login`). */
  readonly addressCounter: string;
  /** The 401 for wrong credentials (and an unknown account: the same answer). */
  readonly invalidCredentials: string;
  /**
   * Whether what the browser held before logging in carries over (a guest's session data and its tickets' grants
   * cookie do for a customer; nothing of a customer's or guest's does for an admin: the grants cookie is cleared).
   * The session id changes either way.
   */
  readonly keepSessionInfo: boolean;
}

/** The 429 of the login limits: the spec's message, and the Retry-After header set on the response. */
function tooManyAttempts(response: Response, config: PasswordLoginDeps['config'], retryAfterSeconds: number): TooManyRequestsException {
  response.setHeader('Retry-After', String(retryAfterSeconds));
  const message = accountMessages.tooManyLoginAttempts.replace('{minutes}', String(config.LOGIN_WINDOW_MINUTES));
  return new TooManyRequestsException(message, retryAfterSeconds);
}

/** Runs the strategy on the request's (validated) body: the user, or null for wrong credentials. */
function runStrategy<U extends Express.User>(
  deps: PasswordLoginDeps,
  strategy: string,
  request: Request,
  response: Response,
): Promise<U | null> {
  return new Promise((resolve, reject) => {
    const next: NextFunction = (error?: unknown) => (error ? reject(error) : resolve(null));
    // passport types the middleware it builds as `any`.
    const middleware = deps.passport.passport.authenticate(strategy, { session: false }, (error: unknown, user: U | false) => {
      if (error) reject(error);
      else resolve(user || null);
    }) as (request: Request, response: Response, next: NextFunction) => void;
    middleware(request, response, next);
  });
}

/**
 * The login flow customers and admins share: the per-address attempt is counted first (before anything
 * is checked), then the strategy counts the per-account attempt and checks the password; a spent counter is a
 * 429 with Retry-After, wrong credentials a 401; a success regenerates the session (a new id: a session
 * fixed before login is worthless) and logs the user in. `body` is the validated body the strategy reads.
 */
export async function passwordLogin<U extends Express.User>(
  deps: PasswordLoginDeps,
  options: PasswordLoginOptions,
  body: object,
  request: Request,
  response: Response,
): Promise<U> {
  const perAddress = await deps.limiter.hit(
    `${options.addressCounter}:address:${clientAddressKey(request.ip)}`,
    deps.config.LOGIN_MAX_ATTEMPTS_PER_ADDRESS,
    deps.config.LOGIN_WINDOW_MINUTES * 60,
  );
  if (!perAddress.allowed) throw tooManyAttempts(response, deps.config, perAddress.retryAfterSeconds);
  request.body = body; // the validated, trimmed fields are what the strategy reads
  let user: U | null;
  try {
    user = await runStrategy<U>(deps, options.strategy, request, response);
  } catch (error) {
    if (error instanceof TooManyRequestsException) response.setHeader('Retry-After', String(error.retryAfterSeconds));
    throw error;
  }
  if (!user) throw new UnauthorizedException({ message: options.invalidCredentials } satisfies ApiError);
  // passport's logIn regenerates the session before it stores the user.
  await new Promise<void>((resolve, reject) =>
    request.logIn(user, { session: true, keepSessionInfo: options.keepSessionInfo }, (error: unknown) =>
      error ? reject(error) : resolve(),
    ),
  );
  // Nothing of the guest carries over where the session's contents do not: the tickets it submitted neither.
  if (!options.keepSessionInfo) clearTicketGrants(deps.config, request, response);
  return user;
}

/**
 * The logout customers and admins share: the user logged out (when one is), the session destroyed and its
 * cookie cleared with the attributes it was set with.
 */
export async function endSession(config: PasswordLoginDeps['config'], request: Request, response: Response): Promise<void> {
  if (request.isAuthenticated()) {
    await new Promise<void>((resolve, reject) => request.logout((error: unknown) => (error ? reject(error) : resolve())));
  }
  await new Promise<void>((resolve, reject) => request.session.destroy((error: unknown) => (error ? reject(error) : resolve())));
  response.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isSessionCookieSecure(config, request),
  });
  // Signing out also forgets the tickets this browser submitted (a shared computer).
  clearTicketGrants(config, request, response);
}

/** One login endpoint's sessions (customers' or admins'): its login flow and its logout, on the same deps. */
export class PasswordSessions {
  constructor(
    private readonly deps: PasswordLoginDeps,
    private readonly options: PasswordLoginOptions,
  ) {}

  /** See passwordLogin. */
  logIn<U extends Express.User>(body: object, request: Request, response: Response): Promise<U> {
    return passwordLogin<U>(this.deps, this.options, body, request, response);
  }

  /** See endSession. */
  end(request: Request, response: Response): Promise<void> {
    return endSession(this.deps.config, request, response);
  }
}
