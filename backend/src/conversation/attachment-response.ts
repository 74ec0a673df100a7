import type { Response } from 'express';
import type { AttachmentFile } from './attachments';

/**
 * An attachment as a download, never rendered by the browser on this site's origin: Content-Disposition
 * attachment (the name in RFC 6266/5987 form), its type as its bytes showed, nosniff, and a sandbox CSP in case
 * a browser shows it anyway. Private: only its readers fetch it.
 */
export function sendAttachment(response: Response, file: AttachmentFile): void {
  const ascii = file.filename.replace(/[^\x20-\x7E]/g, '_').replace(/["\\]/g, '_');
  response.setHeader('Content-Type', file.contentType === 'text/plain' ? 'text/plain; charset=utf-8' : file.contentType);
  response.setHeader('Content-Disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
  response.setHeader('Cache-Control', 'private, no-store');
  response.setHeader('Content-Length', String(file.content.length));
  response.status(200).end(file.content);
}
