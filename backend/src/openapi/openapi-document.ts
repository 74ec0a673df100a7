import {
  accountMessages,
  apiErrorSchema,
  checkoutSessionResponseSchema,
  createCheckoutSessionRequestSchema,
  createdTicketSchema,
  createPaymentIntentRequestSchema,
  currentCustomerSchema,
  customerLoginSchema,
  customerTicketsSchema,
  forgotPasswordSchema,
  healthSchema,
  linkTicketsResponseSchema,
  messageResponseSchema,
  paymentMessages,
  paymentSetupResponseSchema,
  publicConfigSchema,
  registerSchema,
  resetPasswordSchema,
  simulatedConfirmRequestSchema,
  simulatedConfirmResponseSchema,
  supportRequestExternalPaymentSchema,
  supportRequestSchema,
  supportRequestWithPaymentSchema,
  ticketDetailSchema,
  ticketSummarySchema,
  unsubscribeSchema,
  unsubscribeTokenInfoSchema,
  updateTicketPaymentSchema,
  verifyEmailSchema,
  webhookAckSchema,
} from '@ppr/contracts';
import { z } from 'zod';

/** JSON Schema (2020-12, as OpenAPI 3.1 uses) of a contracts schema, as sent (input) or as answered (output). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/** Named schemas: each contracts schema once under components, referenced by the operations. */
const REQUESTS = {
  SupportRequest: supportRequestSchema,
  Register: registerSchema,
  CustomerLogin: customerLoginSchema,
  VerifyEmail: verifyEmailSchema,
  ForgotPassword: forgotPasswordSchema,
  ResetPassword: resetPasswordSchema,
  Unsubscribe: unsubscribeSchema,
  CreatePaymentIntent: createPaymentIntentRequestSchema,
  SupportRequestWithPayment: supportRequestWithPaymentSchema,
  SupportRequestExternalPayment: supportRequestExternalPaymentSchema,
  UpdateTicketPayment: updateTicketPaymentSchema,
  CreateCheckoutSession: createCheckoutSessionRequestSchema,
  SimulatedConfirm: simulatedConfirmRequestSchema,
} as const satisfies Record<string, z.ZodType>;

const RESPONSES = {
  ApiError: apiErrorSchema,
  Message: messageResponseSchema,
  CreatedTicket: createdTicketSchema,
  TicketSummary: ticketSummarySchema,
  TicketDetail: ticketDetailSchema,
  CustomerTickets: customerTicketsSchema,
  LinkTickets: linkTicketsResponseSchema,
  CurrentCustomer: currentCustomerSchema,
  UnsubscribeTokenInfo: unsubscribeTokenInfoSchema,
  Health: healthSchema,
  PaymentSetup: paymentSetupResponseSchema,
  CheckoutSession: checkoutSessionResponseSchema,
  SimulatedConfirmResult: simulatedConfirmResponseSchema,
  PublicConfig: publicConfigSchema,
  WebhookAck: webhookAckSchema,
} as const satisfies Record<string, z.ZodType>;

type RequestName = keyof typeof REQUESTS;
type ResponseName = keyof typeof RESPONSES;

/**
 * POST /api/support-request's optional idempotency key: its format and refusals, as
 * backend/src/tickets/idempotency/support-request-idempotency.ts checks them (a module-private file; the e2e
 * test compares these with the endpoint's real answers).
 */
const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_PATTERN = '^[A-Za-z0-9_.:-]{16,255}$';
const idempotencyMessages = {
  malformedKey: `${IDEMPOTENCY_KEY_HEADER} must be 16 to 255 characters: letters, digits, "-", "_", "." or ":" (a UUID is fine)`,
  keyReused: `${IDEMPOTENCY_KEY_HEADER} was already used for a different request`,
} as const;

const retryAfter = (description: string) => ({ 'Retry-After': { description, schema: { type: 'integer', minimum: 1 } } });

