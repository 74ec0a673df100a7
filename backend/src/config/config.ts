import { compile as compileTrustedProxies } from 'proxy-addr';
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'] as const;

const optionalUrl = (protocols: readonly string[], example: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .refine(
      (value) => {
        if (value === undefined) return true;
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')} (for example ${example})`,
    );

const commaList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim().toLowerCase())
      .filter((item) => item.length > 0),
  );

/**
 * TRUST_PROXY: whose X-Forwarded-For / -Proto / -Host headers to believe, in the forms Express accepts: `none`
 * (or `false`), a hop count, or a comma-separated list of `loopback`, `linklocal`, `uniquelocal`, addresses and
 * CIDR ranges. Validated with proxy-addr, the library Express itself compiles the setting with. `true` (trust
 * everyone) is refused: any client could then pick the address the rate limits count.
 */
const trustProxy = z
  .string()
  .trim()
  .optional()
  .transform((value, context): TrustProxy | undefined => {
    if (value === undefined || value === '') return undefined;
    const lower = value.toLowerCase();
    if (lower === 'none' || lower === 'false' || lower === '0') return false;
    if (lower === 'true' || lower === '*') {
      context.addIssue({
        code: 'custom',
        message: 'must not trust every address (any client could then choose its own address); give the proxy addresses or a hop count',
      });
      return z.NEVER;
    }
    if (/^[0-9]+$/.test(lower)) {
      const hops = Number(lower);
      if (hops > 32) {
        context.addIssue({ code: 'custom', message: 'a hop count must be at most 32' });
        return z.NEVER;
      }
      return hops;
    }
    const list = lower
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0);
    try {
      compileTrustedProxies(list);
    } catch (error) {
      context.addIssue({
        code: 'custom',
        message: `must be none, a hop count, or a comma-separated list of loopback, linklocal, uniquelocal, addresses and CIDR ranges (${error instanceof Error ? error.message : String(error)})`,
      });
      return z.NEVER;
    }
    return list;
  });

/** The `trust proxy` value handed to Express: nobody, the nearest N hops, or these addresses and ranges. */
export type TrustProxy = false | number | string[];

const positiveInt = (fallback: number, max: number) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(max, `must be at most ${max}`)
    .default(fallback);

