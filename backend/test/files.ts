/** Files as their bytes, for tests of uploads and attachments. */

/** The smallest PNG there is: one transparent pixel. */
export const TINY_PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

/** The first bytes of a Windows program (MZ header): what no attachment may be. */
export const WINDOWS_PROGRAM = Buffer.concat([Buffer.from('4d5a90000300000004000000ffff0000', 'hex'), Buffer.alloc(200, 1)]);
