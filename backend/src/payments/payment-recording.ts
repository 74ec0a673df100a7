import { isTransientError, retryTransient } from '../common/transient-errors';

/**
 * The answer (503) to a client whose payment the gateway took while our database could not record it (a
 * restart, a lost connection): the payment is safe, and asking again records it.
 */
export const RECORDING_UNAVAILABLE_MESSAGE =
  'Your payment went through, but we could not record it with your request just now. Please try again in a moment: you will not be charged again.';

/** How long a payment's recording is retried on transient database errors before the client is told to retry. */
export interface RecordingPatience {
  readonly patienceMs: number;
  readonly pauseMs: number;
}

export const DEFAULT_RECORDING_PATIENCE: RecordingPatience = { patienceMs: 2000, pauseMs: 100 };

/**
 * The database could not record a payment the gateway reports as succeeded, and did not come back within the
 * patience: a 503 (PaymentErrorsFilter), never a 500; the client's retry, the webhook's redelivery or the
 * reconciler records it, once (the ticket's decider ignores an intent it recorded already).
 */
export class PaymentRecordingUnavailableError extends Error {
  override readonly name = 'PaymentRecordingUnavailableError';
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/**
 * Runs `work` (recording what the gateway already did) again while it fails with a transient database error,
 * for at most the patience; a transient failure past it becomes PaymentRecordingUnavailableError, any other
 * failure is thrown as it is.
 */
export async function recordPatiently<T>(what: string, work: () => Promise<T>, patience: RecordingPatience): Promise<T> {
  try {
    return await retryTransient(work, patience);
  } catch (error) {
    if (!isTransientError(error)) throw error;
    throw new PaymentRecordingUnavailableError(
      `${what}: the database did not answer within ${patience.patienceMs} ms (${error instanceof Error ? error.message : String(error)})`,
      error,
    );
  }
}
