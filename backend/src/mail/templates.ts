import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { BUSINESS_PROFILE, formatAddress } from '@ppr/contracts';
import Handlebars from 'handlebars';

/**
 * Every email the app sends, rendered one way: Handlebars template files in `templates/`, one layout for all.
 *
 *   templates/<name>.subject.hbs   the subject line (plain text)
 *   templates/<name>.html.hbs      the HTML part's body, inside layout.html.hbs
 *   templates/<name>.text.hbs      the plain-text part's body, inside layout.text.hbs
 *   templates/partials/*.hbs       partials, by file name: `{{> footer.html}}`, `{{> button.html label=... url=...}}`
 *
 * The HTML part escapes every `{{value}}`; subjects and plain-text parts are compiled with `noEscape` (an `&amp;`
 * there would be shown as it is). In an attribute, `{{attr value}}` escapes only what an attribute needs.
 * Every template sees `profile` (the business profile, which the layout's footer shows) beside its own context.
 *
 * The files are read and compiled once, at the first render. They are not TypeScript, so `tsc` does not copy
 * them into dist: they are read from the source folder (backend/src/mail/templates) whether this module runs
 * from src (tests, scripts) or from dist (the built app; the Dockerfile copies the folder into the image).
 *
 * `@nestjs-modules/mailer`'s HandlebarsAdapter is not used: it is a nodemailer compile hook that renders a
 * template while a message is sent, into its HTML part only, whereas an email is rendered when it is planned
 * (the rendered parts are stored in its outbox job) and has a subject and a plain-text part too.
 */

/** Every template, by the name of its files. */
export const MAIL_TEMPLATES = [
  'ticket-created',
  'payment-received',
  'status-update',
  'resolved',
  'staff-alert',
  'ticket-reply',
  'customer-message',
  'account-verification',
  'account-exists',
  'password-reset',
  'password-changed',
  'contact-message',
] as const;
export type MailTemplateName = (typeof MAIL_TEMPLATES)[number];

export interface RenderedEmail {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
}

/** backend/src/mail/templates, from backend/src/mail (sources) and from backend/dist/mail (the build) alike. */
export const MAIL_TEMPLATES_DIR = path.resolve(__dirname, '../../src/mail/templates');

/** What every template may show of the business: the layout's footer, greetings, call-us lines. */
const profile = {
  name: BUSINESS_PROFILE.name,
  phone: BUSINESS_PROFILE.phone,
  email: BUSINESS_PROFILE.email,
  address: formatAddress(BUSINESS_PROFILE),
  hours: BUSINESS_PROFILE.hours.map((h) => `${h.days} ${h.opens}-${h.closes}`).join(', '),
  siteUrl: BUSINESS_PROFILE.siteUrl,
  responsePromise: BUSINESS_PROFILE.responsePromise,
};

type Template = Handlebars.TemplateDelegate;

interface Compiled {
  readonly layout: { readonly html: Template; readonly text: Template };
  readonly templates: Record<MailTemplateName, { readonly subject: Template; readonly html: Template; readonly text: Template }>;
}

let compiled: Compiled | undefined;

/**
 * Reads and compiles the templates now (renderMailTemplate does at its first call). `strict` (tests, the
 * preview): a name that a template uses and its context lacks is an error instead of an empty string.
 */
export function loadMailTemplates(options: { readonly strict?: boolean } = {}): void {
  compiled = compile(options.strict ?? false);
}

/** A file's text without the newline it ends with (an editor's, not the email's). */
function read(file: string): string {
  return readFileSync(path.join(MAIL_TEMPLATES_DIR, file), 'utf8').replace(/\r\n/g, '\n').replace(/\n$/, '');
}

function compile(strict: boolean): Compiled {
  if (!existsSync(path.join(MAIL_TEMPLATES_DIR, 'layout.html.hbs'))) {
    throw new Error(
      `The email templates are not in ${MAIL_TEMPLATES_DIR} (an image or copy of the build without backend/src/mail/templates?)`,
    );
  }
  const hbs = Handlebars.create();
  // Handlebars also escapes `=` and backticks, which turns a link's query string into `?ticket&#x3D;1`: valid, but
  // unreadable in the source of the message. Attribute values only need these five.
  hbs.registerHelper('attr', (value: unknown) => new hbs.SafeString(String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)));
  const html = (source: string): Template => hbs.compile(source, { strict });
  const text = (source: string): Template => hbs.compile(source, { strict, noEscape: true });

  for (const file of readdirSync(path.join(MAIL_TEMPLATES_DIR, 'partials'))) {
    const match = /^(.+)\.(html|text)\.hbs$/.exec(file);
    if (!match) throw new Error(`Mail template partial ${file}: the name must end in .html.hbs or .text.hbs`);
    // A partial keeps its final newline: a `{{> partial}}` alone on its line replaces the whole line.
    const source = readFileSync(path.join(MAIL_TEMPLATES_DIR, 'partials', file), 'utf8').replace(/\r\n/g, '\n');
    hbs.registerPartial(`${match[1]}.${match[2]}`, match[2] === 'html' ? html(source) : text(source));
  }
  return {
    layout: { html: html(read('layout.html.hbs')), text: text(read('layout.text.hbs')) },
    templates: Object.fromEntries(
      MAIL_TEMPLATES.map((name) => [
        name,
        { subject: text(read(`${name}.subject.hbs`)), html: html(read(`${name}.html.hbs`)), text: text(read(`${name}.text.hbs`)) },
      ]),
    ) as Compiled['templates'],
  };
}

/**
 * The subject, HTML and plain-text parts of one email. `context` holds the template's data as it is (the HTML
 * part escapes it); `profile` is added. A name the context lacks shows as nothing (see loadMailTemplates).
 */
export function renderMailTemplate(name: MailTemplateName, context: Readonly<Record<string, unknown>>): RenderedEmail {
  compiled ??= compile(false);
  const template = compiled.templates[name];
  const data = { ...context, profile };
  const subject = template
    .subject(data)
    .trim()
    .replace(/\s*[\r\n]+\s*/g, ' ');
  return {
    subject,
    // trimEnd: a body that ends in an {{#if}} block keeps the block's last newline; the layout spaces the footer.
    html: compiled.layout.html({ ...data, subject, body: template.html(data).trimEnd() }),
    text: compiled.layout.text({ ...data, subject, body: template.text(data).trimEnd() }),
  };
}
