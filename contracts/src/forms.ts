import { z } from 'zod';
import { PAYMENT_STATUSES, TICKET_STATUSES } from './constants';
import { isServiceCategoryId } from './service-categories';

/**
 * Request bodies and form schemas, with the exact messages of the specification (section 5).
 * The frontend validates its forms with these schemas and the backend validates bodies with them,
 * so each message string exists once.
 */
export const messages = {
  businessNameRequired: 'Business name is required',
  contactNameRequired: 'Contact name is required',
  invalidEmail: 'Invalid email address',
  validEmail: 'Please enter a valid email address',
  phoneRequired: 'Phone number is required',
  validPhone: 'Please enter a valid phone number',
  serviceCategoryRequired: 'Service category is required',
  unknownServiceCategory: 'Please choose a service category from the list',
  issueDescription: 'Please provide a detailed description of the issue',
  nameRequired: 'Name is required',
  subjectRequired: 'Subject is required',
  messageLength: 'Message must be at least 10 characters',
  identifierRequired: 'Please enter your email or username',
  usernameRequired: 'Username is required',
  usernameLength: 'Username must be at least 3 characters',
  passwordRequired: 'Password is required',
  customerPasswordLength: 'Password must be at least 6 characters',
  adminPasswordLength: 'Password must be at least 8 characters',
  passwordsDoNotMatch: 'Passwords do not match',
  currentPasswordRequired: 'Current password is required',
  passwordUppercase: 'Password must contain at least one uppercase letter',
  passwordLowercase: 'Password must contain at least one lowercase letter',
  passwordNumber: 'Password must contain at least one number',
  confirmPasswordRequired: 'Please confirm your password',
  emailListRequired: 'Email list is required',
  emailContentRequired: 'Email content is required',
  noValidEmails: 'Please enter at least one valid email address',
  invalidFileType: 'Invalid file type',
  unsubscribeEmail: 'Please enter a valid email address',
  unsubscribeTokenOrEmail: 'Provide an unsubscribe token or an email address',
} as const;

/** A text field: the `required` message for a missing value, a type message for a non-string. */
function text(required: string, label: string) {
  return z.string({
    error: (issue) => (issue.input === undefined || issue.input === null ? required : `${label} must be text`),
  });
}

/**
 * A length limit that ends the field's checks when it fails: a pattern or format after it never runs on an
 * over-long value (a 100 KB string, as large as a body may be), whatever that pattern's cost.
 */
function maxLength(label: string, max: number): [number, { error: string; abort: true }] {
  return [max, { error: `${label} must be at most ${max} characters`, abort: true }];
}

/**
 * Digits and the usual separators, then an optional extension. Linear time: the extension's marker (`ext`, `x`)
 * is the only way out of the first class, so there is one way to match any string (the contracts' ReDoS test
 * checks every pattern). At least seven digits: `----------` is not a phone number.
 */
const PHONE_PATTERN = /^[0-9+().\-\s]+(?:(?:ext\.?|x)\s*\d{1,6})?$/i;
const PHONE_DIGITS = /(?:\d\D*){7}/;

/**
 * A customer's or an admin's username: no line breaks to forge log lines with, no invisible, bidirectional or
 * look-alike characters that make one person read as another in the history.
 */
const USERNAME_CHARACTERS: [RegExp, string] = [
  /^[A-Za-z0-9._-]+$/,
  'Username may contain only letters, numbers, dots, dashes and underscores',
];

/**
 * What a one-line field (a name, an address, a subject) never holds: C0 and C1 controls (line breaks, escape;
 * not a tab, which a paste from a spreadsheet brings: it is whitespace), DEL, the Unicode line and paragraph
 * separators, and the bidirectional embeddings, overrides and isolates, which make text read in another order
 * than it is stored (an override shows "gpj.exe" as "exe.jpg"): in the admin list, an email subject or a log
 * line they would forge or disguise what was sent.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is what this pattern is for
const NOT_ONE_LINE = new RegExp('[\\u0000-\\u0008\\u000a-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]');

/** The refinement of a one-line field, for `.refine(...oneLine('Business name'))`. */
export function oneLine(label: string): [(value: string) => boolean, string] {
  return [(value) => !NOT_ONE_LINE.test(value), `${label} must be one line of text, without control characters`];
}

