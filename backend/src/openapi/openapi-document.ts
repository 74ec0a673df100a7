import {
  accountMessages,
  apiErrorSchema,
  createdTicketSchema,
  currentCustomerSchema,
  customerLoginSchema,
  customerTicketsSchema,
  forgotPasswordSchema,
  healthSchema,
  linkTicketsResponseSchema,
  messageResponseSchema,
  registerSchema,
  resetPasswordSchema,
  supportRequestSchema,
  ticketDetailSchema,
  ticketSummarySchema,
  unsubscribeSchema,
  unsubscribeTokenInfoSchema,
  verifyEmailSchema,
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
} as const satisfies Record<string, z.ZodType>;

type RequestName = keyof typeof REQUESTS;
type ResponseName = keyof typeof RESPONSES;

interface Answer {
  readonly description: string;
  readonly schema?: ResponseName;
  readonly html?: boolean;
}

interface Operation {
  readonly method: 'get' | 'post';
  readonly path: string;
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  readonly body?: RequestName;
  readonly formBody?: RequestName;
  readonly session?: boolean;
  readonly csrf?: boolean;
  readonly parameters?: readonly { name: string; in: 'path' | 'query'; description: string }[];
  readonly responses: Readonly<Record<number, Answer>>;
}

const error = (description: string): Answer => ({ description, schema: 'ApiError' });
const badRequest = error('Invalid body: `message` and one `errors` entry per field, with the messages of the spec');
const forbidden = error(accountMessages.csrfHeader);
const ticketId = { name: 'id', in: 'path', description: 'The ticket number' } as const;

