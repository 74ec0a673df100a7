import {
  MARKETING_MAX_CONTENT_BYTES,
  MARKETING_MAX_LIST_WORDS,
  MARKETING_MAX_RECIPIENTS,
  MARKETING_MAX_REPORTED_INVALID,
  marketingMessages,
} from '@ppr/contracts';
import { checkSync } from 'recheck';
import { z } from 'zod';
import {
  CONTENT_PATTERNS,
  ContentTooLargeError,
  htmlToText,
  personalize,
  prepareContent,
  RecipientListError,
  splitRecipients,
  stripBase64Images,
} from './content';

const KB = 1024;
const image = (bytes: number) => `<img alt="x" src="data:image/png;base64,${'A'.repeat(bytes)}">`;
const padded = (bytes: number, extra = '') => `<p>${extra}${'x'.repeat(bytes - extra.length - 7)}</p>`;

describe('marketing content rules (SPEC section 9)', () => {
  it('refuses content over 2000 KB and accepts exactly 2000 KB', () => {
    expect(() => prepareContent(padded(MARKETING_MAX_CONTENT_BYTES + 1))).toThrow(ContentTooLargeError);
    expect(prepareContent(padded(MARKETING_MAX_CONTENT_BYTES)).bytes).toBe(MARKETING_MAX_CONTENT_BYTES);
  });

  it('counts UTF-8 bytes, not characters', () => {
    // 700,000 three-byte characters: 2.1 MB although fewer than 2,048,000 characters.
    expect(() => prepareContent('€'.repeat(700_000))).toThrow(ContentTooLargeError);
  });

  it('removes base64 images only over 500 KB, and says whether it did', () => {
    const small = prepareContent(`<p>Hi</p>${image(400 * KB)}`);
    expect(small).toMatchObject({ imagesRemoved: false, batchSize: 20 });
    expect(small.html).toContain('data:image');
    const large = prepareContent(`<p>Hi</p>${image(550 * KB)}`);
    expect(large).toMatchObject({ imagesRemoved: true, batchSize: 50 });
    expect(large.html).toBe('<p>Hi</p>');
    // Over 500 KB without any embedded image: nothing to remove.
    expect(prepareContent(padded(600 * KB))).toMatchObject({ imagesRemoved: false, batchSize: 20 });
  });

  it('batches of 20 over 200 KB, else 50', () => {
    expect(prepareContent(padded(200 * KB)).batchSize).toBe(50);
    expect(prepareContent(padded(200 * KB + 1)).batchSize).toBe(20);
  });

  it('strips img tags with either quote and CSS url() backgrounds, keeping linked images', () => {
    const html = `<img src='data:image/gif;base64,R0lG'><div style="background:url(data:image/png;base64,AAAA)"></div><img src="https://x.example/a.png">`;
    expect(stripBase64Images(html)).toEqual({
      html: '<div style="background:none"></div><img src="https://x.example/a.png">',
      removed: true,
    });
  });
});