const emailField = (message: string = messages.invalidEmail) =>
  text(message, 'Email')
    .trim()
    .max(...maxLength('Email', 100))
    .email(message);

export const supportRequestSchema = z.strictObject({
  businessName: text(messages.businessNameRequired, 'Business name')
    .trim()
    .min(1, messages.businessNameRequired)
    .max(...maxLength('Business name', 200))
    .refine(...oneLine('Business name')),
  contactName: text(messages.contactNameRequired, 'Contact name')
    .trim()
    .min(1, messages.contactNameRequired)
    .max(...maxLength('Contact name', 100))
    .refine(...oneLine('Contact name')),
  email: emailField(),
  phone: text(messages.phoneRequired, 'Phone number')
    .trim()
    .min(10, messages.phoneRequired)
    .max(...maxLength('Phone number', 30))
    .regex(PHONE_PATTERN, messages.validPhone)
    .regex(PHONE_DIGITS, messages.validPhone),
  address: text('Address must be text', 'Address')
    .trim()
    .max(...maxLength('Address', 300))
    .refine(...oneLine('Address'))
    .nullish(),
  serviceCategory: text(messages.serviceCategoryRequired, 'Service category')
    .trim()
    .min(1, messages.serviceCategoryRequired)
    .refine((value) => value.length === 0 || isServiceCategoryId(value), messages.unknownServiceCategory),
  issueDescription: text(messages.issueDescription, 'Issue description')
    .trim()
    .min(10, messages.issueDescription)
    .max(...maxLength('Issue description', 5000)),
  // Accepted for compatibility with the legacy client; the server decides these itself
  // (a visitor never sets a ticket's payment or status).
  userId: z.number().int().positive().nullish(),
  status: z.enum(TICKET_STATUSES).optional(),
  paymentStatus: z.enum([...PAYMENT_STATUSES, 'pending_payment']).optional(),
  paymentNotes: z.string().max(500).nullish(),
  adminNotes: z.string().max(5000).nullish(),
  stripePaymentIntentId: z.string().max(200).nullish(),
});
export type SupportRequest = z.infer<typeof supportRequestSchema>;
export type SupportRequestInput = z.input<typeof supportRequestSchema>;

export const contactFormSchema = z.strictObject({
  name: text(messages.nameRequired, 'Name')
    .trim()
    .min(2, messages.nameRequired)
    .max(...maxLength('Name', 100))
    .refine(...oneLine('Name')),
  email: emailField(),
  phone: text(messages.validPhone, 'Phone number')
    .trim()
    .min(10, messages.validPhone)
    .max(...maxLength('Phone number', 30))
    .regex(PHONE_PATTERN, messages.validPhone)
    .regex(PHONE_DIGITS, messages.validPhone),
  subject: text(messages.subjectRequired, 'Subject')
    .trim()
    .min(3, messages.subjectRequired)
    .max(...maxLength('Subject', 200))
    .refine(...oneLine('Subject')),
  message: text(messages.messageLength, 'Message')
    .trim()
    .min(10, messages.messageLength)
    .max(...maxLength('Message', 5000)),
});
export type ContactForm = z.infer<typeof contactFormSchema>;

const customerPassword = text(messages.customerPasswordLength, 'Password')
  .min(6, messages.customerPasswordLength)
  .max(...maxLength('Password', 200));

/** POST /api/customer/register (the API body has no confirmPassword). */
export const registerSchema = z.strictObject({
  username: text(messages.usernameLength, 'Username')
    .trim()
    .min(3, messages.usernameLength)
    .max(...maxLength('Username', 50))
    .regex(...USERNAME_CHARACTERS),
  email: emailField(),
  password: customerPassword,
  businessName: z
    .string()
    .trim()
    .max(...maxLength('Business name', 200))
    .refine(...oneLine('Business name'))
    .nullish(),
  phone: z
    .string()
    .trim()
    .max(...maxLength('Phone number', 30))
    .refine(...oneLine('Phone number'))
    .nullish(),
  address: z
    .string()
    .trim()
    .max(...maxLength('Address', 300))
    .refine(...oneLine('Address'))
    .nullish(),
});
export type RegisterRequest = z.infer<typeof registerSchema>;

/** The registration form: the API body plus the confirmation field. */
export const registerFormSchema = registerSchema
  .extend({ confirmPassword: z.string() })
  .refine((form) => form.password === form.confirmPassword, {
    message: messages.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });
export type RegisterForm = z.infer<typeof registerFormSchema>;

/** POST /api/customer/login: `email` carries an email address or a username. */
export const customerLoginSchema = z.strictObject({
  email: text(messages.identifierRequired, 'Email or username')
    .trim()
    .min(1, messages.identifierRequired)
    .max(...maxLength('Email or username', 100)),
  password: customerPassword,
});
export type CustomerLogin = z.infer<typeof customerLoginSchema>;

export const adminLoginSchema = z.strictObject({
  username: text(messages.usernameRequired, 'Username')
    .trim()
    .min(1, messages.usernameRequired)
    .max(...maxLength('Username', 50)),
  password: text(messages.passwordRequired, 'Password').min(1, messages.passwordRequired).max(200),
});
export type AdminLogin = z.infer<typeof adminLoginSchema>;

const adminPassword = text(messages.adminPasswordLength, 'Password')
  .min(8, messages.adminPasswordLength)
  .max(...maxLength('Password', 200));

/** POST /api/admin/create: the first admin account (role is always admin). */
export const adminSetupSchema = z.strictObject({
  username: text(messages.usernameLength, 'Username')
    .trim()
    .min(3, messages.usernameLength)
    .max(...maxLength('Username', 50))
    .regex(...USERNAME_CHARACTERS),
  email: emailField(messages.validEmail),
  password: adminPassword,
  role: z.literal('admin').optional(),
});
export type AdminSetup = z.infer<typeof adminSetupSchema>;

export const adminSetupFormSchema = adminSetupSchema
  .extend({ confirmPassword: z.string() })
  .refine((form) => form.password === form.confirmPassword, {
    message: messages.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });

const strongPassword = adminPassword
  .regex(/[A-Z]/, messages.passwordUppercase)
  .regex(/[a-z]/, messages.passwordLowercase)
  .regex(/[0-9]/, messages.passwordNumber);

/** POST /api/admin/change-password. */
export const changePasswordSchema = z.strictObject({
  currentPassword: text(messages.currentPasswordRequired, 'Current password').min(1, messages.currentPasswordRequired).max(200),
  newPassword: strongPassword,
});
export type ChangePassword = z.infer<typeof changePasswordSchema>;

export const changePasswordFormSchema = changePasswordSchema
  .extend({
    confirmPassword: text(messages.confirmPasswordRequired, 'Confirmation').min(1, messages.confirmPasswordRequired),
  })
  .refine((form) => form.newPassword === form.confirmPassword, {
    message: messages.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });

/** Splits a pasted list on whitespace, commas and semicolons and keeps the valid, distinct addresses. */
export function parseEmailList(list: string): string[] {
  const seen = new Set<string>();
  for (const candidate of list.split(/[\s,;]+/)) {
    const email = candidate.trim();
    if (email && z.email().safeParse(email).success) seen.add(email);
  }
  return [...seen];
}

/** The marketing compose form, where the list is typed or pasted as text. */
export const marketingFormSchema = z.object({
  subject: z
    .string()
    .trim()
    .min(1, messages.subjectRequired)
    .refine(...oneLine('Subject')),
  emailList: z
    .string()
    .trim()
    .min(1, messages.emailListRequired)
    .refine((list) => parseEmailList(list).length > 0, messages.noValidEmails),
  content: z.string().min(1, messages.emailContentRequired),
});

export function isHtmlFileName(name: string): boolean {
  return /\.html?$/i.test(name);
}

/** POST /api/unsubscribe: either the token from an email link or an email address. */
export const unsubscribeSchema = z
  .strictObject({
    token: z.string().trim().min(1).max(200).optional(),
    email: z
      .string()
      .trim()
      .max(100)
      .refine((value) => value.includes('@'), messages.unsubscribeEmail)
      .optional(),
  })
  .refine((body) => body.token !== undefined || body.email !== undefined, messages.unsubscribeTokenOrEmail);
export type UnsubscribeRequest = z.infer<typeof unsubscribeSchema>;

/** The manual unsubscribe form on /unsubscribe. */
export const unsubscribeFormSchema = z.object({
  email: z
    .string()
    .trim()
    .refine((value) => value.includes('@'), messages.unsubscribeEmail),
});