/** Every setting the product reads from the environment. */
export const configSchema = z
  .object({
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
     * generated once into DATA_DIR/session-secret (mode 0600; never into the database that holds the sessions),
     * so sessions survive a restart without any configuration.
     */
    SESSION_SECRET: z
      .string()
      .optional()
      .transform((value) => (value === '' ? undefined : value))
      .refine((value) => value === undefined || value.length >= 32, 'must be at least 32 characters'),
    /**
     * The session secret before the current one, during a rotation: session cookies it signed, the guest's ticket
     * cookies and the webhook secrets sealed under it are still accepted (the webhook secrets are sealed again
     * under the current one at start); only the current one signs and seals.
     */
    SESSION_SECRET_PREVIOUS: z
      .string()
      .optional()
      .transform((value) => (value === '' ? undefined : value))
      .refine((value) => value === undefined || value.length >= 32, 'must be at least 32 characters'),
    /** A session ends after this many hours without a request. */
    SESSION_IDLE_HOURS: positiveInt(24, 24 * 90),
    /** A session ends this many hours after it began (the login), however active it has been. */
    SESSION_ABSOLUTE_HOURS: positiveInt(24 * 7, 24 * 365),
    /** The site's public address, used in links sent by email (verification, password reset, unsubscribe). */
    APP_BASE_URL: optionalUrl(['http:', 'https:'], 'https://www.example.com'),
    /** Other origins whose pages may call the API (for example a frontend dev server), comma-separated. */
    TRUSTED_ORIGINS: commaList,
    /**
     * The reverse proxies whose X-Forwarded-* headers are believed (client address for rate limits, https for
     * the Secure cookie and HSTS). Default: none (test runs: loopback, where the tests play clients through
     * X-Forwarded-For). Use trustedProxies(config) for the effective value.
     */
    TRUST_PROXY: trustProxy,
    /** Stripe's publishable key; when set, the pages' CSP admits Stripe's script and frames. */
    STRIPE_PUBLISHABLE_KEY: z
      .string()
      .trim()
      .optional()
      .transform((value) => (value === '' ? undefined : value))
      .refine(
        (value) => value === undefined || /^pk_(test|live)_[A-Za-z0-9]+$/.test(value),
        'must be a Stripe publishable key (pk_test_... or pk_live_...)',
      ),
    /**
     * The payment gateway: `stripe` or `simulated` (test mode, no network, no real charge). Default: stripe when
     * STRIPE_SECRET_KEY is set; otherwise simulated, except in production, where payments are then unavailable
     * (a 503) until Stripe is configured or PAYMENT_GATEWAY=simulated says a demo is meant.
     */
    PAYMENT_GATEWAY: z
      .enum(['stripe', 'simulated', ''], { error: 'must be stripe or simulated' })
      .optional()
      .transform((value) => (value === '' ? undefined : value)),
    /** Stripe's secret API key (sk_... or a restricted rk_... key); selects the stripe gateway. */
    STRIPE_SECRET_KEY: z
      .string()
      .trim()
      .optional()
      .transform((value) => (value === '' ? undefined : value))
      .refine(
        (value) => value === undefined || /^(sk|rk)_(test|live)_[A-Za-z0-9]+$/.test(value),
        'must be a Stripe secret key (sk_test_..., sk_live_..., or rk_...)',
      ),
    /** The signing secret of the webhook endpoint (whsec_...); the simulated gateway signs with it too when set. */
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .trim()
      .optional()
      .transform((value) => (value === '' ? undefined : value))
      .refine(
        (value) => value === undefined || /^whsec_[A-Za-z0-9+/=_-]{8,}$/.test(value),
        'must be a Stripe webhook signing secret (whsec_...)',
      ),
    /** Stripe's API address (tests point it at a local stand-in); the only host payment calls may go to. */
    STRIPE_API_BASE_URL: optionalUrl(['https:', 'http:'], 'https://api.stripe.com'),
    /** An intent still unpaid in our records after this many minutes is checked with the gateway (a lost webhook). */
    PAYMENTS_RECONCILE_AFTER_MINUTES: positiveInt(10, 7 * 24 * 60),
    /** How often the reconciler runs in the app. */
    PAYMENTS_RECONCILE_INTERVAL_MINUTES: positiveInt(5, 24 * 60),
    /**
     * Without SMTP_URL in production: `true` says on purpose that emails stay in the mail log table only (and
     * their text, which holds tokens, is never written to the process log).
     */
    MAIL_CAPTURE: z
      .enum(['true', 'false', ''], { error: 'must be true or false' })
      .optional()
      .transform((value) => value === 'true'),
    /** An SMTP server (smtp:// or smtps://); without it every email is recorded in the mail log and logged. */
    SMTP_URL: optionalUrl(['smtp:', 'smtps:'], 'smtp://user:password@mail.example.com:587'),
    /** The sender of every email. */
    MAIL_FROM: z.string().trim().min(3).default('Potomac PC Repair <no-reply@localhost>'),
    /** Staff addresses told at once of new paid tickets and contact messages (comma-separated; optional). */
    STAFF_ALERT_EMAILS: commaList.refine(
      (list) => list.every((email) => z.email().safeParse(email).success),
      'must be email addresses separated by commas',
    ),
    /** Attempts at one ticket email or staff alert before it stays failed (the admin may resend it). */
    NOTIFICATION_MAX_ATTEMPTS: positiveInt(5, 20),
    /** Wait before the first retry of a failed ticket email, doubled at each further retry. */
    NOTIFICATION_RETRY_BASE_MS: positiveInt(5000, 3_600_000),
    /**
     * Pause between two batches of a marketing campaign, in milliseconds. The default follows SPEC section 9's
     * note (50 every 15 minutes), which keeps a small mail server's hourly sending limits; 0 sends without pause.
     */
    MARKETING_BATCH_PAUSE_MS: z.coerce
      .number({ error: 'must be a whole number of milliseconds' })
      .int('must be a whole number of milliseconds')
      .min(0, 'must be at least 0')
      .max(24 * 3600 * 1000, 'must be at most one day')
      .default(15 * 60 * 1000),
    /** Failed logins for one account within the window before it is refused with a 429. */
    LOGIN_MAX_FAILURES_PER_ACCOUNT: positiveInt(5, 1000),
    /** Login attempts from one address within the window before it is refused with a 429. */
    LOGIN_MAX_ATTEMPTS_PER_ADDRESS: positiveInt(20, 100000),
    LOGIN_WINDOW_MINUTES: positiveInt(15, 24 * 60),
    /**
     * Submissions of each public form (support request, registration, password reset) from one client address
     * per hour; past it a 429 with Retry-After. An operator raises it for a load test.
     */
    PUBLIC_FORM_LIMIT_PER_HOUR: positiveInt(10, 1_000_000),
    /** Submissions of each public form from all addresses together per hour: bounds the writes a botnet can make. */
    PUBLIC_FORM_GLOBAL_LIMIT_PER_HOUR: positiveInt(500, 10_000_000),
    /** How long an Idempotency-Key of POST /api/support-request is remembered (a retry within it gets the same ticket). */
    IDEMPOTENCY_KEY_HOURS: positiveInt(24, 24 * 7),
    VERIFICATION_TOKEN_HOURS: positiveInt(48, 24 * 30),
    RESET_TOKEN_MINUTES: positiveInt(60, 24 * 60),
    /**
     * `true` lets webhooks go to private, loopback, link-local and unique-local addresses (a receiver on the
     * same machine or network). Off by default: an admin's webhook URL must not reach internal services (SSRF).
     */
    WEBHOOK_ALLOW_PRIVATE_URLS: z
      .enum(['true', 'false', ''], { error: 'must be true or false' })
      .optional()
      .transform((value) => value === 'true'),
    /** First webhook retry delay; each further retry waits twice as long (at most 12 hours). */
    WEBHOOK_RETRY_BASE_MS: positiveInt(30_000, 3_600_000),
    /** How long a failing webhook delivery keeps being retried before it is marked failed. */
    WEBHOOK_RETRY_HOURS: positiveInt(72, 24 * 30),
    /** Longest a webhook receiver may take to answer (connect to last byte). */
    WEBHOOK_TIMEOUT_MS: positiveInt(10_000, 120_000),
    /** How often the event feed sends a heartbeat comment (keeps proxies from closing an idle stream). */
    INTEGRATIONS_HEARTBEAT_SECONDS: positiveInt(15, 300),
    /**
     * Most event streams one integration key, admin or customer may have open at once on one instance (each
     * open stream is a live subscriber woken by every event): more are refused with a 429.
     */
    EVENT_STREAMS_PER_CLIENT: positiveInt(10, 1000),
  })
  .superRefine((config, context) => {
    paymentConfigIssues(config).forEach((issue) => context.addIssue({ code: 'custom', ...issue }));
    if (config.NODE_ENV === 'production' && config.SESSION_SECRET === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['SESSION_SECRET'],
        message: 'is required in production (a random string of at least 32 characters)',
      });
    }
    // Production must be able to keep a session, link to itself in emails and keep tokens out of the log.
    if (config.NODE_ENV === 'production') {
      if (config.APP_BASE_URL === undefined) {
        context.addIssue({
          code: 'custom',
          path: ['APP_BASE_URL'],
          message:
            "is required in production: the public address of the site (links in emails, the session cookie's scheme), e.g. https://www.example.com",
        });
      } else if (new URL(config.APP_BASE_URL).protocol === 'https:' && trustedProxies(config) === false) {
        // The app itself only serves plain http: with an https address there is a TLS proxy in front, and unless
        // its X-Forwarded-Proto is believed every request looks like http, so the Secure cookie is never set.
        context.addIssue({
          code: 'custom',
          path: ['TRUST_PROXY'],
          message:
            'must name the https proxy in front of the app when APP_BASE_URL is https (e.g. TRUST_PROXY=loopback, 10.0.0.0/8 or 1): otherwise no session cookie can be set and nobody stays logged in',
        });
      }
      if (config.SMTP_URL === undefined && !config.MAIL_CAPTURE) {
        context.addIssue({
          code: 'custom',
          path: ['SMTP_URL'],
          message:
            'is required in production (emails carry login tokens); or set MAIL_CAPTURE=true to keep emails in the mail log table only',
        });
      }
    }
  });

