import {
  MARKETING_BATCH_SIZE,
  MARKETING_LARGE_BATCH_SIZE,
  MARKETING_LARGE_CONTENT_BYTES,
  MARKETING_MAX_CONTENT_BYTES,
  MARKETING_STRIP_IMAGES_BYTES,
} from '@ppr/contracts';
import { z } from 'zod';

/** The content of a marketing email after SPEC section 9's size rules. */
export interface PreparedContent {
  readonly html: string;
  readonly text: string;
  readonly bytes: number;
  readonly imagesRemoved: boolean;
  readonly batchSize: number;
}

export class ContentTooLargeError extends Error {
  constructor(readonly bytes: number) {
    super(`Marketing content of ${bytes} bytes is over the limit of ${MARKETING_MAX_CONTENT_BYTES}`);
  }
}

/** <img> elements whose source is an inline base64 image: these are what make pasted newsletters huge. */
const BASE64_IMAGE = /<img\b[^>]*?\bsrc\s*=\s*(["'])\s*data:image\/[^;"']*;base64,[^"']*\1[^>]*>/gi;
/** CSS backgrounds with inline base64 images. */
const BASE64_URL = /url\(\s*(["']?)data:image\/[^;"')]*;base64,[^"')]*\1\s*\)/gi;

export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Removes inline base64 images (img tags and CSS url()s); says whether there were any. */
export function stripBase64Images(html: string): { html: string; removed: boolean } {
  let removed = false;
  const stripped = html
    .replace(BASE64_IMAGE, () => {
      removed = true;
      return '';
    })
    .replace(BASE64_URL, () => {
      removed = true;
      return 'none';
    });
  return { html: stripped, removed };
}

/**
 * SPEC section 9: over 2000 KB is refused; over 500 KB embedded base64 images are removed; over 200 KB (after
 * that) batches are of 20 instead of 50. Sizes are UTF-8 bytes, 1 KB = 1024 bytes.
 */
export function prepareContent(content: string): PreparedContent {
  const original = byteLength(content);
  if (original > MARKETING_MAX_CONTENT_BYTES) throw new ContentTooLargeError(original);
  let html = content;
  let imagesRemoved = false;
  if (original > MARKETING_STRIP_IMAGES_BYTES) {
    const stripped = stripBase64Images(content);
    html = stripped.html;
    imagesRemoved = stripped.removed;
  }
  const bytes = byteLength(html);
  return {
    html,
    text: htmlToText(html),
    bytes,
    imagesRemoved,
    batchSize: bytes > MARKETING_LARGE_CONTENT_BYTES ? MARKETING_LARGE_BATCH_SIZE : MARKETING_BATCH_SIZE,
  };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };

/** A readable plain-text part of an HTML email (mail clients that show no HTML, and spam filters, want one). */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<a\b[^>]*?\bhref\s*=\s*(["'])(.*?)\1[^>]*>([\s\S]*?)<\/a\s*>/gi, (_m, _q: string, href: string, label: string) =>
      href.startsWith('http') && !label.includes(href) ? `${label} (${href})` : label,
    )
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr|table|blockquote)\s*>/gi, '\n\n')
    .replace(/<li\b[^>]*>/gi, '- ')
    .replace(/<[^>]+>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_m, name: string) => ENTITIES[name]!)
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const emailShape = z.email();

/** The recipients of a request, split, checked and deduplicated (case-insensitively, first spelling kept). */
export interface RecipientList {
  readonly valid: string[];
  readonly invalid: string[];
  readonly duplicates: number;
}

/** SPEC section 5: every entry is split on whitespace, commas and semicolons. */
export function splitRecipients(entries: readonly string[]): RecipientList {
  const seen = new Set<string>();
  const valid: string[] = [];
  const invalid: string[] = [];
  let duplicates = 0;
  for (const entry of entries) {
    for (const candidate of entry.split(/[\s,;]+/)) {
      if (candidate === '') continue;
      if (candidate.length > 100 || !emailShape.safeParse(candidate).success) {
        invalid.push(candidate.slice(0, 200));
        continue;
      }
      const key = candidate.toLowerCase();
      if (seen.has(key)) {
        duplicates += 1;
        continue;
      }
      seen.add(key);
      valid.push(candidate);
    }
  }
  return { valid, invalid, duplicates };
}

/** The campaign's content for one recipient: the unsubscribe link in the footer of both parts. */
export function personalize(
  content: { html: string; text: string },
  unsubscribeUrl: string,
  sender: string,
): { html: string; text: string } {
  const href = unsubscribeUrl.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  const footer =
    `<p style="margin-top:32px;font-size:12px;color:#475569">You receive this email from ${escapeText(sender)}. ` +
    `<a href="${href}">Unsubscribe</a> from marketing emails.</p>`;
  const closing = /<\/body\s*>/i.exec(content.html);
  const html = closing
    ? `${content.html.slice(0, closing.index)}${footer}${content.html.slice(closing.index)}`
    : `${content.html}\n${footer}`;
  const text = `${content.text}\n\n--\nYou receive this email from ${sender}. Unsubscribe: ${unsubscribeUrl}`;
  return { html, text };
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
