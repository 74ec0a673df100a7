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
  /** Largest JSON body accepted, in bytes. */
  BODY_LIMIT_BYTES: positiveInt(100 * 1024, 20 * 1024 * 1024),
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