const OPERATIONS: readonly Operation[] = [
  {
    method: 'post', path: '/api/support-request', tag: 'Tickets', summary: 'Submit a support request (creates a ticket)',
    body: 'SupportRequest', csrf: true,
    description: 'A logged-in customer owns the ticket; a guest may read its summary for the rest of the browser session.',
    responses: { 201: { description: 'The new ticket', schema: 'CreatedTicket' }, 400: badRequest, 403: forbidden, 413: error('Body too large') },
  },
  {
    method: 'get', path: '/api/ticket/{id}', tag: 'Tickets', summary: 'The summary of a ticket this session submitted or owns',
    parameters: [ticketId],
    responses: { 200: { description: 'Ticket summary', schema: 'TicketSummary' }, 404: error('Ticket not found') },
  },
  {
    method: 'get', path: '/api/tickets/{id}', tag: 'Customer', summary: 'A ticket of the logged-in customer, every field',
    parameters: [ticketId], session: true,
    responses: {
      200: { description: 'Ticket detail', schema: 'TicketDetail' },
      401: error(accountMessages.notLoggedIn),
      404: error('Ticket not found (also for a ticket of someone else)'),
    },
  },
  {
    method: 'post', path: '/api/customer/register', tag: 'Customer', summary: 'Create a customer account', body: 'Register', csrf: true,
    description: 'The answer is the same whether or not the email already has an account; its owner is told by email.',
    responses: {
      201: { description: accountMessages.registered, schema: 'Message' },
      400: badRequest, 403: forbidden, 409: error(accountMessages.usernameTaken), 429: error(accountMessages.tooManyRequests),
    },
  },
  {
    method: 'post', path: '/api/customer/login', tag: 'Customer', summary: 'Log in with email or username', body: 'CustomerLogin', csrf: true,
    description: 'Starts a new session (new session id). Limited per account and per address.',
    responses: {
      200: { description: 'The customer', schema: 'CurrentCustomer' },
      400: badRequest, 401: error(accountMessages.invalidCredentials), 403: forbidden, 429: error('Too many login attempts'),
    },
  },
  {
    method: 'post', path: '/api/customer/logout', tag: 'Customer', summary: 'End the session', csrf: true,
    responses: { 200: { description: accountMessages.loggedOut, schema: 'Message' }, 403: forbidden },
  },
  ...(['/api/customer/user', '/api/customer/me'] as const).map(
    (path): Operation => ({
      method: 'get', path, tag: 'Customer', summary: 'The logged-in customer', session: true,
      responses: { 200: { description: 'The customer', schema: 'CurrentCustomer' }, 401: error(accountMessages.notLoggedIn) },
    }),
  ),
  {
    method: 'get', path: '/api/customer/verify-email', tag: 'Customer', summary: 'The emailed verification link: a page that confirms with a POST',
    parameters: [{ name: 'token', in: 'query', description: 'The token from the email' }],
    responses: {
      200: { description: 'A page with a confirmation button', html: true },
      404: { description: accountMessages.verificationInvalid, html: true },
      410: { description: accountMessages.verificationExpired, html: true },
    },
  },
  {
    method: 'post', path: '/api/customer/verify-email', tag: 'Customer', summary: 'Confirm an email address',
    body: 'VerifyEmail', formBody: 'VerifyEmail',
    description: 'From the page form (urlencoded): 303 to /customer/login?verified=true. From a script (JSON): a message.',
    responses: {
      200: { description: accountMessages.emailVerified, schema: 'Message' },
      303: { description: 'Verified; redirect to /customer/login?verified=true' },
      404: error(accountMessages.verificationInvalid),
      410: error(accountMessages.verificationExpired),
    },
  },
  {
    method: 'post', path: '/api/customer/resend-verification', tag: 'Customer', summary: 'Email a new verification link', session: true, csrf: true,
    responses: {
      200: { description: accountMessages.verificationSent, schema: 'Message' },
      401: error(accountMessages.notLoggedIn), 403: forbidden, 429: error(accountMessages.tooManyRequests),
    },
  },
  {
    method: 'post', path: '/api/customer/forgot-password', tag: 'Customer', summary: 'Email a password reset link', body: 'ForgotPassword', csrf: true,
    description: 'Always the same answer, whether or not an account has the address.',
    responses: { 200: { description: accountMessages.forgotPasswordSent, schema: 'Message' }, 400: badRequest, 403: forbidden, 429: error(accountMessages.tooManyRequests) },
  },
  {
    method: 'post', path: '/api/customer/reset-password', tag: 'Customer', summary: 'Set a new password with the emailed token', body: 'ResetPassword', csrf: true,
    description: 'Ends every session of the account.',
    responses: {
      200: { description: accountMessages.passwordChanged, schema: 'Message' },
      400: error(accountMessages.resetInvalid), 403: forbidden, 410: error(accountMessages.resetExpired),
    },
  },
  {
    method: 'get', path: '/api/customer/tickets', tag: 'Customer', summary: "The logged-in customer's tickets, newest first", session: true,
    responses: { 200: { description: 'Tickets', schema: 'CustomerTickets' }, 401: error(accountMessages.notLoggedIn) },
  },
  {
    method: 'post', path: '/api/customer/link-tickets', tag: 'Customer', summary: 'Attach earlier guest tickets with the same (verified) email', session: true, csrf: true,
    responses: {
      200: { description: 'The tickets attached now', schema: 'LinkTickets' },
      401: error(accountMessages.notLoggedIn), 403: error(accountMessages.verifyBeforeLinking),
    },
  },
  {
    method: 'get', path: '/api/unsubscribe/{token}', tag: 'Unsubscribe', summary: 'The address an unsubscribe link belongs to (changes nothing)',
    parameters: [{ name: 'token', in: 'path', description: 'The token from the email' }],
    responses: { 200: { description: 'The address', schema: 'UnsubscribeTokenInfo' }, 404: error(accountMessages.unsubscribeTokenUnknown) },
  },
  {
    method: 'post', path: '/api/unsubscribe', tag: 'Unsubscribe', summary: 'Unsubscribe by token or by address (idempotent)', body: 'Unsubscribe', csrf: true,
    responses: { 200: { description: accountMessages.unsubscribed, schema: 'Message' }, 400: badRequest, 403: forbidden, 404: error(accountMessages.unsubscribeTokenUnknown) },
  },
  {
    method: 'post', path: '/api/unsubscribe/one-click/{token}', tag: 'Unsubscribe', summary: 'RFC 8058 one-click unsubscribe (List-Unsubscribe-Post target)',
    description: 'Exempt from the X-Requested-With rule: mail providers call it. Body `List-Unsubscribe=One-Click` (ignored).',
    parameters: [{ name: 'token', in: 'path', description: 'The token from the List-Unsubscribe header' }],
    responses: { 200: { description: accountMessages.unsubscribed, schema: 'Message' }, 404: error(accountMessages.unsubscribeTokenUnknown) },
  },
  {
    method: 'get', path: '/api/health', tag: 'Operations', summary: 'Event store and database health',
    responses: { 200: { description: 'Healthy', schema: 'Health' }, 503: { description: 'Degraded', schema: 'Health' } },
  },
];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function operationObject(op: Operation): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  if (op.body) content['application/json'] = { schema: ref(op.body) };
  if (op.formBody) content['application/x-www-form-urlencoded'] = { schema: ref(op.formBody) };
  const headers = op.csrf
    ? [{ name: 'X-Requested-With', in: 'header', required: true, schema: { const: 'XMLHttpRequest' }, description: 'CSRF defence: required on every mutation' }]
    : [];
  const parameters = [
    ...(op.parameters ?? []).map((p) => ({ ...p, required: p.in === 'path', schema: { type: 'string' } })),
    ...headers,
  ];
  return {
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(Object.keys(content).length ? { requestBody: { required: true, content } } : {}),
    ...(op.session ? { security: [{ session: [] }] } : {}),
    responses: Object.fromEntries(
      Object.entries(op.responses).map(([status, answer]) => [
        status,
        {
          description: answer.description,
          ...(answer.schema
            ? { content: { 'application/json': { schema: ref(answer.schema) } } }
            : answer.html
              ? { content: { 'text/html': { schema: { type: 'string' } } } }
              : {}),
        },
      ]),
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
        'and, with an Origin header, come from this site (403 otherwise). Sessions are cookies.',
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    paths,
    components: {
      schemas: {
        ...Object.fromEntries(Object.entries(REQUESTS).map(([name, schema]) => [name, jsonSchema(schema, 'input')])),
        ...Object.fromEntries(Object.entries(RESPONSES).map(([name, schema]) => [name, jsonSchema(schema, 'output')])),
      },
      securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'ppr.sid' } },
    },
  };
}

/** Operations listed in the document, for tests that compare it with the routes. */
export function documentedOperations(): readonly { method: string; path: string }[] {
  return OPERATIONS.map(({ method, path }) => ({ method, path }));
}
