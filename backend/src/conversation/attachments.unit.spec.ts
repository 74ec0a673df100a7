import { attachmentFilename, detectAttachmentType, isPlainText } from './attachments';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex');
const PDF = Buffer.from('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n<<>>\nendobj\n', 'latin1');
const ZIP = Buffer.from('504b0304140000000800', 'hex');
const HTML = Buffer.from('<!doctype html><script>alert(1)</script>', 'utf8');

describe('what an attachment is, by its bytes', () => {
  it.each([
    ['a PNG', PNG, 'image/png'],
    ['a JPEG', JPEG, 'image/jpeg'],
    ['a PDF', PDF, 'application/pdf'],
    ['UTF-8 text with a BOM and accents', Buffer.from('\ufeffCafé log\r\n\tline 2\n', 'utf8'), 'text/plain'],
  ])('%s is taken', async (_label, bytes, type) => {
    expect(await detectAttachmentType(bytes)).toBe(type);
  });

  it.each([
    ['an empty file', Buffer.alloc(0)],
    ['a ZIP archive (an Office file, an APK)', ZIP],
    ['a Windows program', Buffer.from('4d5a9000030000000400', 'hex')],
    ['bytes that are not UTF-8', Buffer.from([0x41, 0xff, 0xfe, 0x42])],
    ['text with NUL or escape characters', Buffer.from('abc\u0000def\u001b[31m', 'utf8')],
  ])('%s is refused', async (_label, bytes) => {
    expect(await detectAttachmentType(bytes)).toBeNull();
  });

  it('HTML is text and served as text/plain (never rendered), under a .txt name', async () => {
    expect(await detectAttachmentType(HTML)).toBe('text/plain');
    expect(attachmentFilename('page.html', 'text/plain')).toBe('page.txt');
  });

  it('plain text is decided strictly', () => {
    expect(isPlainText(Buffer.from('line\fpage', 'utf8'))).toBe(true);
    expect(isPlainText(Buffer.from([0xc3, 0x28]))).toBe(false);
  });
});

describe('the stored name of an attachment', () => {
  it.each([
    ['screen.png', 'image/png', 'screen.png'],
    ['../../etc/passwd', 'text/plain', 'passwd.txt'],
    ['C:\\Users\\maya\\Desktop\\scan.PDF', 'application/pdf', 'scan.pdf'],
    ['invoice.pdf.exe', 'application/pdf', 'invoice.pdf.pdf'],
    ['"quoted"<name>?.jpg', 'image/jpeg', 'quotedname.jpg'],
    ['.hidden', 'text/plain', 'attachment.txt'],
    ['', 'image/png', 'attachment.png'],
    ['e\u0301cran.png', 'image/png', '\u00e9cran.png'],
  ] as const)('%j as %s is %j', (original, type, expected) => {
    expect(attachmentFilename(original, type)).toBe(expected);
  });

  it('is at most 100 characters, extension included', () => {
    const name = attachmentFilename(`${'ä'.repeat(300)}.png`, 'image/png');
    expect([...name]).toHaveLength(100);
    expect(name.endsWith('.png')).toBe(true);
  });
});
