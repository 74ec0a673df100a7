import {
  checkoutSessionResponseSchema,
  createCheckoutSessionRequestSchema,
  createdTicketSchema,
  createPaymentIntentRequestSchema,
  paymentMessages,
  paymentSetupResponseSchema,
  publicConfigSchema,
  simulatedConfirmRequestSchema,
  simulatedConfirmResponseSchema,
  supportRequestExternalPaymentSchema,
  supportRequestWithPaymentSchema,
  updateTicketPaymentSchema,
  webhookAckSchema,
} from '@ppr/contracts';
import {
  badRequest,
  badRequestOr,
  defineOpenApiFragment,
  error,
  forbiddenOr,
  type Operation,
  paymentUnavailable,
  quoted,
  TICKET_NOT_FOUND,
  tooManyRequests,
} from '../openapi/openapi-fragment';

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

/** Payments (SPEC section 7). Tickets are reachable by the browser that submitted them (its grants cookie) or by their owner. */
export const paymentsOpenApi = defineOpenApiFragment({
  name: 'payments',
  requests: {
    CreatePaymentIntent: createPaymentIntentRequestSchema,
    SupportRequestWithPayment: supportRequestWithPaymentSchema,
    SupportRequestExternalPayment: supportRequestExternalPaymentSchema,
    UpdateTicketPayment: updateTicketPaymentSchema,
    CreateCheckoutSession: createCheckoutSessionRequestSchema,
    SimulatedConfirm: simulatedConfirmRequestSchema,
  },
  responses: {
    CreatedTicket: createdTicketSchema,
    PaymentSetup: paymentSetupResponseSchema,
    CheckoutSession: checkoutSessionResponseSchema,
    SimulatedConfirmResult: simulatedConfirmResponseSchema,
    PublicConfig: publicConfigSchema,
    WebhookAck: webhookAckSchema,
  },
  operations: [
    {
      method: 'post',
      path: '/api/create-payment-intent',
      operationId: 'createPaymentIntent',
      auth: 'ticket',
      tag: 'Payments',
      summary: "A payment intent for an existing ticket's diagnostic fee",
      body: 'CreatePaymentIntent',
      description: "Reuses the ticket's open intent while it can still be paid; otherwise creates one (idempotent towards the gateway).",
      responses: {
        200: { description: 'What the card form needs', schema: 'PaymentSetup' },
        400: badRequest,
        404: error(`${TICKET_NOT_FOUND} (or neither submitted by this browser nor this customer's)`),
        409: error(FEE_SETTLED),
        503: paymentUnavailable,
      },
    },
    {
      method: 'post',
      path: '/api/create-diagnostic-fee-payment',
      operationId: 'createDiagnosticFeePayment',
      auth: 'optional-session',
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
        [
          '/api/support-request-with-payment',
          'supportRequestWithPayment',
          'SupportRequestWithPayment',
          'Submit a support request with its paid fee',
        ],
        [
          '/api/support-request-external-payment',
          'supportRequestExternalPayment',
          'SupportRequestExternalPayment',
          'Submit a support request after a redirect-based payment, or with a fee waiver (isZeroCost)',
        ],
      ] as const
    ).map(([path, operationId, body, summary]): Operation<typeof body, 'CreatedTicket'> => ({
      method: 'post',
      path,
      operationId,
      auth: 'optional-session',
      tag: 'Payments',
      summary,
      body,
      description:
        'The ticket is created only when what the client claims holds: a succeeded pre-ticket intent for the fee, checked with the ' +
        'gateway and claimed by no other ticket, or a zero-cost request the waiver rule covers. A retry with the same intent from the ' +
        'same browser (its grants cookie) answers the ticket it already created.',
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
      operationId: 'updateTicketPayment',
      auth: 'ticket',
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
      operationId: 'createCheckoutSession',
      auth: 'ticket',
      tag: 'Payments',
      summary: 'Hosted checkout (Stripe Checkout) for a ticket',
      body: 'CreateCheckoutSession',
      description: "Reuses the ticket's open session. Success returns through GET /api/payments/checkout/complete.",
      responses: {
        200: { description: 'Where to send the browser', schema: 'CheckoutSession' },
        400: badRequest,
        404: error(`${TICKET_NOT_FOUND} (or neither submitted by this browser nor this customer's)`),
        409: error(FEE_SETTLED),
        503: paymentUnavailable,
      },
    },
    {
      method: 'get',
      path: '/api/payments/checkout/complete',
      operationId: 'checkoutComplete',
      auth: 'optional-session',
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
        // The page a browser is sent to never answers 2xx: anything but the 303 is a failure.
        default: error('Any other failure (the shared error body); there is no 2xx: success is the 303'),
      },
    },
    {
      method: 'post',
      path: '/api/payments/webhook',
      operationId: 'receivePaymentWebhook',
      auth: 'public',
      tag: 'Payments',
      summary: "The payment gateway's events (Stripe webhooks)",
      csrf: 'exempt',
      description:
        'Exempt from the CSRF rule: the signature authenticates it (tolerance 300 s). The body is read raw (the signature covers its ' +
        'exact bytes). Every verified event is acknowledged with a 200, including duplicates and refused mismatches; a failure of ' +
        'our own is a 500 (503 when our database is away for a moment), and Stripe delivers again.',
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
        schema: {
          type: 'object',
          properties: {
            id: { type: 'string', description: 'The event id (`evt_...`)' },
            type: { type: 'string', description: 'The event type (`payment_intent.succeeded`, ...)' },
            data: { type: 'object', properties: { object: { type: 'object' } }, required: ['object'] },
          },
          required: ['id', 'type', 'data'],
        },
      },
      responses: {
        200: { description: 'Acknowledged', schema: 'WebhookAck' },
        400: error(
          quoted(paymentMessages.invalidSignature, 'The webhook body is not a Stripe event', 'The request body is not valid JSON'),
        ),
        413: error('Body too large'),
      },
    },
    {
      method: 'post',
      path: '/api/payments/simulated/confirm',
      operationId: 'confirmSimulatedPayment',
      auth: 'public',
      tag: 'Payments (simulated gateway)',
      summary: 'Confirm a simulated payment with a test card',
      body: 'SimulatedConfirm',
      description:
        `${SIMULATED_ONLY} A success is recorded on the ticket before this answers; a decline answers 200 with status "declined" ` +
        'and the intent can be confirmed again with another card. Confirming an intent that succeeded before charges nothing and ' +
        'answers its success again (recording it if that had failed): a retry is always safe.',
      responses: {
        200: { description: 'Succeeded (now or before) or declined', schema: 'SimulatedConfirmResult' },
        400: badRequest,
        404: error(quoted('Not found', paymentMessages.paymentNotFound)),
        409: error(quoted(paymentMessages.paymentNotCompleted)),
        503: paymentUnavailable,
      },
    },
    {
      method: 'get',
      path: '/api/payments/simulated/checkout/{id}',
      operationId: 'getSimulatedCheckoutPage',
      auth: 'public',
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
      operationId: 'getSimulatedCheckoutScript',
      auth: 'public',
      tag: 'Payments (simulated gateway)',
      summary: "The simulated checkout page's script",
      description: SIMULATED_ONLY,
      responses: { 200: { description: 'The script', text: 'application/javascript' }, 404: error('Not found') },
    },
    {
      method: 'get',
      path: '/api/config',
      operationId: 'getPublicConfig',
      auth: 'public',
      tag: 'Payments',
      summary: 'Which payment gateway is active, its publishable key, the fee',
      responses: { 200: { description: 'What the SPA needs before it shows a payment form', schema: 'PublicConfig' } },
    },
  ],
});
