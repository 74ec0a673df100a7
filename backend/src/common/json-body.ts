import { HttpException, HttpStatus } from '@nestjs/common';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';

interface BodyParserError {
  type?: string;
  status?: number;
}

const MESSAGES: Record<string, string> = {
  'entity.parse.failed': 'The request body is not valid JSON',
  'entity.too.large': 'The request body is too large',
  'encoding.unsupported': 'The request body encoding is not supported',
  'charset.unsupported': 'The request body charset is not supported',
  'request.aborted': 'The request was aborted',
  'request.size.invalid': 'The request body is shorter or longer than its Content-Length',
};

/** The JSON body parser, with its failures turned into the API's own 4xx messages. */
export function jsonBody(limitBytes: number): [RequestHandler, ErrorRequestHandler] {
  const parse = express.json({ limit: limitBytes, strict: true });
  const translate: ErrorRequestHandler = (error: BodyParserError, _request, _response, next) => {
    const message = error?.type ? MESSAGES[error.type] : undefined;
    if (!message) {
      next(error);
      return;
    }
    next(new HttpException({ message }, error.status ?? HttpStatus.BAD_REQUEST));
  };
  return [parse, translate];
}