describe('recipient lists', () => {
  it('splits on whitespace, commas and semicolons, deduplicates case-insensitively and reports what is not an address', () => {
    expect(splitRecipients(['a@x.example, b@x.example;c@x.example', ' A@X.example\tnot-an-address\n@bad', 'd@x.example;;'])).toEqual({
      valid: ['a@x.example', 'b@x.example', 'c@x.example', 'd@x.example'],
      invalid: ['not-an-address', '@bad'],
      invalidCount: 2,
      duplicates: 1,
    });
  });

  it("accepts the same addresses as zod's email check", () => {
    const words = [
      'a@x.example',
      "o'neil+tag@mail.x.example",
      'a.b@x.example',
      '.a@x.example',
      'a..b@x.example',
      'a@x',
      'a@-x.example',
      'a@x.e',
    ];
    expect(splitRecipients([words.join(' ')]).valid).toEqual(words.filter((word) => z.email().safeParse(word).success));
  });

  it('reports the first distinct entries that are no address, and counts them all', () => {
    // 2.5 million one-letter words made a 10 MB answer and a 10 MB status, polled every 5 seconds.
    const junk = Array.from(
      { length: 3 * MARKETING_MAX_REPORTED_INVALID },
      (_, index) => `junk${index % (2 * MARKETING_MAX_REPORTED_INVALID)}`,
    );
    const list = splitRecipients(['a@x.example', ...junk, 'x x x']);
    expect(list.valid).toEqual(['a@x.example']);
    expect(list.invalid).toHaveLength(MARKETING_MAX_REPORTED_INVALID);
    expect(list.invalid.slice(0, 2)).toEqual(['junk0', 'junk1']);
    expect(new Set(list.invalid).size).toBe(MARKETING_MAX_REPORTED_INVALID);
    expect(list.invalidCount).toBe(3 * MARKETING_MAX_REPORTED_INVALID + 3);
  });

  it(`refuses more than ${MARKETING_MAX_RECIPIENTS} distinct recipients, but not repeats`, () => {
    const addresses = (count: number) => Array.from({ length: count }, (_, index) => `r${index}@x.example`);
    const most = splitRecipients([
      addresses(MARKETING_MAX_RECIPIENTS).join(' '),
      addresses(MARKETING_MAX_RECIPIENTS).join(' ').toUpperCase(),
    ]);
    expect(most).toMatchObject({ invalidCount: 0, duplicates: MARKETING_MAX_RECIPIENTS });
    expect(most.valid).toHaveLength(MARKETING_MAX_RECIPIENTS);
    expect(() => splitRecipients(addresses(MARKETING_MAX_RECIPIENTS + 1))).toThrow(
      new RecipientListError(marketingMessages.tooManyRecipients),
    );
  });

  it(`refuses a list of more than ${MARKETING_MAX_LIST_WORDS} words after splitting, wherever they are`, () => {
    const words = (count: number) => 'x '.repeat(count);
    expect(splitRecipients([words(MARKETING_MAX_LIST_WORDS - 1), ' a@x.example ']).invalidCount).toBe(MARKETING_MAX_LIST_WORDS - 1);
    expect(() => splitRecipients([words(MARKETING_MAX_LIST_WORDS), 'a@x.example'])).toThrow(
      new RecipientListError(marketingMessages.tooManyListWords),
    );
    expect(() => splitRecipients([`, ;${words(3 * MARKETING_MAX_LIST_WORDS)}`])).toThrow(RecipientListError);
  });

  it('refuses a word longer than any email address (254 characters)', () => {
    expect(splitRecipients(['a@x.example', 'x'.repeat(254)]).invalid).toEqual(['x'.repeat(254)]);
    expect(() => splitRecipients(['a@x.example', ...Array.from({ length: 10 }, () => 'x'.repeat(250_000))])).toThrow(
      /^Each entry of the email list must be at most 254 characters: no email address is longer\. One is 250000 characters long: "x{40}\.\.\."$/,
    );
  });

  it('treats an address over 100 characters as invalid (the column holds 100)', () => {
    const long = `${'a'.repeat(95)}@x.example`;
    expect(splitRecipients([long]).invalid).toEqual([long]);
  });
});

