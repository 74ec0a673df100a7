import type { Response } from 'express';
import { TooManyRequestsException } from '../accounts/accounts.service';

/** Runs the step; a rate-limit refusal leaves with its Retry-After header (seconds to the window's end). */
export async function withRetryAfter<T>(response: Response, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof TooManyRequestsException) response.setHeader('Retry-After', String(error.retryAfterSeconds));
    throw error;
  }
}
