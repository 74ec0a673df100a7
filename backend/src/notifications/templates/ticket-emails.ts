import { BUSINESS_PROFILE, formatAddress, type NotificationType } from '@ppr/contracts';
import Handlebars from 'handlebars';

/**
 * The ticket emails and the staff alert as handlebars templates: an HTML and a plain-text part each, inside
 * one layout with the business profile in the footer. Templates live here as strings rather than .hbs files
 * so that `tsc -b` builds them into dist with nothing to copy.
 */

/** Everything a template may show about the ticket. */
export interface TicketEmailContext {
  readonly ticketId: number;
  readonly reference: string;
  readonly contactName: string;
  readonly businessName: string;
  readonly email: string;
  readonly phone: string;
  readonly serviceCategory: string;
  readonly issueDescription: string;
  readonly status: string;
  /** `$49.00` for a payment-received email. */
  readonly amount?: string;
  /** A link to the ticket in the admin portal (staff alert). */
  readonly adminUrl?: string;
  /** How the fee was settled (staff alert): 'paid $49.00', 'waived (free diagnostic)'. */
  readonly settlement?: string;
}

export type EmailTemplateName = NotificationType | 'staff-alert';

export interface RenderedEmail {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
}

const STATUS_LABELS: Record<string, string> = {
  pending_payment: 'Awaiting payment',
  active: 'Active',
  resolved: 'Resolved',
  canceled: 'Canceled',
};

const hbs = Handlebars.create();
// Handlebars also escapes `=` and backticks, which turns a link's query string into `?ticket&#x3D;1`: valid, but
// unreadable in the source of the message. Attribute values only need these five.
hbs.registerHelper('attr', (value: unknown) => new hbs.SafeString(String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)));
hbs.registerHelper('statusLabel', (status: unknown) => STATUS_LABELS[String(status)] ?? String(status));

const profile = {
  name: BUSINESS_PROFILE.name,
  phone: BUSINESS_PROFILE.phone,
  email: BUSINESS_PROFILE.email,
  address: formatAddress(BUSINESS_PROFILE),
  hours: BUSINESS_PROFILE.hours.map((h) => `${h.days} ${h.opens}-${h.closes}`).join(', '),
  siteUrl: BUSINESS_PROFILE.siteUrl,
  responsePromise: BUSINESS_PROFILE.responsePromise,
};

const HTML_LAYOUT = hbs.compile(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{subject}}</title></head>
<body style="margin:0;padding:0;background:#f4f6f8;font-family:Arial,Helvetica,sans-serif;color:#1f2933">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="background:#ffffff;border-radius:8px">
<tr><td style="padding:24px 32px;background:#0b3d91;color:#ffffff;border-radius:8px 8px 0 0"><strong style="font-size:20px">{{profile.name}}</strong></td></tr>
<tr><td style="padding:24px 32px;font-size:15px;line-height:1.5">{{{body}}}</td></tr>
<tr><td style="padding:16px 32px;font-size:12px;color:#52606d;border-top:1px solid #e4e7eb">
{{profile.name}} &middot; {{profile.address}}<br>
{{profile.phone}} &middot; <a href="mailto:{{profile.email}}">{{profile.email}}</a> &middot; <a href="{{profile.siteUrl}}">{{profile.siteUrl}}</a><br>
Hours: {{profile.hours}}
</td></tr></table></td></tr></table></body></html>`);

const TEXT_LAYOUT = hbs.compile(
  `{{{body}}}

--
{{{profile.name}}}, {{{profile.address}}}
{{{profile.phone}}} | {{{profile.email}}} | {{{profile.siteUrl}}}
Hours: {{{profile.hours}}}
`,
  { noEscape: true },
);

interface Template {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
}

const TEMPLATES: Record<EmailTemplateName, Template> = {
  'ticket-created': {
    subject: 'We received your support request {{reference}}',
    html: `<p>Hello {{contactName}},</p>
<p>Thank you for contacting {{profile.name}}. Your support request has been received.</p>
<p>Your reference: <strong>{{reference}}</strong></p>
<p><strong>{{profile.responsePromise}}</strong></p>
<p>Next steps:</p>
<ol>
<li>If you have not paid the diagnostic fee yet, complete the payment so that we can start.</li>
<li>A Systems Engineer calls you at {{phone}} within one hour of payment to diagnose the issue.</li>
<li>We keep you updated by email at every change of your request's status.</li>
</ol>
<p>Your request: {{issueDescription}}</p>
<p>Quote the reference {{reference}} whenever you contact us.</p>`,
    text: `Hello {{contactName}},