type PaymentSettings = Pick<
  z.infer<typeof configSchema>,
  'NODE_ENV' | 'PAYMENT_GATEWAY' | 'STRIPE_SECRET_KEY' | 'STRIPE_PUBLISHABLE_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'STRIPE_API_BASE_URL'
>;

/** Stripe settings that cannot work together (a key without its partners, test and live keys mixed). */
function paymentConfigIssues(config: PaymentSettings): { path: string[]; message: string }[] {
  const issues: { path: string[]; message: string }[] = [];
  const stripe = config.PAYMENT_GATEWAY === 'stripe' || (config.PAYMENT_GATEWAY === undefined && config.STRIPE_SECRET_KEY !== undefined);
  if (!stripe) return issues;
  const need = (name: 'STRIPE_SECRET_KEY' | 'STRIPE_PUBLISHABLE_KEY' | 'STRIPE_WEBHOOK_SECRET', what: string) => {
    if (config[name] === undefined) issues.push({ path: [name], message: `is required for the stripe payment gateway (${what})` });
  };
  need('STRIPE_SECRET_KEY', 'sk_test_... or sk_live_...');
  need('STRIPE_PUBLISHABLE_KEY', 'pk_test_... or pk_live_..., for the card form');
  need('STRIPE_WEBHOOK_SECRET', "whsec_..., the webhook endpoint's signing secret");
  const mode = (key: string | undefined) => (key === undefined ? undefined : key.includes('_live_') ? 'live' : 'test');
  const secretMode = mode(config.STRIPE_SECRET_KEY);
  const publishableMode = mode(config.STRIPE_PUBLISHABLE_KEY);
  if (secretMode && publishableMode && secretMode !== publishableMode) {
    issues.push({ path: ['STRIPE_PUBLISHABLE_KEY'], message: `is a ${publishableMode} key but STRIPE_SECRET_KEY is a ${secretMode} key` });
  }
  if (config.NODE_ENV === 'production' && config.STRIPE_API_BASE_URL && new URL(config.STRIPE_API_BASE_URL).protocol !== 'https:') {
    issues.push({ path: ['STRIPE_API_BASE_URL'], message: 'must be https in production' });
  }
  return issues;
}

/** The effective TRUST_PROXY: as configured, else nobody (loopback in test runs). */
export function trustedProxies(config: Pick<AppConfig, 'TRUST_PROXY' | 'NODE_ENV'>): TrustProxy {
  if (config.TRUST_PROXY !== undefined) return config.TRUST_PROXY;
  return config.NODE_ENV === 'test' ? ['loopback'] : false;
}

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
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.') || 'configuration'}: ${issue.message}`));
  }
  return result.data;
}
