import { isUtf8 } from 'node:buffer';
import { type CanActivate, type ExecutionContext, HttpException, HttpStatus, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import express, { type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import { JSON_OBJECT_REQUIRED } from './zod-validation.pipe';

interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
  /** zlib's code when a compressed body cannot be inflated (Z_DATA_ERROR, Z_BUF_ERROR, ERR__ERROR_FORMAT_...). */
  code?: string;
  /** The body's text, on a parse failure. */
  body?: unknown;
}

/** JSON, but not an object or array (`null`, `"text"`, `123`), which the strict parser refuses unread. */
function isJsonScalar(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export const INVALID_UTF8_BODY = 'The request body is not valid UTF-8 text';

const MESSAGES: Record<string, string> = {
  'entity.parse.failed': 'The request body is not valid JSON',
  'entity.too.large': 'The request body is too large',
  'encoding.unsupported': 'The request body encoding is not supported (Content-Encoding: gzip, deflate, br or none)',
  'charset.unsupported': 'The request body charset is not supported',
  'request.aborted': 'The request was aborted',
  'request.size.invalid': 'The request body is shorter or longer than its Content-Length',
  'parameters.too.many': 'The request body has too many fields',
  'entity.utf8.invalid': INVALID_UTF8_BODY,
};

export const UNREADABLE_COMPRESSED_BODY = 'The request body could not be decompressed: it does not match its Content-Encoding';
const UNREADABLE_BODY = 'The request body could not be read';

function isClientError(status: unknown): status is number {
  return typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * Turns the body parsers' failures (the JSON parser and the verification form's urlencoded parser, which
 * both run before this) into the API's 4xx messages. A compressed body that does not inflate reaches here
 * as zlib's own error with status 400 and no type: it gets a message of its own instead of a 500. Errors
 * that are not the client's (no 4xx status) go on untouched.
 */
export const bodyParserErrors: ErrorRequestHandler = (error: BodyParserError, request, _response, next) => {
  // Already translated (a parser mounted earlier, such as the payment webhook's, has its own translator).
  if (error instanceof HttpException) {
    next(error);
    return;
  }
  if (error?.type === 'entity.parse.failed' && isJsonScalar(error.body)) {
    next(new HttpException({ message: JSON_OBJECT_REQUIRED }, HttpStatus.BAD_REQUEST));
    return;
  }
  const known = error?.type ? MESSAGES[error.type] : undefined;
  if (known) {
    next(new HttpException({ message: known }, isClientError(error.status) ? error.status : HttpStatus.BAD_REQUEST));
    return;
  }
  if (!isClientError(error?.status)) {
    next(error);
    return;
  }
  const encoding = (request.headers['content-encoding'] ?? 'identity').toLowerCase();
  const message = encoding !== 'identity' && typeof error.code === 'string' ? UNREADABLE_COMPRESSED_BODY : UNREADABLE_BODY;
  next(new HttpException({ message }, error.status === HttpStatus.PAYLOAD_TOO_LARGE ? error.status : HttpStatus.BAD_REQUEST));
};

const METHODS_WITH_BODIES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The request says it carries bytes: a Content-Length above 0, or a chunked (or otherwise encoded) transfer. */
function announcesBody(request: Request): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) > 0);
}

const READS_NO_BODY = Symbol('reads-no-body');

/**
 * On a handler that is sent a body it does not read: the RFC 8058 one-click unsubscribe, which mail providers
 * post as a form (`List-Unsubscribe=One-Click`); the token in its path is all it needs.
 */
export const IgnoresBody = (): MethodDecorator => SetMetadata(READS_NO_BODY, true);

const READS_MULTIPART = Symbol('reads-multipart');

/** On a handler that reads a multipart/form-data body itself (a message with attachments): such a body passes. */
export const ReadsMultipartBody = (): MethodDecorator => SetMetadata(READS_MULTIPART, true);

/**
 * A body none of the parsers read (text/plain, a form, multipart, no Content-Type) is a 415, not a request
 * handled as if it had no body. Endpoints whose body is optional would otherwise act on their defaults (the
 * campaign cancel without the campaign it names, a refund without its reason) and body-less ones would answer
 * 2xx to what they never read. A guard, not a middleware: it runs once a route has matched, so an unknown path
 * is the API's 404 whatever it was sent, and before the route's own guards and pipes.
 */
@Injectable()
export class UnreadBodyGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<Request>();
    if (request.body !== undefined || !METHODS_WITH_BODIES.has(request.method) || !announcesBody(request)) return true;
    if (this.reflector.get<boolean | undefined>(READS_NO_BODY, context.getHandler()) === true) return true;
    if (
      this.reflector.get<boolean | undefined>(READS_MULTIPART, context.getHandler()) === true &&
      request.is('multipart/form-data') === 'multipart/form-data'
    ) {
      return true;
    }
    throw new HttpException({ message: JSON_OBJECT_REQUIRED }, HttpStatus.UNSUPPORTED_MEDIA_TYPE);
  }
}

/** The JSON body parser, with its failures turned into the API's own 4xx messages (see UnreadBodyGuard for the rest). */
export function jsonBody(limitBytes: number): [RequestHandler, ErrorRequestHandler] {
  // inflate: gzip, deflate and br bodies are read (the limit counts the inflated bytes); anything else is a 415.
  // A UTF-8 body must be UTF-8: bytes that are not would be read as U+FFFD and stored as such, garbling the
  // field instead of telling the sender (a client sending Latin-1 without saying so, or a fuzzer).
  const parse = express.json({
    limit: limitBytes,
    strict: true,
    inflate: true,
    verify: (_request, _response, body, encoding) => {
      if (/^utf-?8$/i.test(encoding) && !isUtf8(body)) {
        throw Object.assign(new Error(INVALID_UTF8_BODY), { type: 'entity.utf8.invalid', status: HttpStatus.BAD_REQUEST });
      }
    },
  });
  return [parse, bodyParserErrors];
}
