import { describe, expect, it } from 'vitest';
import { contentSize } from './content-size';

const kb = (n: number) => 'a'.repeat(n * 1024);

describe('contentSize (SPEC section 9)', () => {
  it('sends small content in batches of 50 with no warning', () => {
    expect(contentSize('<p>Hello</p>')).toEqual({ bytes: 12, tooLarge: false, warning: false, imagesRemoved: false, batchSize: 50 });
  });

  it('uses batches of 20 over 200 KB', () => {
    expect(contentSize(kb(200)).batchSize).toBe(50);
    expect(contentSize(`${kb(200)}a`).batchSize).toBe(20);
  });

  it('removes images over 500 KB, warns over 1000 KB, refuses over 2000 KB', () => {
    expect(contentSize(`${kb(500)}a`)).toMatchObject({ imagesRemoved: true, warning: false, tooLarge: false });
    expect(contentSize(`${kb(1000)}a`)).toMatchObject({ imagesRemoved: true, warning: true, tooLarge: false });
    expect(contentSize(kb(2000)).tooLarge).toBe(false);
    expect(contentSize(`${kb(2000)}a`).tooLarge).toBe(true);
  });

  it('counts bytes, not characters', () => {
    expect(contentSize('é').bytes).toBe(2);
  });
});