/** Answers shared by many operations, under components.responses; an operation may add to the description. */
const SHARED_RESPONSES = {
  BadRequest: {
    description:
      'Invalid body: `message` (the messages joined) and one `errors` entry (`path`, `message`) per field, with the messages of the ' +
      'contracts schema. Also: a body that is not a JSON object, not valid JSON, holds NUL or unpaired surrogate characters, or ' +
      '(endpoints that take none) any body at all ("This request takes no body").',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
  },
  Forbidden: {
    description:
      'CSRF refusal. Every mutation (any method but GET, HEAD, OPTIONS) must carry `X-Requested-With: XMLHttpRequest` ' +
      `("${accountMessages.csrfHeader}") and, when the browser sends Origin or Sec-Fetch-Site, come from this site: same scheme, ` +
      `host and port, or an origin in APP_BASE_URL / TRUSTED_ORIGINS ("${accountMessages.csrfOrigin}").`,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
  },
  TooManyRequests: {
    description: 'Rate limited: wait the Retry-After seconds.',
    headers: retryAfter('Seconds until a new attempt can succeed'),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
  },
  PaymentUnavailable: {
    description: `The payment gateway is down, not configured, or refused the request: "${paymentMessages.unavailable}" Nothing changed; the ticket can be paid later.`,
    headers: retryAfter('30'),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
  },
} as const;

type SharedResponse = keyof typeof SHARED_RESPONSES;

interface Answer {
  readonly description: string;
  readonly schema?: ResponseName;
  /** Also (or only) an HTML page. */
  readonly html?: boolean;
  /** A body of another text type (a script, a stylesheet...). */
  readonly text?: string;
  readonly headers?: Readonly<Record<string, { description: string; schema: Record<string, unknown> }>>;
}

/** A shared answer, optionally with more to say for this operation (OpenAPI 3.1 lets a $ref override the description). */
interface SharedAnswer {
  readonly shared: SharedResponse;
  readonly description?: string;
}

interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly description: string;
  readonly required?: boolean;
  readonly schema?: Record<string, unknown>;
}

interface Operation {
  readonly method: 'get' | 'post';
  readonly path: string;
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  readonly body?: RequestName;
  readonly formBody?: RequestName;
  /** A body documented here rather than by a contracts schema (the webhook's raw event). */
  readonly rawBody?: { readonly description: string; readonly schema: Record<string, unknown> };
  readonly session?: boolean;
  /**
   * The CSRF rule of a mutation: 'full' (the default for POST: header and Origin), 'origin' (the header is
   * waived, a present Origin must still be this site's), 'exempt' (not called by the site's scripts).
   */
  readonly csrf?: 'full' | 'origin' | 'exempt';
  readonly parameters?: readonly Parameter[];
  readonly responses: Readonly<Record<number, Answer | SharedAnswer>>;
}

const error = (description: string): Answer => ({ description, schema: 'ApiError' });
const shared = (name: SharedResponse, description?: string): SharedAnswer =>
  description ? { shared: name, description } : { shared: name };
const quoted = (...messages: readonly string[]) => messages.map((m) => `"${m}"`).join('; ');
const badRequest = shared('BadRequest');
const badRequestOr = (...messages: readonly string[]) => shared('BadRequest', `Invalid body (see BadRequest), or: ${quoted(...messages)}`);
const forbiddenOr = (...messages: readonly string[]) => shared('Forbidden', `CSRF refusal (see Forbidden), or: ${quoted(...messages)}`);
const tooManyRequests = (message: string) => shared('TooManyRequests', `Rate limited (Retry-After): ${message}`);
const paymentUnavailable = shared('PaymentUnavailable');
const ticketId = { name: 'id', in: 'path', description: 'The ticket number' } as const;

const PASSWORD_RULES = [accountMessages.passwordTooCommon, accountMessages.passwordIsIdentity, accountMessages.passwordOneCharacter];
/** PublicFormLimits' 429 (backend/src/auth/public-form-limit.ts): per client address and for everybody, per hour. */
const FORM_LIMIT =
  '"Too many requests. Please try again in {n} minutes." (PUBLIC_FORM_LIMIT_PER_HOUR per client address, IPv6 by /64, and ' +
  'PUBLIC_FORM_GLOBAL_LIMIT_PER_HOUR for all addresses together)';
