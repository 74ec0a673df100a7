/**
 * Every email the app sends, rendered with sample data into a folder to look at in a browser: `<name>.html`
 * and `<name>.txt` per email (the template files' names, backend/src/mail/templates) and an index.html.
 *
 *   npm run emails:preview                 writes backend/.email-preview/ (git ignores it)
 *   npm run emails:preview -- <folder>     writes that folder instead
 *
 * The emails are rendered through the functions the app calls (renderEmail, the account emails,
 * contactStaffEmail), so what is previewed is what is sent. src/mail/templates.unit.spec.ts renders the same
 * samples.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ContactMessage } from '@ppr/contracts';
import { alreadyRegisteredEmail, passwordChangedEmail, passwordResetEmail, verificationEmail } from '../src/accounts/account-emails';
import { contactStaffEmail } from '../src/contact/contact-email';
import { escapeHtml } from '../src/mail/html';
import type { MailMessage } from '../src/mail/mail.types';
import { loadMailTemplates, type MailTemplateName, type RenderedEmail } from '../src/mail/templates';
import { renderEmail, type TicketEmailContext } from '../src/notifications/templates/ticket-emails';

export const EMAIL_PREVIEW_DIR = path.resolve(__dirname, '../.email-preview');

export interface SampleEmail {
  /** The template's name, also the preview's file name. */
  readonly name: MailTemplateName;
  /** Whether the email shows text a customer or visitor typed (it then shows `userText` when given). */
  readonly showsUserText: boolean;
  readonly email: RenderedEmail;
}

const BASE_URL = 'https://www.potomacpcrepair.com';

/**
 * Every email with sample data. With `userText`, every field a customer or visitor types (names, the issue,
 * the contact message) is that text instead, e.g. markup to see that the HTML part escapes it.
 */
export function sampleEmails(userText?: string): SampleEmail[] {
  const typed = (sample: string): string => userText ?? sample;
  const ticket: TicketEmailContext = {
    ticketId: 1042,
    reference: 'PPR-2026-1042',
    contactName: typed('Maya Chen'),
    businessName: typed('Chen & Partners Dental'),
    email: 'maya@example.com',
    phone: '(301) 555-0123',
    serviceCategory: 'Network & Wi-Fi',
    issueDescription: typed('The front-desk printer shows "offline" and the Wi-Fi drops every few minutes.'),
    status: 'active',
  };
  const contact: ContactMessage = {
    id: 318,
    name: typed('Jordan Blake'),
    email: 'jordan@example.com',
    phone: '(202) 555-0147',
    subject: typed('Quote for 12 laptops'),
    message: typed('Hello,\nwe are opening a second office in Bethesda & need 12 laptops set up.\nCan you send a quote?'),
    createdAt: '2026-03-04T15:16:17.000Z',
  };
  const account = (email: MailMessage): RenderedEmail => ({
    subject: email.subject,
    html: email.html ?? '',
    text: email.text,
  });
  return [
    { name: 'ticket-created', showsUserText: true, email: renderEmail('ticket-created', { ...ticket, status: 'pending_payment' }) },
    { name: 'payment-received', showsUserText: true, email: renderEmail('payment-received', { ...ticket, amount: '$49.00' }) },
    { name: 'status-update', showsUserText: true, email: renderEmail('status-update', ticket) },
    { name: 'resolved', showsUserText: true, email: renderEmail('resolved', { ...ticket, status: 'resolved' }) },
    {
      name: 'staff-alert',
      showsUserText: true,
      email: renderEmail('staff-alert', {
        ...ticket,
        settlement: 'paid ($49.00)',
        adminUrl: `${BASE_URL}/admin/dashboard?ticket=1042`,
      }),
    },
    {
      name: 'ticket-reply',
      showsUserText: true,
      email: renderEmail('ticket-reply', {
        ...ticket,
        message: {
          authorName: 'sam',
          body: 'We replaced the access point in the back office.\nCould you check that the printer stays online this afternoon?',
          attachmentCount: 1,
          attachmentsPlural: false,
          byEmail: false,
        },
        earlier: [
          {
            authorName: typed('Maya Chen'),
            body: typed('It dropped again at 2 PM & took the card reader with it.'),
            when: 'Mar 4, 2026, 2:05 PM',
          },
        ],
        ticketUrl: `${BASE_URL}/ticket/1042`,
        replyByEmail: true,
      }),
    },
    {
      name: 'customer-message',
      showsUserText: true,
      email: renderEmail('customer-message', {
        ...ticket,
        message: {
          authorName: typed('Maya Chen'),
          body: typed('It dropped again at 2 PM & took the card reader with it.'),
          attachmentCount: 2,
          attachmentsPlural: true,
          byEmail: true,
        },
        reopened: true,
        adminUrl: `${BASE_URL}/admin/dashboard?ticket=1042`,
      }),
    },
    {
      name: 'account-verification',
      showsUserText: true,
      email: account(
        verificationEmail('maya@example.com', typed('maya_chen'), `${BASE_URL}/api/customer/verify-email?token=sample-token`, 24),
      ),
    },
    {
      name: 'account-exists',
      showsUserText: false,
      email: account(alreadyRegisteredEmail('maya@example.com', `${BASE_URL}/customer/login`, `${BASE_URL}/customer/forgot-password`)),
    },
    {
      name: 'password-reset',
      showsUserText: false,
      email: account(passwordResetEmail('maya@example.com', `${BASE_URL}/customer/reset-password?token=sample-token`, 30)),
    },
    { name: 'password-changed', showsUserText: false, email: account(passwordChangedEmail('maya@example.com')) },
    { name: 'contact-message', showsUserText: true, email: contactStaffEmail(contact, BASE_URL) },
  ];
}

function indexPage(emails: readonly SampleEmail[]): string {
  const rows = emails.map(
    ({ name, email }) =>
      `<tr><td>${name}</td><td>${escapeHtml(email.subject)}</td><td><a href="${name}.html">HTML</a></td><td><a href="${name}.txt">text</a></td></tr>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Email preview</title>
<style>body{font-family:Arial,Helvetica,sans-serif;margin:24px}td,th{padding:4px 12px;text-align:left}</style></head>
<body><h1>Email preview</h1>
<p>Every email, rendered with sample data from the templates in backend/src/mail/templates (npm run emails:preview).</p>
<table><tr><th>template</th><th>subject</th><th></th><th></th></tr>
${rows.join('\n')}
</table></body></html>
`;
}

/** Writes the preview into `dir`; returns the emails it holds. */
export function writeEmailPreview(dir: string): SampleEmail[] {
  // A name a template uses and its sample lacks is an error here, not an empty spot in the preview.
  loadMailTemplates({ strict: true });
  const emails = sampleEmails();
  mkdirSync(dir, { recursive: true });
  for (const { name, email } of emails) {
    writeFileSync(path.join(dir, `${name}.html`), email.html);
    writeFileSync(path.join(dir, `${name}.txt`), `Subject: ${email.subject}\n\n${email.text}`);
  }
  writeFileSync(path.join(dir, 'index.html'), indexPage(emails));
  return emails;
}

if (require.main === module) {
  // npm runs the script in backend/: a folder given relative is relative to where npm was started.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const dir = process.argv[2] ? path.resolve(cwd, process.argv[2]) : EMAIL_PREVIEW_DIR;
  const emails = writeEmailPreview(dir);
  console.log(`Wrote ${emails.length} emails (an .html and a .txt file each) and index.html to ${dir}`);
  console.log(`Open file://${path.join(dir, 'index.html')}`);
}
