import { HttpException, HttpStatus } from '@nestjs/common';
import { type ApiError, marketingMessages } from '@ppr/contracts';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { currentAdmin } from '../admin/admin.guard';
import { bodyParserErrors } from '../common/json-body';

/**
 * The endpoints whose body carries a whole email (up to 2000 KB of HTML, SPEC section 9): they get a JSON
 * parser of their own with room for that content once JSON-escaped, mounted before the app's general one
 * (which then leaves the parsed body alone). Everything else keeps BODY_LIMIT_BYTES.
 */
export const MARKETING_BODY_PATHS = ['/api/admin/marketing-email', '/api/admin/test-marketing-email'];

/** 2000 KB of HTML is at most about 4 MB as a JSON string (quotes and backslashes are escaped), plus the list. */
const MARKETING_BODY_LIMIT_BYTES = 6 * 1024 * 1024;

/** A body too large for even this parser can only be an email over the limit: the spec's message. */
const tooLarge: ErrorRequestHandler = (error: { type?: string }, request, response, next) => {
  if (error?.type === 'entity.too.large') {
    next(new HttpException({ message: marketingMessages.contentTooLarge } satisfies ApiError, HttpStatus.PAYLOAD_TOO_LARGE));
    return;
  }
  bodyParserErrors(error, request, response, next);
};

/**
 * Only an admin's request gets the large parser (the session is read before any body): anyone else falls
 * through to the general parser and its limit, then to the guard's 401, so nobody can make the server read
 * megabytes without logging in.
 */
export function marketingJsonBody(): [RequestHandler, ErrorRequestHandler] {
  const parse = express.json({ limit: MARKETING_BODY_LIMIT_BYTES, strict: true, inflate: true });
  const adminsOnly: RequestHandler = (request, response, next) => {
    if (currentAdmin(request)) parse(request, response, next);
    else next();
  };
  return [adminsOnly, tooLarge];
}