Thank you for contacting {{profile.name}}. Your support request has been received.

Your reference: {{reference}}

{{profile.responsePromise}}

Next steps:
1. If you have not paid the diagnostic fee yet, complete the payment so that we can start.
2. A Systems Engineer calls you at {{phone}} within one hour of payment to diagnose the issue.
3. We keep you updated by email at every change of your request's status.

Your request: {{issueDescription}}

Quote the reference {{reference}} whenever you contact us.`,
  },
  'payment-received': {
    subject: 'Payment received for {{reference}}',
    html: `<p>Hello {{contactName}},</p>
<p>We received your payment of <strong>{{amount}}</strong> for the diagnostic of request <strong>{{reference}}</strong>. It is credited toward the final bill.</p>
<p><strong>{{profile.responsePromise}}</strong></p>`,
    text: `Hello {{contactName}},

We received your payment of {{amount}} for the diagnostic of request {{reference}}. It is credited toward the final bill.

{{profile.responsePromise}}`,
  },
  'status-update': {
    subject: 'Update on your support request {{reference}}: {{statusLabel status}}',
    html: `<p>Hello {{contactName}},</p>
<p>The status of your support request <strong>{{reference}}</strong> is now <strong>{{statusLabel status}}</strong>.</p>
<p>Questions? Call us at {{profile.phone}} and quote {{reference}}.</p>`,
    text: `Hello {{contactName}},

The status of your support request {{reference}} is now {{statusLabel status}}.

Questions? Call us at {{profile.phone}} and quote {{reference}}.`,
  },
  resolved: {
    subject: 'Your support request {{reference}} is resolved',
    html: `<p>Hello {{contactName}},</p>
<p>Your support request <strong>{{reference}}</strong> has been resolved. Thank you for choosing {{profile.name}}.</p>
<p>If the problem comes back, reply to this email or call {{profile.phone}} and quote {{reference}}.</p>`,
    text: `Hello {{contactName}},

Your support request {{reference}} has been resolved. Thank you for choosing {{profile.name}}.

If the problem comes back, reply to this email or call {{profile.phone}} and quote {{reference}}.`,
  },
  'staff-alert': {
    subject: 'New support request {{reference}} ({{settlement}}): call back within one hour',
    html: `<p>A new support request was {{settlement}} and waits for a call-back within one hour.</p>
<table role="presentation" cellpadding="4" cellspacing="0">
<tr><td>Reference</td><td><strong>{{reference}}</strong></td></tr>
<tr><td>Contact</td><td>{{contactName}}, {{businessName}}</td></tr>
<tr><td>Phone</td><td>{{phone}}</td></tr>
<tr><td>Email</td><td>{{email}}</td></tr>
<tr><td>Category</td><td>{{serviceCategory}}</td></tr>
<tr><td>Issue</td><td>{{issueDescription}}</td></tr>
</table>
<p><a href="{{attr adminUrl}}">Open the ticket in the admin portal</a></p>`,
    text: `A new support request was {{settlement}} and waits for a call-back within one hour.

Reference: {{reference}}
Contact: {{contactName}}, {{businessName}}
Phone: {{phone}}
Email: {{email}}
Category: {{serviceCategory}}
Issue: {{issueDescription}}

Open the ticket in the admin portal: {{adminUrl}}`,
  },
};

interface Compiled {
  readonly subject: Handlebars.TemplateDelegate;
  readonly html: Handlebars.TemplateDelegate;
  readonly text: Handlebars.TemplateDelegate;
}

const COMPILED = Object.fromEntries(
  Object.entries(TEMPLATES).map(([name, t]) => [
    name,
    {
      // Subjects and plain text are not HTML: escaping would show `&amp;` to the reader.
      subject: hbs.compile(t.subject, { noEscape: true }),
      html: hbs.compile(t.html),
      text: hbs.compile(t.text, { noEscape: true }),
    },
  ]),
) as Record<EmailTemplateName, Compiled>;

export function renderEmail(name: EmailTemplateName, context: TicketEmailContext): RenderedEmail {
  const template = COMPILED[name];
  const data = { ...context, profile };
  const subject = template.subject(data).replace(/[\r\n]+/g, ' ');
  return {
    subject,
    html: HTML_LAYOUT({ subject, profile, body: template.html(data) }),
    text: TEXT_LAYOUT({ profile, body: template.text(data) }),
  };
}
