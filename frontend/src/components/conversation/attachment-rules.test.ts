import { ATTACHMENT_MAX_BYTES, MESSAGE_ATTACHMENTS_MAX_BYTES, MESSAGE_MAX_ATTACHMENTS, messageTexts } from '@ppr/contracts';
import { describe, expect, it } from 'vitest';
import { fakeFile } from '../../test/message-fixture';
import { ATTACHMENT_ACCEPT, ATTACHMENT_HINT, attachmentProblem, formatBytes } from './attachment-rules';

describe('attachmentProblem: the server limits, in its words', () => {
  it('accepts up to the limits exactly', () => {
    const five = Array.from({ length: MESSAGE_MAX_ATTACHMENTS }, (_, n) => fakeFile(`photo-${n}.png`, 'image/png', 5 * 1024 * 1024));
    expect(attachmentProblem(five)).toBeUndefined();
    expect(attachmentProblem([fakeFile('scan.pdf', 'application/pdf', ATTACHMENT_MAX_BYTES)])).toBeUndefined();
    const allowance = [ATTACHMENT_MAX_BYTES, ATTACHMENT_MAX_BYTES, MESSAGE_ATTACHMENTS_MAX_BYTES - 2 * ATTACHMENT_MAX_BYTES];
    expect(attachmentProblem(allowance.map((size, n) => fakeFile(`part-${n}.pdf`, 'application/pdf', size)))).toBeUndefined();
    expect(attachmentProblem([])).toBeUndefined();
  });

  it('refuses a sixth file', () => {
    const six = Array.from({ length: MESSAGE_MAX_ATTACHMENTS + 1 }, (_, n) => fakeFile(`log-${n}.txt`, 'text/plain'));
    expect(attachmentProblem(six)).toBe(messageTexts.tooManyAttachments);
  });

  it('refuses a file over 10 MB, and files over 25 MB in all', () => {
    expect(attachmentProblem([fakeFile('big.jpg', 'image/jpeg', ATTACHMENT_MAX_BYTES + 1)])).toBe(messageTexts.attachmentTooLarge);
    const three = [0, 1, 2].map((n) => fakeFile(`part-${n}.pdf`, 'application/pdf', 9 * 1024 * 1024));
    expect(attachmentProblem(three)).toBe(messageTexts.attachmentsTooLarge);
  });

  it('refuses what is plainly another type, and trusts a known extension when the browser gives no type', () => {
    expect(attachmentProblem([fakeFile('report.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')])).toBe(
      messageTexts.attachmentType,
    );
    expect(attachmentProblem([fakeFile('setup.exe', '')])).toBe(messageTexts.attachmentType);
    expect(attachmentProblem([fakeFile('IMG_0042.HEIC', '')])).toBeUndefined();
    expect(attachmentProblem([fakeFile('photo.jpeg', '')])).toBeUndefined();
    expect(attachmentProblem([fakeFile('screen.webp', 'image/webp')])).toBeUndefined();
  });

  it('offers the allowed types in the picker and states the limits', () => {
    expect(ATTACHMENT_ACCEPT.split(',')).toEqual(
      expect.arrayContaining(['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'application/pdf', 'text/plain', '.heic']),
    );
    expect(ATTACHMENT_HINT).toBe('Up to 5 files, 10 MB each and 25 MB in all: images (PNG, JPEG, WebP, HEIC), PDF or plain text.');
  });
});

describe('formatBytes', () => {
  it('reads in the binary units of the limits', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2 KB');
    expect(formatBytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
    expect(formatBytes(ATTACHMENT_MAX_BYTES)).toBe('10 MB');
  });
});
