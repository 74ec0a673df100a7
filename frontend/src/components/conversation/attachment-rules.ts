import {
  ATTACHMENT_CONTENT_TYPES,
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_TYPES,
  MESSAGE_ATTACHMENTS_MAX_BYTES,
  MESSAGE_MAX_ATTACHMENTS,
  messageTexts,
} from '@ppr/contracts';

/**
 * The file extensions of the allowed types. The server decides a file's type by its bytes; the browser only
 * offers these in its file picker, and names count here because browsers often give no type for HEIC.
 */
const EXTENSIONS: readonly string[] = [...Object.values(ATTACHMENT_TYPES), 'jpeg'];

/** The file input's `accept`: the types and their extensions. */
export const ATTACHMENT_ACCEPT = [...ATTACHMENT_CONTENT_TYPES, ...EXTENSIONS.map((extension) => `.${extension}`)].join(',');

/** What the file input's hint says, from the same limits the server applies. */
export const ATTACHMENT_HINT = `Up to ${MESSAGE_MAX_ATTACHMENTS} files, ${formatBytes(ATTACHMENT_MAX_BYTES)} each and ${formatBytes(
  MESSAGE_ATTACHMENTS_MAX_BYTES,
)} in all: images (PNG, JPEG, WebP, HEIC), PDF or plain text.`;

function looksAllowed(file: File): boolean {
  if ((ATTACHMENT_CONTENT_TYPES as readonly string[]).includes(file.type)) return true;
  const dot = file.name.lastIndexOf('.');
  return dot > 0 && EXTENSIONS.includes(file.name.slice(dot + 1).toLowerCase());
}

/**
 * The first reason the server would refuse these files, in the server's words (`messageTexts`), or undefined.
 * It checks the count and the sizes exactly; the type only by what the browser says and the name (the server
 * has the last word, from the bytes).
 */
export function attachmentProblem(files: readonly File[]): string | undefined {
  if (files.length > MESSAGE_MAX_ATTACHMENTS) return messageTexts.tooManyAttachments;
  if (files.some((file) => !looksAllowed(file))) return messageTexts.attachmentType;
  if (files.some((file) => file.size > ATTACHMENT_MAX_BYTES)) return messageTexts.attachmentTooLarge;
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total > MESSAGE_ATTACHMENTS_MAX_BYTES) return messageTexts.attachmentsTooLarge;
  return undefined;
}

/** A size as people read it, in the binary units the limits use ("10 MB" is 10 × 1024 × 1024 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  const megabytes = bytes / 1024 / 1024;
  return `${megabytes >= 10 || Number.isInteger(megabytes) ? Math.round(megabytes) : megabytes.toFixed(1)} MB`;
}
