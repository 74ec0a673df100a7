import { accountMessages, apiErrorSchema, messageResponseSchema, paymentMessages } from '@ppr/contracts';
import type { z } from 'zod';

/**
 * What a module contributes to the OpenAPI document (backend/src/<module>/<module>.openapi.ts), and the helpers
 * its operations share. openapi-document.ts merges the fragments listed in openapi-fragments.ts.
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Schemas every fragment may name without declaring them: the error body and the plain message. */
export const COMMON_RESPONSE_SCHEMAS = {
  ApiError: apiErrorSchema,
  Message: messageResponseSchema,
} as const satisfies Record<string, z.ZodType>;
export type CommonResponseName = keyof typeof COMMON_RESPONSE_SCHEMAS;

export const retryAfter = (description: string) => ({ 'Retry-After': { description, schema: { type: 'integer', minimum: 1 } } });

/** Answers shared by many operations, under components.responses; an operation may add to the description. */
export const SHARED_RESPONSES = {
  BadRequest: {
    description:
      'Invalid body: `message` (the messages joined) and one `errors` entry (`path`, `message`) per field, with the messages of the ' +
      'contracts schema. Also: a body that is not a JSON object, not valid JSON, not UTF-8, holds NUL or unpaired surrogate characters, or ' +
      '(endpoints that take none) any body at all ("This request takes no body"). A body in another type than application/json ' +
      '(text/plain, a form, multipart, none named) is a 415 with the words of a body that is not a JSON object.',
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

export type SharedResponse = keyof typeof SHARED_RESPONSES;

/** An answer of an operation; `schema` names a response schema of the fragment (or a common one). */
export interface Answer<S extends string = string> {
  readonly description: string;
  readonly schema?: S;
  /** Also (or only) an HTML page. */
  readonly html?: boolean;
  /** A body of another text type (a script, a stylesheet...). */
  readonly text?: string;
  readonly headers?: Readonly<Record<string, { description: string; schema: Record<string, unknown> }>>;
}

/** A shared answer, optionally with more to say for this operation (OpenAPI 3.1 lets a $ref override the description). */
export interface SharedAnswer {
  readonly shared: SharedResponse;
  readonly description?: string;
}

export interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly description: string;
  /** Defaults to true for a path parameter, false otherwise. */
  readonly required?: boolean;
  /** Defaults to `{ type: 'string' }`. */
  readonly schema?: Record<string, unknown>;
}

/**
 * Who may call an operation, as its guard (or handler) decides; each is the operation's `security` in the
 * document (the schemes are components.securitySchemes, openapi-document.ts). A session's role (`customer`,
 * `admin`) says whose login it must hold: one session cookie can hold both.
 */
export const AUTH = {
  /** Anyone; no credential is read: `security: []`. */
  public: [],
  /** Anyone; the session, when the browser has one (guest or logged in), is read (a login, intents it made...). */
  'optional-session': [{}, { session: [] }],
  /** A logged-in customer's session (CustomerGuard or requireCustomer: 401 otherwise). */
  customer: [{ session: ['customer'] }],
  /** A logged-in admin's session (AdminGuard: 401 otherwise). */
  admin: [{ session: ['admin'] }],
  /** Anyone while the one-time setup is open, then an admin's session only (SetupOrAdminGuard: 403 otherwise). */
  'setup-or-admin': [{}, { session: ['admin'] }],
  /** The browser that submitted the ticket (its grants cookie) or the customer who owns it (404 to anyone else). */
  ticket: [{ ticketGrants: [] }, { session: ['customer'] }],
  /** An integration key, `Authorization: Bearer <key>` (IntegrationKeyGuard: 401 otherwise). */
  'integration-key': [{ integrationKey: [] }],
} as const satisfies Record<string, readonly Readonly<Record<string, readonly string[]>>[]>;
export type Auth = keyof typeof AUTH;

/** The document's tags, in this order, with their descriptions; an operation names one of them. */
export const TAGS = {
  Tickets: 'Support requests (tickets) from the website, by guests and customers',
  Payments: "The diagnostic fee: payment intents, hosted checkout, the payment gateway's webhook",
  'Payments (simulated gateway)': 'The stand-in gateway of development and tests (PAYMENT_GATEWAY=simulated)',
  Customer: 'Customer accounts: registration, login, email verification, password reset, their tickets',
  Admin: 'The back office: admin accounts, tickets, engineers, email, marketing, reports',
  Integrations: 'Integration keys, the event feeds (Server-Sent Events) and outgoing webhooks (Standard Webhooks)',
  Contact: "The website's contact form",
  Unsubscribe: 'Marketing email subscriptions: unsubscribe links and their admin',
  'Page views': 'Page-view counting for the admin report',
  Operations: 'Health and readiness probes',
  Documentation: 'This document and its browsable page',
} as const;
export type Tag = keyof typeof TAGS;

/** One operation. `Req`/`Res` are the names of the request/response schemas it may reference. */
export interface Operation<Req extends string = string, Res extends string = string> {
  readonly method: HttpMethod;
  /** The OpenAPI path, with the global prefix and `{name}` parameters: `/api/admin/tickets/{id}`. */
  readonly path: string;
  /**
   * Unique, camelCase and stable (generated clients are named by it): the name of the controller method that
   * serves the route, with the resource added where the name alone says too little (`list` of
   * AdminTicketsController: `listAdminTickets`). openapi.e2e.spec.ts checks it contains the method's name.
   */
  readonly operationId: string;
  readonly tag: Tag;
  readonly summary: string;
  readonly description?: string;
  readonly body?: Req;
  readonly formBody?: Req;
  /** Also (or only) a multipart/form-data body: its fields' JSON Schema (files as `format: binary`). */
  readonly multipartBody?: { readonly description: string; readonly schema: Record<string, unknown> };
  /** A body documented here rather than by a contracts schema (the webhook's raw event). */
  readonly rawBody?: { readonly description: string; readonly schema: Record<string, unknown> };
  /** Who may call it (see AUTH): stated by every operation, public ones included. */
  readonly auth: Auth;
  /**
   * The CSRF rule of a mutation: 'full' (the default for every method but GET: header and Origin), 'origin' (the
   * header is waived, a present Origin must still be this site's), 'exempt' (not called by the site's scripts).
   */
  readonly csrf?: 'full' | 'origin' | 'exempt';
  readonly parameters?: readonly Parameter[];
  /** By status; `default` (any other status) only where no 2xx exists. */
  readonly responses: Readonly<Record<number, Answer<Res | CommonResponseName> | SharedAnswer>> & {
    readonly default?: Answer<Res | CommonResponseName> | SharedAnswer;
  };
}

/**
 * A request this application sends to a URL someone registered (the document's top-level `webhooks`): always
 * a POST of JSON. `Res` are the names of the response schemas (as this side sends them) its body may be.
 */
export interface Webhook<Res extends string = string> {
  /** Its key under `webhooks`. */
  readonly name: string;
  readonly operationId: string;
  readonly tag: Tag;
  readonly summary: string;
  readonly description?: string;
  /** The JSON body, one of the fragment's response schemas. */
  readonly body: Res;
  /** The headers sent with it (required unless they say otherwise). */
  readonly headers: readonly Omit<Parameter, 'in'>[];
  /** What the receiver's answers mean. */
  readonly responses: Readonly<Record<number, Answer<never>>>;
}

/** A module's part of the document: its named schemas (contracts schemas, never copies) and its operations. */
export interface OpenApiFragment {
  /** Who contributes it, for error messages (`'payments'`). */
  readonly name: string;
  /** Request bodies, as sent (JSON Schema of the zod input), under components.schemas. */
  readonly requests: Readonly<Record<string, z.ZodType>>;
  /** Answers, as sent back (JSON Schema of the zod output), under components.schemas; webhook bodies too. */
  readonly responses: Readonly<Record<string, z.ZodType>>;
  readonly operations: readonly Operation[];
  readonly webhooks: readonly Webhook[];
}

/**
 * Declares a fragment; the operations may only name the fragment's own schemas (and ApiError, Message), checked
 * by the compiler. Two fragments may declare the same name only for the same zod schema (checked at start-up).
 */
export function defineOpenApiFragment<
  const Req extends Record<string, z.ZodType> = Record<never, z.ZodType>,
  const Res extends Record<string, z.ZodType> = Record<never, z.ZodType>,
>(fragment: {
  readonly name: string;
  readonly requests?: Req;
  readonly responses?: Res;
  // NoInfer: the schemas are what the fragment declares, never what its operations happen to name.
  readonly operations: readonly Operation<NoInfer<keyof Req & string>, NoInfer<keyof Res & string>>[];
  readonly webhooks?: readonly Webhook<NoInfer<keyof Res & string>>[];
}): OpenApiFragment {
  return {
    name: fragment.name,
    requests: fragment.requests ?? {},
    responses: fragment.responses ?? {},
    operations: fragment.operations,
    webhooks: fragment.webhooks ?? [],
  };
}

export const error = (description: string): Answer<CommonResponseName> => ({ description, schema: 'ApiError' });
export const shared = (name: SharedResponse, description?: string): SharedAnswer =>
  description ? { shared: name, description } : { shared: name };
export const quoted = (...messages: readonly string[]) => messages.map((m) => `"${m}"`).join('; ');
export const badRequest = shared('BadRequest');
export const badRequestOr = (...messages: readonly string[]) =>
  shared('BadRequest', `Invalid body (see BadRequest), or: ${quoted(...messages)}`);
export const forbiddenOr = (...messages: readonly string[]) =>
  shared('Forbidden', `CSRF refusal (see Forbidden), or: ${quoted(...messages)}`);
export const tooManyRequests = (message: string) => shared('TooManyRequests', `Rate limited (Retry-After): ${message}`);
export const paymentUnavailable = shared('PaymentUnavailable');
/**
 * Every route refuses a query string holding NUL characters (backend/src/auth/body-guard.ts), as it refuses such
 * a body: the 400 of an operation that documents no other (openapi-document.ts adds it).
 */
export const QUERY_REFUSED = shared('BadRequest', 'A query string holding NUL characters (refused on every route, as such a body is)');
export const ticketId = { name: 'id', in: 'path', description: 'The ticket number' } as const;

export const PASSWORD_RULES = [accountMessages.passwordTooCommon, accountMessages.passwordIsIdentity, accountMessages.passwordOneCharacter];
/** PublicFormLimits' 429 (backend/src/auth/public-form-limit.ts): per client address and for everybody, per hour. */
export const FORM_LIMIT =
  '"Too many requests. Please try again in {n} minutes." (PUBLIC_FORM_LIMIT_PER_HOUR per client address, IPv6 by /64, and ' +
  'PUBLIC_FORM_GLOBAL_LIMIT_PER_HOUR for all addresses together)';
export const LOGIN_LIMIT = `"${accountMessages.tooManyLoginAttempts}"`;
export { TICKET_NOT_FOUND } from '@ppr/contracts';