const LOGIN_LIMIT = `"${accountMessages.tooManyLoginAttempts}"`;
const TICKET_NOT_FOUND = 'Ticket not found';
const FEE_SETTLED = "The ticket's fee is settled (already paid, waived, or refunded): there is nothing to pay";
/** The refusals of a payment a client names (TicketPaymentsService.verifiedIntent and its claim). */
const PAYMENT_REFUSALS = {
  402: error(`The gateway says the payment has not succeeded: "${paymentMessages.paymentNotCompleted}"`),
  409: error(
    `The payment cannot pay this: ${quoted(paymentMessages.paymentDoesNotMatchFee, paymentMessages.paymentAlreadyUsed, paymentMessages.paymentForAnotherTicket)}, or the ticket's state forbids it`,
  ),
} as const;
const SIMULATED_ONLY =
  'Simulated gateway only (PAYMENT_GATEWAY=simulated, or no Stripe keys outside production): with Stripe, or with payments ' +
  'unavailable, this answers 404 { message: "Not found" } like an unknown path. No real charge is possible.';

const OPERATIONS: readonly Operation[] = [
  {
    method: 'post',
    path: '/api/support-request',
    tag: 'Tickets',
    summary: 'Submit a support request (creates a ticket)',
    body: 'SupportRequest',
    description:
      'A logged-in customer owns the ticket; a guest may read its summary for the rest of the browser session. With an ' +
      `${IDEMPOTENCY_KEY_HEADER} header, a retry of the same request (same key, same fields) answers the same ticket instead of ` +
      'creating another. Checked in this order, and nothing is written when one refuses: the body (400), the key (400), the rate ' +
      'limit (429).',
    parameters: [
      {
        name: IDEMPOTENCY_KEY_HEADER,
        in: 'header',
        required: false,
        description:
          'Optional. 16 to 255 letters, digits, "-", "_", "." or ":" (a UUID is fine). Scoped to the logged-in customer (guests ' +
          'share one scope) and kept for IDEMPOTENCY_KEY_HOURS.',
        schema: { type: 'string', minLength: 16, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN },
      },
    ],
    responses: {
      201: { description: 'The new ticket (or, for a retried key, the ticket it created)', schema: 'CreatedTicket' },
      400: badRequestOr(idempotencyMessages.malformedKey),
      413: error('Body too large'),
      422: error(`The key was already used with different fields: "${idempotencyMessages.keyReused}"`),
      429: tooManyRequests(FORM_LIMIT),
    },
  },
  {
    method: 'get',
    path: '/api/ticket/{id}',
    tag: 'Tickets',
    summary: 'The summary of a ticket this session submitted or owns',
    parameters: [ticketId],
    responses: { 200: { description: 'Ticket summary', schema: 'TicketSummary' }, 404: error(TICKET_NOT_FOUND) },
  },
  {
    method: 'get',
    path: '/api/tickets/{id}',
    tag: 'Customer',
    summary: 'A ticket of the logged-in customer, every field',
    parameters: [ticketId],
    session: true,
    responses: {
      200: { description: 'Ticket detail', schema: 'TicketDetail' },
      401: error(accountMessages.notLoggedIn),
      404: error('Ticket not found (also for a ticket of someone else)'),
    },
  },
  // Payments (SPEC section 7). Tickets are reachable by the browser session that submitted them or by their owner.
  {
    method: 'post',
    path: '/api/create-payment-intent',
    tag: 'Payments',
    summary: "A payment intent for an existing ticket's diagnostic fee",
    body: 'CreatePaymentIntent',
    description: "Reuses the ticket's open intent while it can still be paid; otherwise creates one (idempotent towards the gateway).",
    responses: {
      200: { description: 'What the card form needs', schema: 'PaymentSetup' },
      400: badRequest,
      404: error(`${TICKET_NOT_FOUND} (or not this session's nor this customer's)`),
      409: error(FEE_SETTLED),
      503: paymentUnavailable,
    },
  },
  {
    method: 'post',
    path: '/api/create-diagnostic-fee-payment',
    tag: 'Payments',
    summary: 'A payment intent for the fee before the ticket exists',
    description:
      'No body (nothing, or `{}`). The intent is remembered in the browser session and returned again while it is open; a new one ' +
      'is counted like a public form submission.',
    responses: {
      200: { description: 'What the card form needs', schema: 'PaymentSetup' },
      400: badRequest,
      429: tooManyRequests('"Too many requests. Please try again in {n} minutes." (PUBLIC_FORM_LIMIT_PER_HOUR per client address)'),
      503: paymentUnavailable,
    },
  },
  ...(
    [
      ['/api/support-request-with-payment', 'SupportRequestWithPayment', 'Submit a support request with its paid fee'],
      [
        '/api/support-request-external-payment',
        'SupportRequestExternalPayment',
        'Submit a support request after a redirect-based payment, or with a fee waiver (isZeroCost)',
      ],
    ] as const
  ).map(([path, body, summary]): Operation => ({
    method: 'post',
    path,
    tag: 'Payments',
    summary,
    body,
    description:
      'The ticket is created only when what the client claims holds: a succeeded pre-ticket intent for the fee, checked with the ' +
      'gateway and claimed by no other ticket, or a zero-cost request the waiver rule covers. A retry with the same intent from the ' +
      'same browser session answers the ticket it already created.',
    responses: {
      201: { description: 'The new ticket', schema: 'CreatedTicket' },
      400: badRequestOr(paymentMessages.paymentOrWaiverRequired),
      ...PAYMENT_REFUSALS,
      403: forbiddenOr(paymentMessages.zeroCostNotAllowed),
      404: error(paymentMessages.paymentNotFound),
      503: paymentUnavailable,
    },
  })),
  {
    method: 'post',
    path: '/api/update-ticket-payment',
    tag: 'Payments',
    summary: 'Report that a ticket is paid (or free); the server verifies with the gateway',
    body: 'UpdateTicketPayment',
    responses: {
      200: { description: 'The ticket, now showing the verified payment', schema: 'CreatedTicket' },
      400: badRequestOr(paymentMessages.paymentOrWaiverRequired),
      ...PAYMENT_REFUSALS,
      403: forbiddenOr(paymentMessages.zeroCostNotAllowed),
      404: error(quoted(TICKET_NOT_FOUND, paymentMessages.paymentNotFound)),
      503: paymentUnavailable,
    },
  },
  {
    method: 'post',
    path: '/api/payments/checkout-session',
    tag: 'Payments',
    summary: 'Hosted checkout (Stripe Checkout) for a ticket',
    body: 'CreateCheckoutSession',
    description: "Reuses the ticket's open session. Success returns through GET /api/payments/checkout/complete.",
    responses: {
      200: { description: 'Where to send the browser', schema: 'CheckoutSession' },
      400: badRequest,
      404: error(`${TICKET_NOT_FOUND} (or not this session's nor this customer's)`),
      409: error(FEE_SETTLED),
      503: paymentUnavailable,
    },
  },
  {
    method: 'get',
    path: '/api/payments/checkout/complete',
    tag: 'Payments',
    summary: "Hosted checkout's success address: on to the SPA's return screen",
    parameters: [{ name: 'session_id', in: 'query', description: 'The checkout session id (`cs_...`), filled in by the gateway' }],
    responses: {
      303: {
        description:
          'To /customer/dashboard (logged in) or /payment-success, with `payment_intent` and `ticket_id`; to /support-request when ' +
          '`session_id` is missing or malformed. Reads only: the return screen then posts update-ticket-payment.',
        headers: { Location: { description: 'Where to go', schema: { type: 'string' } } },
      },
      404: error(paymentMessages.paymentNotFound),
      503: paymentUnavailable,
    },
  },
  {
    method: 'post',
    path: '/api/payments/webhook',
    tag: 'Payments',
    summary: "The payment gateway's events (Stripe webhooks)",
    csrf: 'exempt',
    description:
      'Exempt from the CSRF rule: the signature authenticates it (tolerance 300 s). The body is read raw (the signature covers its ' +
      'exact bytes). Every verified event is acknowledged with a 200, including duplicates and refused mismatches; a failure of ' +
      'our own is a 500, and Stripe delivers again.',
    parameters: [
      {
        name: 'Stripe-Signature',
        in: 'header',
        required: true,
        description: "Stripe's signature of the raw body (`t=...,v1=...`), with the webhook signing secret",
        schema: { type: 'string' },
      },
    ],
    rawBody: {
      description: 'A Stripe event (`{ id, type, data: { object } }`), exactly the bytes Stripe signed',
      schema: { type: 'object', required: ['id', 'type', 'data'] },
    },
    responses: {
      200: { description: 'Acknowledged', schema: 'WebhookAck' },
      400: error(quoted(paymentMessages.invalidSignature, 'The webhook body is not a Stripe event', 'The request body is not valid JSON')),
      413: error('Body too large'),
    },
  },
  {
    method: 'post',
    path: '/api/payments/simulated/confirm',
    tag: 'Payments (simulated gateway)',
    summary: 'Confirm a simulated payment with a test card',
    body: 'SimulatedConfirm',
    description:
      `${SIMULATED_ONLY} A success is recorded on the ticket before this answers; a decline answers 200 with status "declined" ` +
      'and the intent can be confirmed again with another card.',
    responses: {
      200: { description: 'Succeeded or declined', schema: 'SimulatedConfirmResult' },
      400: badRequest,
      404: error(quoted('Not found', paymentMessages.paymentNotFound)),
      409: error(quoted(paymentMessages.alreadyConfirmed, paymentMessages.paymentNotCompleted)),
    },
  },
  {
    method: 'get',
    path: '/api/payments/simulated/checkout/{id}',
    tag: 'Payments (simulated gateway)',
    summary: 'A stand-in for the hosted checkout page, marked as test mode',
    description: SIMULATED_ONLY,
    parameters: [{ name: 'id', in: 'path', description: 'The simulated checkout session id (`cs_sim_...`)' }],
    responses: {
      200: { description: 'The test card form', html: true },
      303: {
        description: 'The session is no longer open: to its success address',
        headers: { Location: { description: 'Where to go', schema: { type: 'string' } } },
      },
      404: error(quoted('Not found', paymentMessages.paymentNotFound)),
    },
  },
  {
    method: 'get',
    path: '/api/payments/simulated/checkout.js',
    tag: 'Payments (simulated gateway)',
    summary: "The simulated checkout page's script",
    description: SIMULATED_ONLY,
    responses: { 200: { description: 'The script', text: 'application/javascript' }, 404: error('Not found') },
  },
  {
    method: 'get',
    path: '/api/config',
    tag: 'Payments',
    summary: 'Which payment gateway is active, its publishable key, the fee',
    responses: { 200: { description: 'What the SPA needs before it shows a payment form', schema: 'PublicConfig' } },
  },
  // Customer accounts.
  {
    method: 'post',
    path: '/api/customer/register',
    tag: 'Customer',
    summary: 'Create a customer account',
    body: 'Register',
    description: 'The answer is the same whether or not the email already has an account; its owner is told by email.',
    responses: {
      201: { description: accountMessages.registered, schema: 'Message' },
      400: badRequestOr(...PASSWORD_RULES),
      409: error(accountMessages.usernameTaken),
      429: tooManyRequests(FORM_LIMIT),
    },
  },
  {
    method: 'post',
    path: '/api/customer/login',
    tag: 'Customer',
    summary: 'Log in with email or username',
    body: 'CustomerLogin',
    description: 'Starts a new session (new session id). Limited per account and per address.',
    responses: {
      200: { description: 'The customer', schema: 'CurrentCustomer' },
      400: badRequest,
      401: error(accountMessages.invalidCredentials),
      429: tooManyRequests(LOGIN_LIMIT),
    },
  },
  {
    method: 'post',
    path: '/api/customer/logout',
    tag: 'Customer',
    summary: 'End the session',
    responses: { 200: { description: accountMessages.loggedOut, schema: 'Message' }, 400: badRequest },
  },
  ...(['/api/customer/user', '/api/customer/me'] as const).map((path): Operation => ({
    method: 'get',
    path,
    tag: 'Customer',
    summary: 'The logged-in customer',
    session: true,
    responses: { 200: { description: 'The customer', schema: 'CurrentCustomer' }, 401: error(accountMessages.notLoggedIn) },
  })),
  {
    method: 'get',
    path: '/api/customer/verify-email',
    tag: 'Customer',
    summary: 'The emailed verification link: a page that confirms with a POST',
    description: 'When the browser cannot show it registered the account, the page also asks for the account password.',
    parameters: [{ name: 'token', in: 'query', description: 'The token from the email' }],
    responses: {
      200: { description: 'A page with a confirmation button', html: true },
      400: { description: `${accountMessages.verificationInvalid} (no token, or longer than 200 characters)`, html: true },
      404: { description: accountMessages.verificationInvalid, html: true },
      410: { description: accountMessages.verificationExpired, html: true },
    },
  },
  {
    method: 'post',
    path: '/api/customer/verify-email',
    tag: 'Customer',
    summary: 'Confirm an email address',
    body: 'VerifyEmail',
    formBody: 'VerifyEmail',
    csrf: 'origin',
    description:
      'Verifies only when the request shows it comes from whoever registered the account: the browser session that registered ' +
      'it, a session logged in as it, or its `password` (checked like a login attempt, counted against the account). From the ' +
      'page form (urlencoded, no X-Requested-With needed; a present Origin must still be this site): 303 to ' +
      '/customer/login?verified=true, or the page again (HTML) with the same status as below. From a script (JSON): a message.',
    responses: {
      200: { description: accountMessages.emailVerified, schema: 'Message' },
      303: {
        description: 'Verified (form); redirect to /customer/login?verified=true',
        headers: { Location: { description: '/customer/login?verified=true', schema: { type: 'string' } } },
      },
      400: {
        description: `Invalid body: JSON, the BadRequest answer; the form, the page saying "${accountMessages.verificationInvalid}"`,
        schema: 'ApiError',
        html: true,
      },
      401: { description: accountMessages.verificationWrongPassword, schema: 'ApiError', html: true },
      403: {
        description: `No proof of registration: "${accountMessages.verificationNeedsPassword}"; or the CSRF Origin refusal: "${accountMessages.csrfOrigin}"`,
        schema: 'ApiError',
        html: true,
      },
      404: { description: accountMessages.verificationInvalid, schema: 'ApiError', html: true },
      409: { description: accountMessages.verificationAddressTaken, schema: 'ApiError', html: true },
      410: { description: accountMessages.verificationExpired, schema: 'ApiError', html: true },
      429: {
        description: `Too many password attempts for the account: ${LOGIN_LIMIT}`,
        schema: 'ApiError',
        html: true,
        headers: retryAfter('Seconds until a new attempt can succeed'),
      },
    },
  },
  {
    method: 'post',
    path: '/api/customer/resend-verification',
    tag: 'Customer',
    summary: 'Email a new verification link',
    session: true,
    responses: {
      200: { description: `${accountMessages.verificationSent} (or: ${accountMessages.alreadyVerified})`, schema: 'Message' },
      400: badRequest,
      401: error(accountMessages.notLoggedIn),
      429: tooManyRequests(`"${accountMessages.tooManyRequests}" (3 per hour per account)`),
    },
  },
  {
    method: 'post',
    path: '/api/customer/forgot-password',
    tag: 'Customer',
    summary: 'Email a password reset link',
    body: 'ForgotPassword',
    description: 'Always the same answer, whether or not an account has the address.',
    responses: {
      200: { description: accountMessages.forgotPasswordSent, schema: 'Message' },
      400: badRequest,
      429: tooManyRequests(FORM_LIMIT),
    },
  },
  {
    method: 'post',
    path: '/api/customer/reset-password',
    tag: 'Customer',
    summary: 'Set a new password with the emailed token',
    body: 'ResetPassword',
    description: 'Ends every session of the account. The new password follows the registration rules.',
    responses: {
      200: { description: accountMessages.passwordChanged, schema: 'Message' },
      400: badRequestOr(accountMessages.resetInvalid, ...PASSWORD_RULES),
      410: error(accountMessages.resetExpired),
      429: tooManyRequests(FORM_LIMIT),
    },
  },
  {
    method: 'get',
    path: '/api/customer/tickets',
    tag: 'Customer',
    summary: "The logged-in customer's tickets, newest first",
    session: true,
    responses: { 200: { description: 'Tickets', schema: 'CustomerTickets' }, 401: error(accountMessages.notLoggedIn) },
  },
  {
    method: 'post',
    path: '/api/customer/link-tickets',
    tag: 'Customer',
    summary: 'Attach earlier guest tickets with the same (verified) email',
    session: true,
    responses: {
      200: { description: 'The tickets attached now', schema: 'LinkTickets' },
      400: badRequest,
      401: error(accountMessages.notLoggedIn),
      403: forbiddenOr(accountMessages.verifyBeforeLinking),
    },
  },
  {
    method: 'get',
    path: '/api/unsubscribe/{token}',
    tag: 'Unsubscribe',
    summary: 'The address an unsubscribe link belongs to (changes nothing)',
    parameters: [{ name: 'token', in: 'path', description: 'The token from the email' }],
    responses: { 200: { description: 'The address', schema: 'UnsubscribeTokenInfo' }, 404: error(accountMessages.unsubscribeTokenUnknown) },
  },
  {
    method: 'post',
    path: '/api/unsubscribe',
    tag: 'Unsubscribe',
    summary: 'Unsubscribe by token or by address (idempotent)',
    body: 'Unsubscribe',
    responses: {
      200: { description: accountMessages.unsubscribed, schema: 'Message' },
      400: badRequest,
      404: error(accountMessages.unsubscribeTokenUnknown),
    },
  },
  {
    method: 'post',
    path: '/api/unsubscribe/one-click/{token}',
    tag: 'Unsubscribe',
    summary: 'RFC 8058 one-click unsubscribe (List-Unsubscribe-Post target)',
    csrf: 'exempt',
    description: 'Exempt from the CSRF rule: mail providers call it. Body `List-Unsubscribe=One-Click` (ignored).',
    parameters: [{ name: 'token', in: 'path', description: 'The token from the List-Unsubscribe header' }],
    responses: {
      200: { description: accountMessages.unsubscribed, schema: 'Message' },
      404: error(accountMessages.unsubscribeTokenUnknown),
    },
  },
  {
    method: 'get',
    path: '/api/health',
    tag: 'Operations',
    summary: 'Event store and database health',
    responses: { 200: { description: 'Healthy', schema: 'Health' }, 503: { description: 'Degraded', schema: 'Health' } },
  },
  // This document and its browsable page (swagger-ui-dist from the package, no CDN).
  {
    method: 'get',
    path: '/api/openapi.json',
    tag: 'Documentation',
    summary: 'This OpenAPI 3.1 document',
    responses: { 200: { description: 'The document', text: 'application/json' } },
  },
  {
    method: 'get',
    path: '/api/docs',
    tag: 'Documentation',
    summary: 'A browsable page of this document (Swagger UI)',
    responses: { 200: { description: 'The page', html: true } },
  },
  {
    method: 'get',
    path: '/api/docs/init.js',
    tag: 'Documentation',
    summary: "The page's start-up script",
    responses: { 200: { description: 'The script', text: 'text/javascript' } },
  },
  {
    method: 'get',
    path: '/api/docs/assets/{file}',
    tag: 'Documentation',
    summary: "Swagger UI's files",
    parameters: [
      {
        name: 'file',
        in: 'path',
        description: 'One of the files the page uses',
        schema: { enum: ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png'] },
      },
    ],
    responses: { 200: { description: 'The file', text: '*/*' }, 404: error('Not found (any other name)') },
  },
];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function isShared(answer: Answer | SharedAnswer): answer is SharedAnswer {
  return 'shared' in answer;
}

function responseObject(answer: Answer | SharedAnswer): Record<string, unknown> {
  if (isShared(answer)) {
    return { $ref: `#/components/responses/${answer.shared}`, ...(answer.description ? { description: answer.description } : {}) };
  }
  const content: Record<string, unknown> = {};
  if (answer.schema) content['application/json'] = { schema: ref(answer.schema) };
  if (answer.html) content['text/html'] = { schema: { type: 'string' } };
  if (answer.text) content[answer.text] = { schema: { type: 'string' } };
  return {
    description: answer.description,
    ...(answer.headers ? { headers: answer.headers } : {}),
    ...(Object.keys(content).length ? { content } : {}),
  };
}

/** The CSRF rule of an operation: none for GET, 'full' for any other method unless it says otherwise. */
function csrfOf(op: Operation): 'full' | 'origin' | 'exempt' | 'none' {
  return op.method === 'get' ? 'none' : (op.csrf ?? 'full');
}

function operationObject(op: Operation): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  if (op.body) content['application/json'] = { schema: ref(op.body) };
  if (op.formBody) content['application/x-www-form-urlencoded'] = { schema: ref(op.formBody) };
  if (op.rawBody) content['application/json'] = { schema: { ...op.rawBody.schema, description: op.rawBody.description } };
  const csrf = csrfOf(op);
  const headers =
    csrf === 'full'
      ? [
          {
            name: 'X-Requested-With',
            in: 'header',
            required: true,
            schema: { const: 'XMLHttpRequest' },
            description: 'CSRF defence: required on every mutation',
          },
        ]
      : [];
  const parameters = [
    ...(op.parameters ?? []).map(({ schema, required, ...p }) => ({
      ...p,
      required: required ?? p.in === 'path',
      schema: schema ?? { type: 'string' },
    })),
    ...headers,
  ];
  // Every mutation the CSRF rule covers can answer its 403 (an operation may name other 403s of its own).
  const responses: Record<number, Answer | SharedAnswer> = { ...op.responses };
  if ((csrf === 'full' || csrf === 'origin') && !responses[403]) responses[403] = shared('Forbidden');
  return {
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(Object.keys(content).length ? { requestBody: { required: true, content } } : {}),
    ...(op.session ? { security: [{ session: [] }] } : {}),
    responses: Object.fromEntries(
      Object.entries(responses)
        .sort(([a], [b]) => Number(a) - Number(b))
        .map(([status, answer]) => [status, responseObject(answer)]),
    ),
  };
}

/** The OpenAPI 3.1 document of the API, generated from the contracts schemas (no copy of them). */
export function buildOpenApiDocument(serverUrl?: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) (paths[op.path] ??= {})[op.method] = operationObject(op);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Potomac PC Repair API',
      version: '1.0.0',
      description:
        'Every error is `{ message, errors?: [{ path, message }] }`. Mutations must carry `X-Requested-With: XMLHttpRequest` ' +
        'and, with an Origin header, come from this site (403 otherwise; see components.responses.Forbidden). Sessions are cookies. ' +
        'Rate-limited answers (429) and an unavailable payment gateway (503) carry Retry-After.',
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    paths,
    components: {
      schemas: {
        ...Object.fromEntries(Object.entries(REQUESTS).map(([name, schema]) => [name, jsonSchema(schema, 'input')])),
        ...Object.fromEntries(Object.entries(RESPONSES).map(([name, schema]) => [name, jsonSchema(schema, 'output')])),
      },
      responses: SHARED_RESPONSES,
      securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'ppr.sid' } },
    },
  };
}

/** Operations listed in the document, for tests that compare it with the routes. */
export function documentedOperations(): readonly { method: string; path: string }[] {
  return OPERATIONS.map(({ method, path }) => ({ method, path }));
}
