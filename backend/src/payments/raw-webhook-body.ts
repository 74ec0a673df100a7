import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { bodyParserErrors } from '../common/json-body';

/** The one path whose body stays raw. */
export const PAYMENT_WEBHOOK_PATH = '/api/payments/webhook';

/**
 * The webhook's body parser: Stripe signs the exact bytes it sends, so the body must reach the verification
 * as a Buffer, never re-serialized JSON. Mounted on PAYMENT_WEBHOOK_PATH before the JSON parser, which then
 * leaves the already-read request alone. Its failures (too large, unreadable) get the API's 4xx answers.
 */
export function rawWebhookBody(limitBytes: number): [RequestHandler, ErrorRequestHandler] {
  return [express.raw({ type: 'application/json', limit: limitBytes }), bodyParserErrors];
}
