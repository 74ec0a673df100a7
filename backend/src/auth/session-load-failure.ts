import { inspect } from 'node:util';
import { Logger } from '@nestjs/common';
import { accountMessages, type ApiError } from '@ppr/contracts';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** How long a client waits before it asks again when its session could not be loaded: a database fault is brief. */
export const SESSION_RETRY_AFTER_SECONDS = 1;

/**
 * express-session, except when a request's stored session cannot be read (the store's get failed: a database
 * restart, a lost connection). express-session would pass the error on, and with `unset: 'destroy'` delete the
 * session as the answer ends (it sees a session id without a session): a fault of a second would log the user out
 * on every instance. Here such a request is answered 503 with Retry-After instead, its session id taken off the
 * request first, so express-session neither deletes the session nor sets or clears the cookie; the next request
 * with the same cookie finds the session as it was. A cookie whose session does not exist is no error: that
 * request goes on without a session, as before.
 */
export function keepSessionOnLoadFailure(sessions: RequestHandler): RequestHandler {
  const logger = new Logger('Sessions');
  return (request: Request, response: Response, next: NextFunction) => {
    sessions(request, response, (error?: unknown) => {
      // express-session calls next with an error only when the session of the request's id could not be loaded;
      // a session that was loaded (or none asked for) is the usual path.
      if (error === undefined || error === null || typeof error === 'string' || request.session !== undefined) {
        next(error);
        return;
      }
      logger.warn(`A session could not be loaded; answered 503 and kept: ${error instanceof Error ? error.message : inspect(error)}`);
      Reflect.deleteProperty(request, 'sessionID');
      response.setHeader('Retry-After', String(SESSION_RETRY_AFTER_SECONDS));
      response.status(503).json({ message: accountMessages.sessionUnavailable } satisfies ApiError);
    });
  };
}