describe('hostile content: one linear pass, the right output', () => {
  const IMG = '<img src="data:image/a;base64,A';

  it('has only linear regular expressions', () => {
    expect(CONTENT_PATTERNS.length).toBeGreaterThan(0);
    for (const pattern of CONTENT_PATTERNS) {
      expect({ pattern: String(pattern), status: checkSync(pattern.source, pattern.flags).status }).toEqual({
        pattern: String(pattern),
        status: 'safe',
      });
    }
  });

  it('reads a tag that never ends (a link regex backtracked for 10 s on 2.2 KB of this)', () => {
    expect(htmlToText('<a href="x'.repeat(200))).toBe('');
    expect(htmlToText('<a href="x'.repeat(400))).toBe('');
    expect(htmlToText(`${'<a href="x'.repeat(100_000)}">Book</a> now`)).toBe('Book now');
    expect(prepareContent('<a href="x'.repeat(200)).text).toBe('');
  });

  it('reads links that never close, script and style that never end, and deep nesting', () => {
    expect(htmlToText(`${'<a href="https://x.example/a">'.repeat(3)}Book`)).toBe(
      '(https://x.example/a) (https://x.example/a)Book (https://x.example/a)',
    );
    expect(htmlToText(`<p>Hi</p>${'<script>'.repeat(100_000)}x`)).toBe('Hi');
    expect(htmlToText(`<p>Hi</p>${'<style '.repeat(100_000)}`)).toBe('Hi');
    expect(htmlToText(`${'<div><b>'.repeat(100_000)}x${'</i>'.repeat(100_000)}`)).toBe('x');
    expect(htmlToText(`a${' \t'.repeat(300_000)}\n${'\n'.repeat(300_000)}b`)).toBe('a\n\nb');
  });

  it('strips base64 images that never end in one pass (6 s over 500 KB before), and keeps what is no image', () => {
    const unterminated = IMG.repeat(Math.ceil((510 * 1024) / IMG.length));
    // One <img> tag whose src is a base64 image, that the closing quote and bracket end.
    expect(prepareContent(`${unterminated}">tail`)).toMatchObject({ html: 'tail', imagesRemoved: true, text: 'tail' });
    // A tag cut off by the end of the content is no element: there is nothing to remove.
    expect(prepareContent(unterminated)).toMatchObject({ html: unterminated, imagesRemoved: false, text: '' });
    const urls = `<p>x</p>${'url(data:image/a;base64,'.repeat(30_000)}`;
    expect(stripBase64Images(urls)).toEqual({ html: urls, removed: false });
    expect(stripBase64Images(`${'url("data:image/a;base64,'.repeat(30_000)}")`).html).toBe(
      `${'url("data:image/a;base64,'.repeat(29_999)}none`,
    );
  });

  it('strips unquoted, upper-case and entity-encoded image sources, and only images', () => {
    expect(
      stripBase64Images(
        '<p>a</p><IMG SRC=data:image/png;base64,AAAA alt=x><img src = " data&colon;image/gif;base64,R0"/><img src="data:text/plain;base64,AA">' +
          '<img alt="data:image/png;base64,AA" src="https://x.example/a.png"><p title="<img src=data:image/png;base64,AA>">b</p>',
      ),
    ).toEqual({
      html:
        '<p>a</p><img src="data:text/plain;base64,AA"><img alt="data:image/png;base64,AA" src="https://x.example/a.png">' +
        '<p title="<img src=data:image/png;base64,AA>">b</p>',
      removed: true,
    });
    expect(stripBase64Images('<div style="background: URL( \'data:image/svg+xml;base64,PHN2Zz4=\' )">x</div>')).toEqual({
      html: '<div style="background: none">x</div>',
      removed: true,
    });
  });
});

describe('the text part and the footer', () => {
  it('turns HTML into readable text with link targets', () => {
    expect(
      htmlToText('<style>p{}</style><h1>Offer</h1><p>Book <a href="https://x.example/book">now</a> &amp; save</p><ul><li>One</li></ul>'),
    ).toBe('Offer\n\nBook now (https://x.example/book) & save\n\n- One');
  });

  it('leaves out the head (also when only the body ends it), decodes entities and keeps link labels that show the target', () => {
    expect(
      htmlToText(
        '<html><head><title>T</title><meta charset="utf-8"><style>p{}</style><body><p>A&nbsp;&copy;&#x41;<br class="x">B</p>' +
          '<a href="https://x.example">https://x.example</a> <a href="mailto:a@x.example">mail</a> <A HREF=https://y.example>Y</a></body>',
      ),
    ).toBe('A ©A\nB\n\nhttps://x.example mail Y (https://y.example)');
    expect(htmlToText('<head><title>T</title><p>Hi</p>')).toBe('Hi');
    expect(htmlToText('<!-- a > b --><p>Hi</p>')).toBe('Hi');
  });

  it('puts the unsubscribe link before </body>, or at the end, in both parts', () => {
    const url = 'https://www.example.com/unsubscribe?token=abc&x=1';
    const inBody = personalize({ html: '<html><body><p>Hi</p></body></html>', text: 'Hi' }, url, 'Potomac PC Repair');
    expect(inBody.html).toMatch(
      /<p>Hi<\/p><p[^>]*>.*<a href="https:\/\/www\.example\.com\/unsubscribe\?token=abc&amp;x=1">Unsubscribe<\/a>.*<\/p><\/body><\/html>$/,
    );
    expect(inBody.text).toBe(`Hi\n\n--\nYou receive this email from Potomac PC Repair. Unsubscribe: ${url}`);
    expect(personalize({ html: '<p>Hi</p>', text: 'Hi' }, url, 'P').html).toMatch(/^<p>Hi<\/p>\n<p/);
  });
});
