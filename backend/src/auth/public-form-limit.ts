import { isIP } from 'node:net';
import { HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { ApiError } from '@ppr/contracts';
import type { Request } from 'express';
import type { AppConfig } from '../config/config';
import type { NestedRateLimitResult, RateLimiter } from './rate-limiter';

const HOUR_SECONDS = 3600;

/** The 429's message: how long to wait, in whole minutes (at least one). */
export function tooManySubmissionsMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many requests. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}

export class PublicFormLimitExceededException extends HttpException {
  constructor(readonly retryAfterSeconds: number) {
    super({ message: tooManySubmissionsMessage(retryAfterSeconds) } satisfies ApiError, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/** The eight 16-bit groups of a valid IPv6 address (an embedded IPv4 tail becomes the last two). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].map((group) => parseInt(group, 16));
}

/**
 * The address a per-address limit counts under. IPv4 (also written IPv4-mapped) as is; IPv6 by its /64,
 * because one subscriber line usually gets a whole /64 and could otherwise rotate through it.
 */
export function clientAddressKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const bare = ip.split('%')[0]!;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return mapped[1]!;
  if (isIP(bare) !== 6) return bare;
  const prefix = ipv6Groups(bare)
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':');
  return `${prefix}::/64`;
}

export type PublicFormLimitConfig = Pick<AppConfig, 'PUBLIC_FORM_LIMIT_PER_HOUR' | 'PUBLIC_FORM_GLOBAL_LIMIT_PER_HOUR'>;

/**
 * Hourly limits of a public form: per client address (`request.ip`; which proxies are trusted is the app's
 * `trust proxy` setting) and for all addresses together. Each submission is counted atomically *before* it
 * acts, so parallel requests cannot get past the limit. Call it after the body was validated: a refused
 * (400) body counts nothing and writes nothing.
 */
export class PublicFormLimits {
  private readonly logger = new Logger(PublicFormLimits.name);

  constructor(
    private readonly limiter: Pick<RateLimiter, 'hitThen'>,
    private readonly config: PublicFormLimitConfig,
  ) {}

  /** Counts one submission of `form`; past a limit a 429 with Retry-After (set on the response now). */
  async consume(form: string, request: Request): Promise<void> {
    const address = clientAddressKey(request.ip);
    // The address's count, and everybody's only for submissions the address may make (one noisy address
    // cannot use up everybody's share): one statement.
    const own = { key: `form:${form}:${address}`, limit: this.config.PUBLIC_FORM_LIMIT_PER_HOUR };
    const all = { key: `form-global:${form}`, limit: this.config.PUBLIC_FORM_GLOBAL_LIMIT_PER_HOUR };
    this.judge(form, address, request, await this.limiter.hitThen(own, all, HOUR_SECONDS));
  }

  private judge(form: string, address: string, request: Request, { first: own, second: all }: NestedRateLimitResult): void {
    if (!own.allowed) {
      if (own.hits === this.config.PUBLIC_FORM_LIMIT_PER_HOUR + 1) {
        this.logger.log(`Public form ${form}: ${address} reached its hourly limit`);
      }
      this.refuse(request, own.retryAfterSeconds);
    }
    if (all && !all.allowed) {
      if (all.hits === this.config.PUBLIC_FORM_GLOBAL_LIMIT_PER_HOUR + 1) {
        this.logger.warn(
          `Public form ${form} reached its global limit of ${this.config.PUBLIC_FORM_GLOBAL_LIMIT_PER_HOUR} per hour ` +
            '(PUBLIC_FORM_GLOBAL_LIMIT_PER_HOUR); submissions are refused until the window ends',
        );
      }
      this.refuse(request, all.retryAfterSeconds);
    }
  }

  private refuse(request: Request, retryAfterSeconds: number): never {
    // The exception filter writes only status and body; headers set here stay on the answer.
    request.res?.setHeader('Retry-After', String(retryAfterSeconds));
    throw new PublicFormLimitExceededException(retryAfterSeconds);
  }
}
