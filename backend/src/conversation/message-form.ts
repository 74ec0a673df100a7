import { BadRequestException, HttpException, HttpStatus } from '@nestjs/common';
import {
  ATTACHMENT_MAX_BYTES,
  type ApiError,
  MESSAGE_ATTACHMENTS_MAX_BYTES,
  MESSAGE_BODY_MAX_LENGTH,
  MESSAGE_MAX_ATTACHMENTS,
  messageTexts,
} from '@ppr/contracts';
import type { Request, Response } from 'express';
import multer, { MulterError } from 'multer';

/** One file of a message as it arrived, before its bytes are judged. */
export interface UploadedFile {
  readonly originalName: string;
  readonly content: Buffer;
}

/** A message form's text fields (validated by the route's schema afterwards) and its files. */
export interface MessageForm {
  readonly fields: Record<string, unknown>;
  readonly files: readonly UploadedFile[];
}

export const ATTACHMENTS_FIELD = 'attachments';

const invalid = (status: HttpStatus, message: string, path = ATTACHMENTS_FIELD): HttpException =>
  new HttpException({ message, errors: [{ path, message }] } satisfies ApiError, status);

/**
 * busboy's limits (through multer): one file past 10 MB, a sixth file, a file under another field name, or
 * more fields than a message has stop the reading there; nothing is written. A body's UTF-8 is at most 4 bytes
 * a character.
 */
const upload = multer({
  storage: multer.memoryStorage(),
  defParamCharset: 'utf8',
  limits: {
    fileSize: ATTACHMENT_MAX_BYTES,
    files: MESSAGE_MAX_ATTACHMENTS,
    fields: 4,
    parts: MESSAGE_MAX_ATTACHMENTS + 4,
    fieldNameSize: 50,
    fieldSize: MESSAGE_BODY_MAX_LENGTH * 4 + 1024,
    headerPairs: 50,
  },
}).array(ATTACHMENTS_FIELD, MESSAGE_MAX_ATTACHMENTS);

function refusal(error: unknown): HttpException {
  if (error instanceof MulterError) {
    switch (error.code) {
      case 'LIMIT_FILE_SIZE':
        return invalid(HttpStatus.PAYLOAD_TOO_LARGE, messageTexts.attachmentTooLarge);
      case 'LIMIT_FILE_COUNT':
        return invalid(HttpStatus.BAD_REQUEST, messageTexts.tooManyAttachments);
      case 'LIMIT_FIELD_VALUE':
        return invalid(HttpStatus.BAD_REQUEST, messageTexts.bodyTooLong, 'body');
      default:
        return invalid(HttpStatus.BAD_REQUEST, messageTexts.unexpectedField, error.field ?? ATTACHMENTS_FIELD);
    }
  }
  return new BadRequestException({ message: messageTexts.formUnreadable } satisfies ApiError);
}

/** The request is a multipart form (a message with files); otherwise its body is the JSON Nest parsed. */
export function isMultipart(request: Request): boolean {
  return request.is('multipart/form-data') === 'multipart/form-data';
}

/**
 * Reads a multipart message form into memory within the limits above, and the total of 25 MB; a refusal is the
 * 400 or 413 with the limit's message.
 */
export async function readMessageForm(request: Request, response: Response): Promise<MessageForm> {
  await new Promise<void>((resolve, reject) => {
    upload(request, response, (error?: unknown) => (error ? reject(refusal(error)) : resolve()));
  });
  const files = ((request.files as Express.Multer.File[] | undefined) ?? []).map((file) => ({
    originalName: file.originalname,
    content: file.buffer,
  }));
  if (files.reduce((total, file) => total + file.content.length, 0) > MESSAGE_ATTACHMENTS_MAX_BYTES) {
    throw invalid(HttpStatus.PAYLOAD_TOO_LARGE, messageTexts.attachmentsTooLarge);
  }
  return { fields: { ...(request.body as Record<string, unknown> | undefined) }, files };
}
