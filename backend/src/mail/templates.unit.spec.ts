import { readdirSync } from 'node:fs';
import path from 'node:path';
import { BUSINESS_PROFILE } from '@ppr/contracts';
import { sampleEmails } from '../../scripts/emails-preview';
import { escapeHtml } from './html';
import { loadMailTemplates, MAIL_TEMPLATES, MAIL_TEMPLATES_DIR, renderMailTemplate } from './templates';

/** Text a customer could type that means something in HTML. */
const TYPED = `Tom "Tiny" O'Neil <b>&</b>`;

describe('the email templates', () => {
  // A name a template uses and its context lacks fails here instead of leaving a gap in an email.
  beforeAll(() => loadMailTemplates({ strict: true }));
  afterAll(() => loadMailTemplates());

  it('are the files of the templates folder: a subject, an HTML and a text part for each email, on one layout', () => {
    const files = readdirSync(MAIL_TEMPLATES_DIR).filter((file) => file !== 'partials');
    const expected = [
      'layout.html.hbs',
      'layout.text.hbs',
      ...MAIL_TEMPLATES.flatMap((name) => ['subject', 'html', 'text'].map((part) => `${name}.${part}.hbs`)),
    ];
    expect(files.sort()).toEqual(expected.sort());
    for (const partial of readdirSync(path.join(MAIL_TEMPLATES_DIR, 'partials'))) expect(partial).toMatch(/\.(html|text)\.hbs$/);
  });

  it('render every email from the samples (the ones npm run emails:preview shows)', () => {
    const samples = sampleEmails();
    expect(samples.map((sample) => sample.name).sort()).toEqual([...MAIL_TEMPLATES].sort());
    for (const { name, email } of samples) {
      expect({ name, subject: email.subject }).toEqual({ name, subject: expect.stringMatching(/^\S[^\r\n]*\S$/) });
      expect(email.html).toMatch(/^<!doctype html>\n<html lang="en">[\s\S]*<\/html>$/);
      expect(email.html).toContain(`<title>${escapeHtml(email.subject)}</title>`);
      expect(email.text.trim()).not.toBe('');
    }
  });

  it('leave nothing unresolved: no {{, }}, undefined or [object Object] in any part', () => {
    for (const { name, email } of [...sampleEmails(), ...sampleEmails(TYPED)]) {
      for (const part of [email.subject, email.html, email.text]) {
        expect({ name, part }).toEqual({ name, part: expect.not.stringMatching(/\{\{|\}\}|undefined|\[object Object\]/) });
      }
    }
  });

  it('put the layout footer (business name, address, phone, email) in both parts of every email', () => {
    for (const { name, email } of sampleEmails()) {
      for (const part of [email.html, email.text]) {
        for (const fact of [BUSINESS_PROFILE.name, BUSINESS_PROFILE.phone, BUSINESS_PROFILE.address.street, BUSINESS_PROFILE.email]) {
          expect({ name, part }).toEqual({ name, part: expect.stringContaining(fact) });
        }
      }
      expect(email.text).toMatch(/\n\n--\nPotomac PC Repair, [^\n]+\n\(703\) 555-0148 \| [^\n]+\nHours: [^\n]+\n$/);
    }
  });

  it('escape what a customer typed in the HTML part, and keep it as typed in the text part and the subject', () => {
    const escaped = 'Tom &quot;Tiny&quot; O&#x27;Neil &lt;b&gt;&amp;&lt;/b&gt;';
    for (const { name, showsUserText, email } of sampleEmails(TYPED)) {
      if (!showsUserText) continue;
      expect({ name, html: email.html }).toEqual({ name, html: expect.stringContaining(escaped) });
      expect({ name, html: email.html }).toEqual({ name, html: expect.not.stringContaining(TYPED) });
      expect({ name, text: email.text }).toEqual({ name, text: expect.stringContaining(TYPED) });
      expect({ name, text: email.text }).toEqual({ name, text: expect.not.stringMatching(/&(quot|amp|lt|gt|#x27);/) });
    }
    const contact = sampleEmails(TYPED).find((sample) => sample.name === 'contact-message')!;
    expect(contact.email.subject).toBe(`Contact form: ${TYPED}`);
  });

  it('have no markup in the text parts', () => {
    for (const { name, email } of sampleEmails()) {
      expect({ name, text: email.text }).toEqual({ name, text: expect.not.stringMatching(/<\/?[a-z][^>]*>|&[a-z]+;/i) });
    }
  });

  it('write links as they are in attributes (no &#x3D; in a query string), escaped where they must be', () => {
    const alert = renderMailTemplate('staff-alert', {
      ...Object.fromEntries(
        ['reference', 'contactName', 'businessName', 'phone', 'email', 'serviceCategory', 'issueDescription'].map((k) => [k, k]),
      ),
      settlement: 'paid ($49.00)',
      adminUrl: 'https://x.example/admin/dashboard?ticket=1042&view="x"',
    });
    expect(alert.html).toContain('href="https://x.example/admin/dashboard?ticket=1042&#38;view=&#34;x&#34;"');
    expect(alert.text).toContain('https://x.example/admin/dashboard?ticket=1042&view="x"');
    const verification = sampleEmails().find((sample) => sample.name === 'account-verification')!;
    expect(verification.email.html).toContain('href="https://www.potomacpcrepair.com/api/customer/verify-email?token=sample-token"');
    expect(verification.email.text).toMatch(/^https:\/\/www\.potomacpcrepair\.com\/api\/customer\/verify-email\?token=sample-token$/m);
  });

  it('leave a subject on one line, whatever the context holds', () => {
    const contact = sampleEmails(`Line one\r\nBcc: someone@example.com`).find((sample) => sample.name === 'contact-message')!;
    expect(contact.email.subject).toBe('Contact form: Line one Bcc: someone@example.com');
  });
});
