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

/** A TCP port to listen on (`0`: any free one). */
const port = () =>
  z.coerce
    .number({ error: 'must be a port number' })
    .int('must be a port number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535');

const positiveInt = (fallback: number, max: number) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(max, `must be at most ${max}`)
    .default(fallback);

/**
 * Every setting the product reads from the environment. Each field's `.describe()` text is its documentation:
 * docs/configuration.md is generated from this schema (`npm run docs:config --workspace backend`).
 */
export const configSchema = z
  .object({
    NODE_ENV: z
      .enum(['development', 'production', 'test'])
      .default('development')
      .describe(
        '`development`, `production` or `test`. `production` requires `SESSION_SECRET`, `APP_BASE_URL` (and `TRUST_PROXY` when it is https) and `SMTP_URL` or `MAIL_CAPTURE=true`, and takes no payments without Stripe keys unless `PAYMENT_GATEWAY=simulated`.',
      ),
    PORT: port().default(3000).describe('The port the server listens on (`0`: any free port).'),
    HOST: z.string().trim().min(1).default('0.0.0.0').describe('The address the server listens on.'),
    LOG_LEVEL: z
      .enum(LOG_LEVELS)
      .default('log')
      .describe(
        'The least severe level written to the log: `fatal`, `error`, `warn`, `log`, `debug` or `verbose` (the command-line tools log `warn` and above unless it is set).',
      ),
    DATABASE_URL: optionalUrl(['postgres:', 'postgresql:'], 'postgres://user:password@localhost:5432/app').describe(
      'A PostgreSQL server, e.g. `postgres://app:app@localhost:5432/app`, for the read tables, accounts, sessions, and for events unless `EVENTSTORE_URL` is set; unset, the embedded database under `DATA_DIR` is used. Statements run as named prepared statements: behind PgBouncer in transaction mode, set its `max_prepared_statements` (1.21 or later).',
    ),
    DATABASE_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lowercase SQL identifier')
      .optional()
      .describe(
        "The schema to work in on the `DATABASE_URL` server, created if missing (a lowercase SQL identifier; each test file uses one of its own); unset, the server's `search_path`.",
      ),
    DATABASE_POOL_SIZE: positiveInt(10, 200).describe(
      "Connections in the app's pool on the `DATABASE_URL` server (at most 200); the event listener and the background workers' locks hold a few more of their own. The embedded database always has one.",
    ),
    EVENTSTORE_URL: optionalUrl(['esdb:', 'esdb+discover:', 'kurrentdb:', 'kurrent:'], 'esdb://localhost:2113?tls=false').describe(
      'EventStoreDB, e.g. `esdb://localhost:2113?tls=false`: events go there; unset, events are stored in PostgreSQL (`DATABASE_URL` or the embedded database).',
    ),
    DATA_DIR: z
      .string()
      .trim()
      .min(1)
      .default('./data')
      .describe(
        'Folder of the embedded database and of the generated session secret; `memory` keeps the database in memory only (nothing survives a restart).',
      ),
    EVENT_STORE_POLL_MS: positiveInt(500, 60000).describe(
      'Longest wait of a live subscriber, in milliseconds, before it looks for new events unprompted.',
    ),
    FEE_WAIVER_EMAILS: commaList.describe('Comma-separated email addresses whose diagnostic fee is waived (case-insensitive).'),
    FEE_WAIVER_NAMES: commaList.describe('Comma-separated contact names whose diagnostic fee is waived (case-insensitive).'),
    READ_YOUR_WRITES_TIMEOUT_MS: positiveInt(2000, 60000).describe(
      'Longest a command endpoint waits, in milliseconds, for the read tables to show its change before it answers anyway.',
    ),
    BODY_LIMIT_BYTES: positiveInt(100 * 1024, 20 * 1024 * 1024).describe('Largest JSON request body, in bytes (a larger one is a 413).'),
    SHUTDOWN_GRACE_MS: positiveInt(10_000, 10 * 60_000).describe(
      'On SIGTERM or SIGINT, how long the requests in flight may take to finish, in milliseconds, before their connections are cut. Readiness is 503 from the signal on; the background workers stop afterwards, an email being sent getting 5 s more.',
    ),
    SESSION_SECRET: z
      .string()
      .optional()
      .transform((value) => (value === '' ? undefined : value))
      .refine((value) => value === undefined || value.length >= 32, 'must be at least 32 characters')
      .describe(
        "Signs session cookies (and, through keys derived from it, the guest's ticket cookie and the sealing of webhook secrets). Required in production (at least 32 characters), and wherever several machines share one database. Unset elsewhere, a random secret is generated once into `DATA_DIR/session-secret` (mode 0600; never into the database that holds the sessions; per process with `DATA_DIR=memory`).",
      ),
    SESSION_SECRET_PREVIOUS: z
      .string()
      .optional()
      .transform((value) => (value === '' ? undefined : value))
      .refine((value) => value === undefined || value.length >= 32, 'must be at least 32 characters')
      .describe(
        "During a rotation, the session secret before the current one: session cookies, guests' ticket cookies and webhook secrets it signed or sealed are still accepted (webhook secrets are sealed again under the current one at start); only `SESSION_SECRET` signs and seals. Drop it once the old cookies have expired (`SESSION_ABSOLUTE_HOURS`). After a leak of the old secret, rotate without it: everyone logs in again, and webhook endpoints are disabled until registered again.",
      ),
    SESSION_IDLE_HOURS: positiveInt(24, 24 * 90).describe('A session ends after this many hours without a request.'),
    SESSION_ABSOLUTE_HOURS: positiveInt(24 * 7, 24 * 365).describe(
      'A session ends this many hours after it began (the login), however active it has been.',
    ),
    APP_BASE_URL: optionalUrl(['http:', 'https:'], 'https://www.example.com').describe(
      "The site's public address, used in links sent by email (verification, password reset, unsubscribe, the staff alert's ticket link). Required in production, where its scheme decides whether the session cookie is Secure.",
    ),
    TRUSTED_ORIGINS: commaList.describe(
      'Other origins whose pages may send mutations to the API (for example a frontend dev server), comma-separated.',
    ),
    // Use trustedProxies(config) for the effective value (loopback in test runs).
    TRUST_PROXY: trustProxy.describe(
      'The reverse proxies whose `X-Forwarded-For`, `-Proto` and `-Host` headers are believed (the client address for rate limits, https for the Secure cookie and HSTS): `none`, a hop count (`1`), or a comma-separated list of `loopback`, `linklocal`, `uniquelocal`, addresses and CIDR ranges (`10.0.0.0/8, 192.168.1.5`); `true` is refused. Unset: nobody (`loopback` when `NODE_ENV=test`, where the tests play clients through X-Forwarded-For). Production with an https `APP_BASE_URL` requires it.',
    ),
    STRIPE_PUBLISHABLE_KEY: z
      .string()
      .trim()
      .optional()
      .transform((value) => (value === '' ? undefined : value))
      .refine(
        (value) => value === undefined || /^pk_(test|live)_[A-Za-z0-9]+$/.test(value),
        'must be a Stripe publishable key (pk_test_... or pk_live_...)',
      )
      .describe(
        "Stripe's publishable key (`pk_test_…` or `pk_live_…`), for the card form; when set, the pages' Content-Security-Policy admits Stripe's script, frames and API.",
      ),
    PAYMENT_GATEWAY: z
      .enum(['stripe', 'simulated', ''], { error: 'must be stripe or simulated' })
      .optional()
      .transform((value) => (value === '' ? undefined : value))
      .describe(
        '`stripe` or `simulated` (test mode: no network, no real charge). Unset: `stripe` when `STRIPE_SECRET_KEY` is set, else `simulated`, except in production, where payments then answer 503 until Stripe is configured or `PAYMENT_GATEWAY=simulated` says a demo is meant.',
      ),
    STRIPE_SECRET_KEY: z
      .string()
      .trim()
      .optional()
      .transform((value) => (value === '' ? undefined : value))
      .refine(
        (value) => value === undefined || /^(sk|rk)_(test|live)_[A-Za-z0-9]+$/.test(value),
        'must be a Stripe secret key (sk_test_..., sk_live_..., or rk_...)',
      )
      .describe(
        "Stripe's secret API key (`sk_…`, or a restricted `rk_…` key). It selects the stripe gateway, which then requires all three Stripe keys (test and live keys not mixed).",
      ),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .trim()
      .optional()
      .transform((value) => (value === '' ? undefined : value))
      .refine(
        (value) => value === undefined || /^whsec_[A-Za-z0-9+/=_-]{8,}$/.test(value),
        'must be a Stripe webhook signing secret (whsec_...)',
      )
      .describe(
        'The signing secret of the Stripe webhook endpoint (`whsec_…`). The simulated gateway signs its webhooks with it too or, unset, with a secret generated once and kept in the database.',
      ),
    STRIPE_API_BASE_URL: optionalUrl(['https:', 'http:'], 'https://api.stripe.com').describe(
      "Stripe's API address, `https://api.stripe.com` when unset: the only address payment calls may go to (tests point it at a local stand-in; https in production).",
    ),
    PAYMENTS_RECONCILE_AFTER_MINUTES: positiveInt(10, 7 * 24 * 60).describe(
      'An intent still unrecorded this many minutes after its creation is checked with the gateway (a lost webhook).',
    ),
    PAYMENTS_RECONCILE_INTERVAL_MINUTES: positiveInt(5, 24 * 60).describe('How often the payment reconciler runs in the app, in minutes.'),
    MAIL_CAPTURE: z
      .enum(['true', 'false', ''], { error: 'must be true or false' })
      .optional()
      .transform((value) => value === 'true')
      .describe(
        '`true`: in production without `SMTP_URL`, keep emails in the mail log table only, on purpose (their text, which holds tokens, is never written to the process log).',
      ),
    SMTP_URL: optionalUrl(['smtp:', 'smtps:'], 'smtp://user:password@mail.example.com:587').describe(
      "An SMTP server (`smtp://` or `smtps://`; a pool of 5 connections). Unset, the app still runs and every message is captured in the mail log table and logged (ticket emails appear as sent in the admin's email log); required in production unless `MAIL_CAPTURE=true`.",
    ),
    MAIL_FROM: z.string().trim().min(3).default('Potomac PC Repair <no-reply@localhost>').describe('The sender of every email.'),
    STAFF_ALERT_EMAILS: commaList
      .refine((list) => list.every((email) => z.email().safeParse(email).success), 'must be email addresses separated by commas')
      .describe(
        'Comma-separated staff addresses emailed at once about new contact messages (Reply-To the visitor) and every newly paid or waived ticket (its summary and a link to `APP_BASE_URL/admin/dashboard?ticket={id}`). Unset, contact messages are only stored and listed for admins, and no staff alert is sent.',
      ),
    NOTIFICATION_MAX_ATTEMPTS: positiveInt(5, 20).describe(
      'Attempts at one ticket email or staff alert before it stays failed (shown in the email log; an admin may resend it).',
    ),
    NOTIFICATION_RETRY_BASE_MS: positiveInt(5000, 3_600_000).describe(
      'Wait before the first retry of a failed ticket email or staff alert, in milliseconds, doubled at each further retry.',
    ),
    MARKETING_BATCH_PAUSE_MS: z.coerce
      .number({ error: 'must be a whole number of milliseconds' })
      .int('must be a whole number of milliseconds')
      .min(0, 'must be at least 0')
      .max(24 * 3600 * 1000, 'must be at most one day')
      .default(15 * 60 * 1000)
      .describe(
        "Pause between two batches of a marketing campaign (50 recipients, 20 when the content is over 200 KB), in milliseconds. The default, 15 minutes, follows SPEC section 9's note (50 every 15 minutes) and keeps a small mail server's hourly sending limits; `0` sends without pause.",
      ),
    LOGIN_MAX_FAILURES_PER_ACCOUNT: positiveInt(5, 1000).describe(
      'Failed logins of one account (customer or admin) within `LOGIN_WINDOW_MINUTES` before every login to it, even with the right password, is refused with a 429 until the window ends (`npm run admins -- unlock` clears it for an admin).',
    ),
    LOGIN_MAX_ATTEMPTS_PER_ADDRESS: positiveInt(20, 100000).describe(
      'Login attempts from one client address within `LOGIN_WINDOW_MINUTES` before it is refused with a 429.',
    ),
    LOGIN_WINDOW_MINUTES: positiveInt(15, 24 * 60).describe('The window of both login limits, in minutes.'),
    PUBLIC_FORM_LIMIT_PER_HOUR: positiveInt(10, 1_000_000).describe(
      'Submissions of each public form (support request, registration, password reset, contact, unsubscribe by typed address, a pre-ticket payment intent) from one client address per hour; past it a 429 with Retry-After. Raise it and the global limit for a load test.',
    ),
    PUBLIC_FORM_GLOBAL_LIMIT_PER_HOUR: positiveInt(500, 10_000_000).describe(
      'Submissions of each public form from all addresses together per hour (bounds the writes a botnet can make); past it a 429 with Retry-After.',
    ),
    MESSAGE_LIMIT_PER_HOUR: positiveInt(30, 1_000_000).describe(
      "Messages a customer may post on one ticket per hour, and from one client address on all tickets together (the ticket conversation, in the portal or by email reply); past it a 429 with Retry-After. Staff's messages are not limited.",
    ),
    INBOUND_EMAIL_DOMAIN: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'must be a domain name such as reply.example.com')
      .optional()
      .describe(
        'The domain whose mail reaches the inbound SMTP receiver (its MX record points at this app): staff replies to a customer are sent with `Reply-To: reply+{token}@{domain}`, and a reply to that address is posted on the ticket. Unset, the reply emails carry no such address (the customer answers in the portal).',
      ),
    INBOUND_SMTP_PORT: port()
      .optional()
      .describe(
        "The port of the inbound SMTP receiver of email replies (`25` behind an MX record, or a port your mail server or provider forwards `INBOUND_EMAIL_DOMAIN` to; `0`: any free port). It accepts mail for the tickets' reply addresses only (550 for any other recipient), from the ticket's email address only, drops automatic answers and bounces, and posts the reply without its quoted text, attachments included. Unset: no receiver. Plain SMTP without TLS or AUTH: put it behind your mail server when it faces the internet.",
      ),
    INBOUND_SMTP_HOST: z.string().trim().min(1).default('0.0.0.0').describe('The address the inbound SMTP receiver listens on.'),
    IDEMPOTENCY_KEY_HOURS: positiveInt(24, 24 * 7).describe(
      'How long the `Idempotency-Key` of `POST /api/support-request` is remembered: a retry with the same key within it gets the same ticket.',
    ),
    VERIFICATION_TOKEN_HOURS: positiveInt(48, 24 * 30).describe('How long an email-verification link works, in hours.'),
    RESET_TOKEN_MINUTES: positiveInt(60, 24 * 60).describe('How long a password-reset link works, in minutes.'),
    WEBHOOK_ALLOW_PRIVATE_URLS: z
      .enum(['true', 'false', ''], { error: 'must be true or false' })
      .optional()
      .transform((value) => value === 'true')
      .describe(
        "`true` lets webhooks go to private, loopback, link-local and unique-local addresses (a receiver on the same machine or network). Off, such URLs are refused when registered and again at every send: an admin's webhook URL must not reach internal services (SSRF).",
      ),
    WEBHOOK_RETRY_BASE_MS: positiveInt(30_000, 3_600_000).describe(
      'Wait before the first webhook retry, in milliseconds; each further retry waits twice as long (at most 12 hours).',
    ),
    WEBHOOK_RETRY_HOURS: positiveInt(72, 24 * 30).describe(
      'How long a failing webhook delivery keeps being retried, in hours, before it is marked failed.',
    ),
    WEBHOOK_TIMEOUT_MS: positiveInt(10_000, 120_000).describe(
      'Longest a webhook receiver may take to answer (connect to last byte), in milliseconds.',
    ),
    INTEGRATIONS_HEARTBEAT_SECONDS: positiveInt(15, 300).describe(
      'How often the event feeds send a heartbeat comment, in seconds (keeps proxies from closing an idle stream; each heartbeat also checks that the key or session still holds).',
    ),
    EVENT_STREAMS_PER_CLIENT: positiveInt(10, 1000).describe(
      'Most event streams one integration key, admin or customer may have open at once on one instance (each open stream is a live subscriber woken by every event); more are refused with a 429.',
    ),
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
