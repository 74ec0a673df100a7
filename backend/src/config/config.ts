import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'] as const;

const optionalUrl = (protocols: readonly string[], example: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .refine((value) => {
      if (value === undefined) return true;
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')} (for example ${example})`);

const commaList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim().toLowerCase())
      .filter((item) => item.length > 0),
  );

const positiveInt = (fallback: number, max: number) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(max, `must be at most ${max}`)
    .default(fallback);

/** Every setting the product reads from the environment. */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce
    .number({ error: 'must be a port number' })
    .int('must be a port number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('log'),
  /** A PostgreSQL server; without it the embedded database under DATA_DIR is used. */
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:'], 'postgres://user:password@localhost:5432/app'),
  /** Schema to work in on that server (tests use one schema each). */
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lowercase SQL identifier')
    .optional(),
  DATABASE_POOL_SIZE: positiveInt(10, 200),
  /** EventStoreDB; without it events are stored in PostgreSQL (DATABASE_URL or embedded). */
  EVENTSTORE_URL: optionalUrl(['esdb:', 'esdb+discover:', 'kurrentdb:', 'kurrent:'], 'esdb://localhost:2113?tls=false'),
  /** Folder of the embedded database; `memory` keeps it in memory only (nothing survives a restart). */
  DATA_DIR: z.string().trim().min(1).default('./data'),
  /** How long a live subscriber waits at most before it looks for new events unprompted. */
  EVENT_STORE_POLL_MS: positiveInt(500, 60000),
  /** Emails and contact names whose diagnostic fee is waived (comma-separated, case-insensitive). */
  FEE_WAIVER_EMAILS: commaList,
  FEE_WAIVER_NAMES: commaList,
  /** Longest a command endpoint waits for the read tables to show its change before it answers. */
  READ_YOUR_WRITES_TIMEOUT_MS: positiveInt(2000, 60000),
  /** Largest JSON body accepted, in bytes. */
  BODY_LIMIT_BYTES: positiveInt(100 * 1024, 20 * 1024 * 1024),
  /**
   * Signs the session cookie. Required in production (at least 32 characters); elsewhere a random secret is
   * kept in the database, so sessions survive a restart without any configuration.
   */
  SESSION_SECRET: z
    .string()
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .refine((value) => value === undefined || value.length >= 32, 'must be at least 32 characters'),
  /** A session ends after this many hours without a request. */
  SESSION_IDLE_HOURS: positiveInt(24, 24 * 90),
  /** The site's public address, used in links sent by email (verification, password reset, unsubscribe). */
  APP_BASE_URL: optionalUrl(['http:', 'https:'], 'https://www.example.com'),
  /** Other origins whose pages may call the API (for example a frontend dev server), comma-separated. */
  TRUSTED_ORIGINS: commaList,
  /** An SMTP server (smtp:// or smtps://); without it every email is recorded in the mail log and logged. */
  SMTP_URL: optionalUrl(['smtp:', 'smtps:'], 'smtp://user:password@mail.example.com:587'),
  /** The sender of every email. */
  MAIL_FROM: z.string().trim().min(3).default('Potomac PC Repair <no-reply@localhost>'),
  /** Failed logins for one account within the window before it is refused with a 429. */
  LOGIN_MAX_FAILURES_PER_ACCOUNT: positiveInt(5, 1000),
  /** Login attempts from one address within the window before it is refused with a 429. */
  LOGIN_MAX_ATTEMPTS_PER_ADDRESS: positiveInt(20, 100000),
  LOGIN_WINDOW_MINUTES: positiveInt(15, 24 * 60),
  /** Registrations and password-reset requests from one address per hour. */
  PUBLIC_FORM_MAX_PER_ADDRESS_PER_HOUR: positiveInt(10, 100000),
  VERIFICATION_TOKEN_HOURS: positiveInt(48, 24 * 30),
  RESET_TOKEN_MINUTES: positiveInt(60, 24 * 60),
}).superRefine((config, context) => {
  if (config.NODE_ENV === 'production' && config.SESSION_SECRET === undefined) {
    context.addIssue({
      code: 'custom',
      path: ['SESSION_SECRET'],
      message: 'is required in production (a random string of at least 32 characters)',
    });
  }
});

export type AppConfig = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

/** Reads and validates the configuration; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv | Record<string, string | undefined> = process.env): AppConfig {
  const known = Object.fromEntries(Object.keys(configSchema.shape).map((key) => [key, env[key]]));
  const result = configSchema.safeParse(known);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => `${issue.path.join('.') || 'configuration'}: ${issue.message}`),
    );
  }
  return result.data;
}

export const APP_CONFIG = Symbol('APP_CONFIG');
