import { sharedParts } from './shared-parts';

const joined = (parts: ReturnType<typeof sharedParts>) =>
  parts.middles.map((middle) => (middle === null ? null : `${parts.prefix}${middle}${parts.suffix}`));

/** No lone half of a surrogate pair (what UTF-8 could not carry). */
const wellFormed = (text: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

describe('sharedParts', () => {
  it('takes out what all bodies begin and end with, and gives every body back', () => {
    const bodies = ['<p>Hello</p><a href="x?t=abc">u</a></body>', '<p>Hello</p><a href="x?t=defg">u</a></body>', null];
    const parts = sharedParts(bodies);
    expect(parts.prefix).toBe('<p>Hello</p><a href="x?t=');
    expect(parts.suffix).toBe('">u</a></body>');
    expect(parts.middles).toEqual(['abc', 'defg', null]);
    expect(joined(parts)).toEqual(bodies);
  });

  it('leaves a lone body, or bodies with nothing in common, whole', () => {
    expect(sharedParts(['one'])).toEqual({ prefix: '', suffix: '', middles: ['one'] });
    expect(sharedParts([null, 'one'])).toEqual({ prefix: '', suffix: '', middles: [null, 'one'] });
    expect(sharedParts(['abc', 'xyz'])).toEqual({ prefix: '', suffix: '', middles: ['abc', 'xyz'] });
  });

  it('never lets the prefix and the suffix overlap (equal bodies, one body inside another)', () => {
    for (const bodies of [
      ['same', 'same'],
      ['abab', 'ab'],
      ['aXa', 'a'],
      ['', 'abc'],
    ]) {
      const parts = sharedParts(bodies);
      expect(joined(parts)).toEqual(bodies);
    }
  });

  it('never splits a surrogate pair between the parts', () => {
    // Same high surrogate, different low ones: a code-unit split would leave a lone half in each part.
    const bodies = ['a\u{1F600}b', 'a\u{1F601}b', 'a\u{1F602}b'];
    const parts = sharedParts(bodies);
    expect(joined(parts)).toEqual(bodies);
    for (const part of [parts.prefix, parts.suffix, ...parts.middles]) expect(wellFormed(part!)).toBe(true);
    // And pairs that differ in the high half while sharing the low one, at the end.
    const ends = ['x\u{10000}', 'x\u{10400}'];
    const endParts = sharedParts(ends);
    expect(joined(endParts)).toEqual(ends);
    for (const part of [endParts.prefix, endParts.suffix, ...endParts.middles]) expect(wellFormed(part!)).toBe(true);
  });
});
