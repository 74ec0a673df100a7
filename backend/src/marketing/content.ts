import {
  MARKETING_BATCH_SIZE,
  MARKETING_LARGE_BATCH_SIZE,
  MARKETING_LARGE_CONTENT_BYTES,
  MARKETING_MAX_CONTENT_BYTES,
  MARKETING_MAX_LIST_WORDS,
  MARKETING_MAX_RECIPIENTS,
  MARKETING_MAX_REPORTED_INVALID,
  MARKETING_MAX_WORD_LENGTH,
  MARKETING_STRIP_IMAGES_BYTES,
  marketingMessages,
} from '@ppr/contracts';
import { type QuoteType, Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
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

/** Recipients' addresses: zod's own email pattern (linear, and only tried on at most 100 characters). */
const EMAIL = z.regexes.email;
/** Separators of the recipient list (SPEC section 5): whitespace, commas and semicolons. */
const SEPARATORS = /[\s,;]+/;
/** Where a CSS url() may start; the rest of it is read by hand (see `replaceBase64Urls`). */
const URL_OPEN = /url\(/gi;
const CLOSING_BODY = /<\/body\s*>/i;

/**
 * Every regular expression this module runs on content or lists from a request. Each must run in linear time
 * (content.unit.spec.ts checks them with recheck): the HTML itself is read by htmlparser2's tokenizer, a state
 * machine, never by a regular expression.
 */
export const CONTENT_PATTERNS: readonly RegExp[] = [EMAIL, SEPARATORS, URL_OPEN, CLOSING_BODY];

export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * The tokenizer's callbacks, doing nothing but collect the value of the one attribute a reader watches on the
 * current tag (`watchedAttribute`), entities decoded, for `onattributevalue`; each reader overrides the few
 * callbacks it needs.
 */
abstract class TokenReader implements TokenizerCallbacks {
  /** The HTML being read: the callbacks get positions in it. */
  protected html = '';
  private watching = false;
  private value: string[] = [];

  /** The attribute of the current tag whose value `onattributevalue` receives, in lower case ('' for none). */
  protected watchedAttribute(): string {
    return '';
  }

  /** The watched attribute's value, when it ends. */
  protected onattributevalue(_value: string): void {}

  onattribname(start: number, endIndex: number): void {
    const watched = this.watchedAttribute();
    this.watching = watched !== '' && this.html.slice(start, endIndex).toLowerCase() === watched;
    this.value = [];
  }

  onattribdata(start: number, endIndex: number): void {
    if (this.watching) this.value.push(this.html.slice(start, endIndex));
  }

  onattribentity(codepoint: number): void {
    if (this.watching) this.value.push(String.fromCodePoint(codepoint));
  }

  onattribend(_quote: QuoteType, _endIndex: number): void {
    if (this.watching) this.onattributevalue(this.value.join(''));
    this.watching = false;
    this.value = [];
  }

  oncdata(_start: number, _endIndex: number, _endOffset: number): void {}
  onclosetag(_start: number, _endIndex: number): void {}
  oncomment(_start: number, _endIndex: number, _endOffset: number): void {}
  ondeclaration(_start: number, _endIndex: number): void {}
  onend(): void {}
  onopentagend(_endIndex: number): void {}
  onopentagname(_start: number, _endIndex: number): void {}
  onprocessinginstruction(_start: number, _endIndex: number): void {}
  onselfclosingtag(_endIndex: number): void {}
  ontext(_start: number, _endIndex: number): void {}
  ontextentity(_codepoint: number, _endIndex: number): void {}

  /**
   * Reads the HTML in one pass. The tokenizer keeps no element stack (htmlparser2's Parser does, and its work
   * grows with the square of the nesting depth), so the time is linear in the length of the input.
   */
  protected read(html: string): void {
    this.html = html;
    const tokenizer = new Tokenizer({ decodeEntities: true }, this);
    tokenizer.write(html);
    tokenizer.end();
  }
}

/** `data:image/...;base64,...`, as the regular expressions before this module's tokenizer understood it. */
function isBase64Image(value: string): boolean {
  const source = value.trimStart();
  if (source.slice(0, 11).toLowerCase() !== 'data:image/') return false;
  const comma = source.indexOf(',');
  if (comma < 0) return false;
  return source
    .slice(11, comma)
    .toLowerCase()
    .split(';')
    .slice(1)
    .some((parameter) => parameter.trim() === 'base64');
}

/** Finds the <img> tags whose src is an inline base64 image (quoted or not, entities decoded). */
class Base64ImageFinder extends TokenReader {
  /** [start, end) of each such tag in the HTML. */
  readonly ranges: [number, number][] = [];
  private tagStart = -1;
  private isImg = false;
  private imageSource = false;

  find(html: string): [number, number][] {
    this.read(html);
    return this.ranges;
  }

  override onopentagname(start: number, endIndex: number): void {
    this.tagStart = start - 1;
    this.isImg = this.html.slice(start, endIndex).toLowerCase() === 'img';
    this.imageSource = false;
  }

  protected override watchedAttribute(): string {
    return this.isImg ? 'src' : '';
  }

  protected override onattributevalue(value: string): void {
    if (isBase64Image(value)) this.imageSource = true;
  }

  override onopentagend(endIndex: number): void {
    if (this.isImg && this.imageSource) this.ranges.push([this.tagStart, endIndex + 1]);
    this.isImg = false;
  }

  override onselfclosingtag(endIndex: number): void {
    this.onopentagend(endIndex);
  }
}

/** The first index at or after `from` of one of `chars`, for positions asked in increasing order: linear in all. */
function forwardFinder(text: string, chars: string): (from: number) => number {
  let found = -1;
  return (from) => {
    if (found >= from) return found;
    for (let index = from; index < text.length; index += 1) {
      if (chars.includes(text[index]!)) return (found = index);
    }
    return (found = text.length);
  };
}

const isSpace = (char: string | undefined) => char === ' ' || char === '\t' || char === '\n' || char === '\r' || char === '\f';

/** CSS `url(data:image/...;base64,...)`, bare or quoted, becomes `none`: one pass over the text. */
function replaceBase64Urls(html: string): { html: string; removed: boolean } {
  const parts: string[] = [];
  let copied = 0;
  // The same characters end the value as in the expression this replaces: `[^;"')]*;base64,[^"')]*`.
  const nextEnd = forwardFinder(html, `"')`);
  const nextHeaderEnd = forwardFinder(html, `;"')`);
  for (const match of html.matchAll(URL_OPEN)) {
    const open = match.index;
    if (open < copied) continue;
    let index = open + 4;
    while (isSpace(html[index])) index += 1;
    const quote = html[index] === '"' || html[index] === "'" ? html[index]! : '';
    if (quote) index += 1;
    if (html.slice(index, index + 11).toLowerCase() !== 'data:image/') continue;
    const headerEnd = nextHeaderEnd(index + 11);
    if (html.slice(headerEnd, headerEnd + 8).toLowerCase() !== ';base64,') continue;
    let end = nextEnd(headerEnd + 8);
    if (quote) {
      if (html[end] !== quote) continue;
      end += 1;
    }
    while (isSpace(html[end])) end += 1;
    if (html[end] !== ')') continue;
    parts.push(html.slice(copied, open), 'none');
    copied = end + 1;
  }
  if (parts.length === 0) return { html, removed: false };
  parts.push(html.slice(copied));
  return { html: parts.join(''), removed: true };
}

/** Removes inline base64 images (img tags and CSS url()s); says whether there were any. Linear time. */
export function stripBase64Images(html: string): { html: string; removed: boolean } {
  const ranges = new Base64ImageFinder().find(html);
  let withoutTags = html;
  if (ranges.length > 0) {
    const kept: string[] = [];
    let copied = 0;
    for (const [start, end] of ranges) {
      kept.push(html.slice(copied, start));
      copied = end;
    }
    kept.push(html.slice(copied));
    withoutTags = kept.join('');
  }
  const urls = replaceBase64Urls(withoutTags);
  return { html: urls.html, removed: ranges.length > 0 || urls.removed };
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

/** Elements whose content is no text of the message. */
const HIDDEN = new Set(['script', 'style', 'head']);
/** Raw-text elements of the head (their text is hidden with it), and the head's other elements. */
const HEAD_RAW = new Set(['script', 'style', 'title', 'noscript', 'template']);
const HEAD_ELEMENTS = new Set(['meta', 'link', 'base', 'basefont', 'bgsound']);
/** Elements after whose end a paragraph break goes. */
const BLOCKS = new Set(['p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'tr', 'table', 'blockquote']);

/** Reads the HTML once and writes the text part (see `htmlToText`). */
class TextWriter extends TokenReader {
  private readonly out: string[] = [];
  /** The elements whose content is left out that we are inside: script, style or head, and one inside head. */
  private readonly hidden: string[] = [];
  private tag = '';
  private href: string | null = null;
  /** The open link: its target and where its label starts in `out`. */
  private link: { href: string; label: number } | null = null;

  write(html: string): string {
    this.read(html);
    this.endLink();
    return tidy(this.out.join(''));
  }

  private emit(text: string): void {
    if (this.hidden.length === 0) this.out.push(text);
  }

  /** Text in the head (not in its title, style or script) ends it, as in a browser. */
  private text(text: string): void {
    if (this.hidden.length === 1 && this.hidden[0] === 'head' && text.trim() !== '') this.hidden.pop();
    this.emit(text);
  }

  private endLink(): void {
    const link = this.link;
    if (!link) return;
    this.link = null;
    const label = this.out.slice(link.label).join('');
    if (link.href.startsWith('http') && !label.includes(link.href)) this.out.push(` (${link.href})`);
  }

  override ontext(start: number, endIndex: number): void {
    this.text(this.html.slice(start, endIndex));
  }

  override ontextentity(codepoint: number): void {
    this.text(codepoint === 0xa0 ? ' ' : String.fromCodePoint(codepoint));
  }

  override onopentagname(start: number, endIndex: number): void {
    this.tag = this.html.slice(start, endIndex).toLowerCase();
    this.href = null;
  }

  protected override watchedAttribute(): string {
    return this.tag === 'a' ? 'href' : '';
  }

  protected override onattributevalue(value: string): void {
    if (this.href === null) this.href = value;
  }

  override onopentagend(): void {
    this.opened(false);
  }

  override onselfclosingtag(): void {
    this.opened(true);
  }

  private opened(selfClosing: boolean): void {
    const tag = this.tag;
    const inside = this.hidden.at(-1);
    if (inside === 'head') {
      if (HEAD_RAW.has(tag)) {
        if (!selfClosing) this.hidden.push(tag);
        return;
      }
      if (HEAD_ELEMENTS.has(tag) || tag === 'head') return;
      // Any other element (<body>, <p>, ...) ends the head, as in a browser.
      this.hidden.pop();
    } else if (inside !== undefined) {
      return;
    }
    if (HIDDEN.has(tag)) {
      if (!selfClosing) this.hidden.push(tag);
      return;
    }
    if (tag === 'br') this.emit('\n');
    else if (tag === 'li') this.emit('- ');
    else if (tag === 'a') {
      // A link inside a link ends the first one, as in a browser.
      this.endLink();
      if (this.href !== null) this.link = { href: this.href, label: this.out.length };
    }
  }

  override onclosetag(start: number, endIndex: number): void {
    const tag = this.html.slice(start, endIndex).toLowerCase();
    if (this.hidden.length > 0) {
      if (tag === this.hidden.at(-1)) this.hidden.pop();
      return;
    }
    if (tag === 'a') this.endLink();
    else if (tag === 'br') this.emit('\n');
    else if (BLOCKS.has(tag)) this.emit('\n\n');
  }
}

/** Trailing spaces and tabs off every line, at most one empty line in a row, no blank start or end. */
function tidy(text: string): string {
  const lines: string[] = [];
  let blank = 0;
  for (const raw of text.split('\n')) {
    let end = raw.length;
    while (end > 0 && (raw[end - 1] === ' ' || raw[end - 1] === '\t')) end -= 1;
    const line = raw.slice(0, end);
    blank = line === '' ? blank + 1 : 0;
    if (blank < 2) lines.push(line);
  }
  return lines.join('\n').trim();
}

/**
 * A readable plain-text part of an HTML email (mail clients that show no HTML, and spam filters, want one):
 * no script, style or head; a line break for <br>, a paragraph break after blocks, "- " before list items,
 * a link's target after its label (unless the label shows it), entities decoded. Linear time.
 */
export function htmlToText(html: string): string {
  return new TextWriter().write(html);
}

/** The recipients of a request, split, checked and deduplicated (case-insensitively, first spelling kept). */
export interface RecipientList {
  readonly valid: string[];
  /** The first MARKETING_MAX_REPORTED_INVALID distinct entries that are no address. */
  readonly invalid: string[];
  /** All entries that are no address, repeats included. */
  readonly invalidCount: number;
  readonly duplicates: number;
}

/** A list refused as a whole (a 400): too many recipients or words, or a word no address can be. */
export class RecipientListError extends Error {}

/**
 * SPEC section 5: every entry is split on whitespace, commas and semicolons. The work is bounded whatever the
 * request: at most MARKETING_MAX_LIST_WORDS words are looked at (the split stops there), each at most
 * MARKETING_MAX_WORD_LENGTH characters, and only words of at most 100 characters (the column) are matched.
 */
export function splitRecipients(entries: readonly string[]): RecipientList {
  const seen = new Set<string>();
  const valid: string[] = [];
  const invalid: string[] = [];
  const invalidSeen = new Set<string>();
  let invalidCount = 0;
  let duplicates = 0;
  let words = 0;
  for (const entry of entries) {
    // At most two empty pieces (before the first separator, after the last): a longer list still shows up.
    for (const word of entry.split(SEPARATORS, MARKETING_MAX_LIST_WORDS - words + 2)) {
      if (word === '') continue;
      words += 1;
      if (words > MARKETING_MAX_LIST_WORDS) throw new RecipientListError(marketingMessages.tooManyListWords);
      if (word.length > MARKETING_MAX_WORD_LENGTH) {
        throw new RecipientListError(
          `${marketingMessages.listWordTooLong} One is ${word.length} characters long: "${word.slice(0, 40)}..."`,
        );
      }
      const key = word.toLowerCase();
      if (seen.has(key)) {
        duplicates += 1;
        continue;
      }
      if (word.length > 100 || !EMAIL.test(word)) {
        invalidCount += 1;
        if (invalid.length < MARKETING_MAX_REPORTED_INVALID && !invalidSeen.has(word)) {
          invalidSeen.add(word);
          invalid.push(word);
        }
        continue;
      }
      if (valid.length === MARKETING_MAX_RECIPIENTS) throw new RecipientListError(marketingMessages.tooManyRecipients);
      seen.add(key);
      valid.push(word);
    }
  }
  return { valid, invalid, invalidCount, duplicates };
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
  const closing = CLOSING_BODY.exec(content.html);
  const html = closing
    ? `${content.html.slice(0, closing.index)}${footer}${content.html.slice(closing.index)}`
    : `${content.html}\n${footer}`;
  const text = `${content.text}\n\n--\nYou receive this email from ${sender}. Unsubscribe: ${unsubscribeUrl}`;
  return { html, text };
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
