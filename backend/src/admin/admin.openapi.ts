import {
  ADMIN_SEARCH_MAX_LENGTH,
  ADMIN_TICKET_SORTS,
  ADMIN_TICKETS_DEFAULT_LIMIT,
  ADMIN_TICKETS_MAX_LIMIT,
  ADMIN_TICKETS_MAX_PAGE,
  adminAssignSchema,
  adminLoginSchema,
  adminMessages,
  adminNotesSchema,
  adminPaymentSchema,
  adminRefundResultSchema,
  adminRefundSchema,
  adminSetupSchema,
  adminSetupStatusSchema,
  adminStatusSchema,
  adminTicketListSchema,
  adminTicketSchema,
  adminUserSchema,
  adminWaiveFeeSchema,
  changePasswordSchema,
  createEngineerSchema,
  engineerSchema,
  paymentMessages,
  projectionsStatusSchema,
  RESPONSE_FILTERS,
  SORT_ORDERS,
  TICKET_STATUSES,
  ticketHistorySchema,
  updateEngineerSchema,
  WAITING_FILTERS,
} from '@ppr/contracts';
import { z } from 'zod';
import {
  badRequest,
  badRequestOr,
  defineOpenApiFragment,
  error,
  forbiddenOr,
  LOGIN_LIMIT,
  type Operation,
  PASSWORD_RULES,
  quoted,
  shared,
  ticketId,
  TICKET_NOT_FOUND,
  tooManyRequests,
} from '../openapi/openapi-fragment';
import { TICKET_CONFLICT_MESSAGE } from '../api-exception.filter';

const TAG = 'Admin';
const NOT_LOGGED_IN = error(`No admin session (a customer's session is not one): "${adminMessages.notLoggedIn}"`);
const TICKET_404 = error(`"${TICKET_NOT_FOUND}" (also for an id that is not a ticket number)`);
const REFUSED_409 = error(
  "The ticket's rules refuse the command (for example $0 on a paid ticket, or a fee already settled), with the rule's message; " +
    `or someone changed the ticket at the same moment: "${TICKET_CONFLICT_MESSAGE}"`,
);
const COMMAND =
  'Appends the events with the admin as actor and answers once the read side shows them: the ticket as the list now shows it.';
const engineerId = { name: 'id', in: 'path', description: 'The engineer id' } as const;
const queryEnum = (values: readonly string[]) => ({ type: 'string', enum: values });

const schemas = {
  requests: {
    AdminSetup: adminSetupSchema,
    AdminLogin: adminLoginSchema,
    AdminChangePassword: changePasswordSchema,
    AdminStatusUpdate: adminStatusSchema,
    AdminWaiveFee: adminWaiveFeeSchema,
    AdminPaymentUpdate: adminPaymentSchema,
    AdminNotesUpdate: adminNotesSchema,
    AdminRefund: adminRefundSchema,
    AdminAssign: adminAssignSchema,
    CreateEngineer: createEngineerSchema,
    UpdateEngineer: updateEngineerSchema,
  },
  responses: {
    AdminUser: adminUserSchema,
    AdminSetupStatus: adminSetupStatusSchema,
    AdminTicket: adminTicketSchema,
    AdminTicketList: adminTicketListSchema,
    AdminRefundResult: adminRefundResultSchema,
    TicketHistory: ticketHistorySchema,
    Engineer: engineerSchema,
    Engineers: z.array(engineerSchema),
    ProjectionsStatus: projectionsStatusSchema,
  },
} as const;

type AdminOperation = Operation<keyof typeof schemas.requests, keyof typeof schemas.responses>;

/** The ticket commands: same path parameter, guard, 404 and 409; each its body and summary. */
function command(
  method: 'post' | 'patch',
  action: string,
  operationId: string,
  summary: string,
  body: keyof typeof schemas.requests,
  extra: Partial<AdminOperation> = {},
): AdminOperation {
  return {
    method,
    path: `/api/admin/tickets/{id}/${action}`,
    operationId,
    auth: 'admin',
    tag: TAG,
    summary,
    body,
    parameters: [ticketId],
    description: COMMAND,
    ...extra,
    responses: {
      200: { description: 'The ticket, as the list now shows it', schema: 'AdminTicket' },
      400: badRequest,
      401: NOT_LOGGED_IN,
      404: TICKET_404,
      409: REFUSED_409,
      ...extra.responses,
    },
  };
}

