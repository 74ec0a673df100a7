import { MARKETING_MAX_CONTENT_BYTES } from '@ppr/contracts';
import { ContentTooLargeError, htmlToText, personalize, prepareContent, splitRecipients, stripBase64Images } from './content';

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
      duplicates: 1,
    });
  });

  it('treats an address over 100 characters as invalid (the column holds 100)', () => {
    const long = `${'a'.repeat(95)}@x.example`;
    expect(splitRecipients([long]).invalid).toEqual([long]);
  });
});

describe('the text part and the footer', () => {
  it('turns HTML into readable text with link targets', () => {
    expect(
      htmlToText('<style>p{}</style><h1>Offer</h1><p>Book <a href="https://x.example/book">now</a> &amp; save</p><ul><li>One</li></ul>'),
    ).toBe('Offer\n\nBook now (https://x.example/book) & save\n\n- One');
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