/** The admin API (AdminAuthController, AdminTicketsController, EngineersController, AdminProjectionsController). */
export const adminOpenApi = defineOpenApiFragment({
  name: 'admin',
  ...schemas,
  operations: [
    {
      method: 'get',
      path: '/api/admin/setup-status',
      operationId: 'getAdminSetupStatus',
      auth: 'public',
      tag: TAG,
      summary: 'Whether the one-time setup may still create the first admin',
      responses: { 200: { description: 'setupOpen: true until an admin exists', schema: 'AdminSetupStatus' } },
    },
    {
      method: 'post',
      path: '/api/admin/create',
      operationId: 'createAdmin',
      auth: 'setup-or-admin',
      tag: TAG,
      summary: 'Create the first admin (setup), or, logged in as an admin, a further admin',
      description:
        'Succeeds exactly once without a session (concurrent first setups create one admin); afterwards only a logged-in admin may ' +
        'add admins. Everybody else gets the 403 before the body is read.',
      body: 'AdminSetup',
      responses: {
        201: { description: 'The new admin', schema: 'AdminUser' },
        400: badRequestOr(...PASSWORD_RULES),
        403: forbiddenOr(adminMessages.setupClosed),
        409: error(adminMessages.adminTaken),
      },
    },
    {
      method: 'post',
      path: '/api/admin/login',
      operationId: 'loginAdmin',
      auth: 'public',
      tag: TAG,
      summary: 'Log in as an admin',
      body: 'AdminLogin',
      description:
        'Starts a new session (new session id; nothing of a customer or guest session carries over). Limited per account and per ' +
        'address, on counters of their own.',
      responses: {
        200: { description: 'The admin', schema: 'AdminUser' },
        400: badRequest,
        401: error(adminMessages.invalidCredentials),
        429: tooManyRequests(LOGIN_LIMIT),
      },
    },
    {
      method: 'get',
      path: '/api/admin/me',
      operationId: 'getAdminMe',
      auth: 'admin',
      tag: TAG,
      summary: 'The logged-in admin',
      responses: { 200: { description: 'The admin', schema: 'AdminUser' }, 401: NOT_LOGGED_IN },
    },
    {
      method: 'post',
      path: '/api/admin/logout',
      operationId: 'logoutAdmin',
      auth: 'optional-session',
      tag: TAG,
      summary: "End the admin's session (a customer's session is left alone)",
      responses: { 200: { description: adminMessages.loggedOut, schema: 'Message' }, 400: badRequest },
    },
    {
      method: 'post',
      path: '/api/admin/change-password',
      operationId: 'changePassword',
      auth: 'admin',
      tag: TAG,
      summary: "Change the admin's password; ends the admin's other sessions",
      body: 'AdminChangePassword',
      description: "The current password is checked like a login attempt (counted on the admin's login counter).",
      responses: {
        200: { description: adminMessages.passwordChanged, schema: 'Message' },
        400: badRequestOr(adminMessages.currentPasswordWrong, adminMessages.samePassword, ...PASSWORD_RULES),
        401: NOT_LOGGED_IN,
        429: tooManyRequests(LOGIN_LIMIT),
      },
    },
    {
      method: 'get',
      path: '/api/admin/tickets',
      operationId: 'listAdminTickets',
      auth: 'admin',
      tag: TAG,
      summary: 'The ticket list: filters, sorts, pages',
      description:
        'Every parameter is optional; an unknown parameter or a bad value is a 400 naming it. `status=all` (or empty) means any ' +
        'status, likewise `response`.',
      parameters: [
        {
          name: 'page',
          in: 'query',
          description: 'From 1',
          schema: { type: 'integer', minimum: 1, maximum: ADMIN_TICKETS_MAX_PAGE, default: 1 },
        },
        {
          name: 'limit',
          in: 'query',
          description: 'Tickets per page',
          schema: { type: 'integer', minimum: 1, maximum: ADMIN_TICKETS_MAX_LIMIT, default: ADMIN_TICKETS_DEFAULT_LIMIT },
        },
        {
          name: 'search',
          in: 'query',
          description: 'Text found anywhere in the business name, contact name, email or ticket reference (case-insensitive)',
          schema: { type: 'string', maxLength: ADMIN_SEARCH_MAX_LENGTH },
        },
        { name: 'status', in: 'query', description: 'One status, or all', schema: queryEnum(['all', ...TICKET_STATUSES]) },
        {
          name: 'response',
          in: 'query',
          description: 'Where the ticket stands on the response clock (contact within one hour of payment)',
          schema: queryEnum(['all', ...RESPONSE_FILTERS]),
        },
        {
          name: 'waiting',
          in: 'query',
          description: "`us`: only tickets whose conversation's last public message is the customer's (nobody answered it yet)",
          schema: queryEnum(['all', ...WAITING_FILTERS]),
        },
        {
          name: 'sortBy',
          in: 'query',
          description: 'Sort field (responseDue: time left)',
          schema: { ...queryEnum(ADMIN_TICKET_SORTS), default: 'createdAt' },
        },
        { name: 'sortOrder', in: 'query', description: 'Sort order', schema: { ...queryEnum(SORT_ORDERS), default: 'desc' } },
      ],
      responses: {
        200: { description: 'One page and the number of matching tickets', schema: 'AdminTicketList' },
        400: error('A bad or unknown query parameter, with one `errors` entry per parameter'),
        401: NOT_LOGGED_IN,
      },
    },
    {
      method: 'get',
      path: '/api/admin/tickets/{id}',
      operationId: 'getAdminTicket',
      auth: 'admin',
      tag: TAG,
      summary: 'One ticket, as the list shows it',
      parameters: [ticketId],
      responses: { 200: { description: 'The ticket', schema: 'AdminTicket' }, 401: NOT_LOGGED_IN, 404: TICKET_404 },
    },
    {
      method: 'get',
      path: '/api/admin/tickets/{id}/history',
      operationId: 'getAdminTicketHistory',
      auth: 'admin',
      tag: TAG,
      summary: "The ticket's audit history: every event, its actor, the values before and after (emails included)",
      parameters: [ticketId],
      responses: { 200: { description: 'The timeline, oldest first', schema: 'TicketHistory' }, 401: NOT_LOGGED_IN, 404: TICKET_404 },
    },
    command('patch', 'status', 'setAdminTicketStatus', "Change the ticket's status", 'AdminStatusUpdate'),
    command('post', 'mark-zero-cost', 'markZeroCost', 'Waive the fee ($0 cost)', 'AdminWaiveFee', {
      description: `${COMMAND} The body is optional; blank notes take the default.`,
    }),
    command('post', 'mark-free-diagnostic', 'markFreeDiagnostic', 'Waive the fee (free diagnostic)', 'AdminWaiveFee', {
      description: `${COMMAND} The body is optional; blank notes take the default.`,
    }),
    command('patch', 'payment', 'setAdminTicketPayment', "Override the ticket's payment record", 'AdminPaymentUpdate'),
    command(
      'patch',
      'notes',
      'setAdminTicketNotes',
      "Set the admin notes (shown to the customer as 'Technician Notes')",
      'AdminNotesUpdate',
    ),
    command('post', 'assign', 'assignAdminTicket', 'Assign an active engineer (or null to unassign)', 'AdminAssign', {
      responses: {
        400: badRequestOr(adminMessages.engineerNotFound),
        409: error(`${quoted(adminMessages.engineerInactive)}, or the ticket's rules refuse it (see the other commands)`),
      },
    }),
    command('post', 'refund', 'refundAdminTicket', 'Refund the fee in full through the payment gateway', 'AdminRefund', {
      description:
        'The body is optional. Recorded on the ticket (with the admin as actor) when the gateway confirms it; otherwise the ' +
        "gateway's webhook records it later and the answer says 'pending'. A ticket already refunded answers 'refunded' again.",
      responses: {
        200: { description: 'Refunded or pending, and the ticket', schema: 'AdminRefundResult' },
        409: error('"No payment made through the gateway is recorded for this ticket; there is nothing to refund"'),
        503: shared('PaymentUnavailable', `The gateway is down or refused the refund: "${paymentMessages.unavailable}" Nothing changed.`),
      },
    }),
    {
      method: 'get',
      path: '/api/admin/engineers',
      operationId: 'listEngineers',
      auth: 'admin',
      tag: TAG,
      summary: 'The engineers',
      parameters: [
        { name: 'active', in: 'query', description: 'Only active (true) or inactive (false) ones', schema: queryEnum(['true', 'false']) },
      ],
      responses: {
        200: { description: 'The engineers', schema: 'Engineers' },
        400: error('"active must be true or false", or an unknown parameter'),
        401: NOT_LOGGED_IN,
      },
    },
    {
      method: 'post',
      path: '/api/admin/engineers',
      operationId: 'createEngineer',
      auth: 'admin',
      tag: TAG,
      summary: 'Add an engineer',
      body: 'CreateEngineer',
      responses: {
        201: { description: 'The engineer', schema: 'Engineer' },
        400: badRequest,
        401: NOT_LOGGED_IN,
        409: error(adminMessages.engineerEmailTaken),
      },
    },
    {
      method: 'patch',
      path: '/api/admin/engineers/{id}',
      operationId: 'updateEngineer',
      auth: 'admin',
      tag: TAG,
      summary: 'Deactivate (or reactivate) an engineer',
      body: 'UpdateEngineer',
      parameters: [engineerId],
      responses: {
        200: { description: 'The engineer', schema: 'Engineer' },
        400: badRequest,
        401: NOT_LOGGED_IN,
        404: error(adminMessages.engineerNotFound),
      },
    },
    {
      method: 'get',
      path: '/api/admin/projections',
      operationId: 'getProjectionsStatus',
      auth: 'admin',
      tag: TAG,
      summary: "Each read-side projection's checkpoint, lag and error, and the event store's head",
      responses: { 200: { description: 'Projection status', schema: 'ProjectionsStatus' }, 401: NOT_LOGGED_IN },
    },
  ],
});
