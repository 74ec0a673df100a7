import {
  adminSetupFormSchema,
  changePasswordFormSchema,
  contactFormSchema,
  customerLoginSchema,
  marketingFormSchema,
  messages,
  parseEmailList,
  registerFormSchema,
  registerSchema,
  supportRequestSchema,
  unsubscribeFormSchema,
  unsubscribeSchema,
} from './forms';
import type { z } from 'zod';
import { createEngineerSchema } from './admin';
import { marketingSendSchema, testMarketingEmailSchema } from './marketing';

function errorsOf(schema: z.ZodType, value: unknown): Record<string, string> {
  const result = schema.safeParse(value);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[issue.path.join('.')] ??= issue.message;
  return errors;
}

describe('form schemas carry the messages of the specification', () => {
  it('contact form', () => {
    expect(errorsOf(contactFormSchema, { name: 'A', email: 'x', phone: '123', subject: 'Hi', message: 'short' })).toEqual({
      name: 'Name is required',
      email: 'Invalid email address',
      phone: 'Please enter a valid phone number',
      subject: 'Subject is required',
      message: 'Message must be at least 10 characters',
    });
  });

  it('phone numbers: separators and an extension, at least seven digits, the length checked before the pattern', () => {
    const request = {
      businessName: 'Arlington Dental',
      contactName: 'Jordan Reyes',
      email: 'jordan@example.com',
      serviceCategory: 'windows',
      issueDescription: 'The computer does not start.',
    };
    for (const phone of ['(703) 555-0111', '+1 703.555.0111', '703-555-0111 ext. 42', '7035550111x7', '+44 20 7946 0958'])
      expect(errorsOf(supportRequestSchema, { ...request, phone })).toEqual({});
    for (const phone of ['----------', '(((((())))))', '+1 (703) 55', '703-555-0111 ext', '703-555-0111 x 1234567'])
      expect(errorsOf(supportRequestSchema, { ...request, phone })).toEqual({ phone: 'Please enter a valid phone number' });
    // An over-long value gets the length message alone: no pattern ran on it.
    const issues = supportRequestSchema.safeParse({ ...request, phone: `1${' '.repeat(95_000)}x` }).error?.issues ?? [];
    expect(issues.map((issue) => issue.message)).toEqual(['Phone number must be at most 30 characters']);
    const contact = { name: 'Jordan', email: 'jordan@example.com', subject: 'Hello', message: 'A message of some length.' };
    expect(errorsOf(contactFormSchema, { ...contact, phone: '----------' })).toEqual({ phone: 'Please enter a valid phone number' });
    expect(contactFormSchema.safeParse({ ...contact, phone: '7'.repeat(31) + 'a' }).error?.issues.map((issue) => issue.message)).toEqual([
      'Phone number must be at most 30 characters',
    ]);
  });

  it('registration form', () => {
    expect(errorsOf(registerFormSchema, { username: 'ab', email: 'nope', password: '12345', confirmPassword: '12345' })).toEqual({
      username: 'Username must be at least 3 characters',
      email: 'Invalid email address',
      password: 'Password must be at least 6 characters',
    });
    expect(
      errorsOf(registerFormSchema, { username: 'dana', email: 'dana@example.com', password: 'secret1', confirmPassword: 'secret2' }),
    ).toEqual({ confirmPassword: 'Passwords do not match' });
  });

  it('customer login', () => {
    expect(errorsOf(customerLoginSchema, { email: '', password: '123' })).toEqual({
      email: 'Please enter your email or username',
      password: 'Password must be at least 6 characters',
    });
  });

  it('admin setup form', () => {
    expect(errorsOf(adminSetupFormSchema, { username: 'ad', email: 'x', password: 'short', confirmPassword: 'short' })).toEqual({
      username: 'Username must be at least 3 characters',
      email: 'Please enter a valid email address',
      password: 'Password must be at least 8 characters',
    });
    expect(
      errorsOf(adminSetupFormSchema, { username: 'admin', email: 'a@b.co', password: 'longenough', confirmPassword: 'different' }),
    ).toEqual({ confirmPassword: messages.passwordsDoNotMatch });
  });

  it.each([
    ['Ab1', messages.adminPasswordLength],
    ['lowercase1', messages.passwordUppercase],
    ['UPPERCASE1', messages.passwordLowercase],
    ['NoNumberHere', messages.passwordNumber],
  ])('change password: %s -> %s', (newPassword, message) => {
    expect(errorsOf(changePasswordFormSchema, { currentPassword: 'old', newPassword, confirmPassword: newPassword })).toEqual({
      newPassword: message,
    });
  });

  it('change password: required fields and confirmation', () => {
    expect(errorsOf(changePasswordFormSchema, { currentPassword: '', newPassword: 'Valid123', confirmPassword: '' })).toEqual({
      currentPassword: 'Current password is required',
      confirmPassword: 'Please confirm your password',
    });
    expect(errorsOf(changePasswordFormSchema, { currentPassword: 'old', newPassword: 'Valid123', confirmPassword: 'Valid124' })).toEqual({
      confirmPassword: 'Passwords do not match',
    });
  });

  it('marketing email', () => {
    expect(errorsOf(marketingFormSchema, { subject: '', emailList: '', content: '' })).toEqual({
      subject: 'Subject is required',
      emailList: 'Email list is required',
      content: 'Email content is required',
    });
    expect(errorsOf(marketingFormSchema, { subject: 'Hi', emailList: 'nobody, at all', content: 'x' })).toEqual({
      emailList: 'Please enter at least one valid email address',
    });
  });

  it('splits an email list on whitespace, commas and semicolons, keeping valid distinct addresses', () => {
    expect(parseEmailList('a@example.com, b@example.com;c@example.com\n\tnot-an-email a@example.com')).toEqual([
      'a@example.com',
      'b@example.com',
      'c@example.com',
    ]);
  });

  it('unsubscribe', () => {
    expect(errorsOf(unsubscribeFormSchema, { email: 'nobody' })).toEqual({ email: 'Please enter a valid email address' });
    expect(unsubscribeSchema.safeParse({ token: 'abc' }).success).toBe(true);
    expect(unsubscribeSchema.safeParse({ email: 'a@b.co' }).success).toBe(true);
    expect(errorsOf(unsubscribeSchema, {})).toEqual({ '': messages.unsubscribeTokenOrEmail });
  });

  it('one-line fields refuse line breaks, control characters and bidirectional overrides; other Unicode is text', () => {
    const ticket = {
      businessName: 'Arlington Dental',
      contactName: 'Jordan Reyes',
      email: 'jordan@example.com',
      phone: '(703) 555-0111',
      serviceCategory: 'windows',
      issueDescription: 'The computer does not start.\nIt beeps three times.',
    };
    const contact = {
      name: 'Jordan',
      email: 'jordan@example.com',
      phone: '(703) 555-0111',
      subject: 'Hello',
      message: 'Line one.\nLine two.',
    };
    const fields: [z.ZodType, Record<string, unknown>, string, string][] = [
      [supportRequestSchema, ticket, 'businessName', 'Business name'],
      [supportRequestSchema, ticket, 'contactName', 'Contact name'],
      [supportRequestSchema, ticket, 'address', 'Address'],
      [contactFormSchema, contact, 'name', 'Name'],
      [contactFormSchema, contact, 'subject', 'Subject'],
      [registerSchema, { username: 'jordan', email: 'jordan@example.com', password: 'secret12' }, 'businessName', 'Business name'],
      [registerSchema, { username: 'jordan', email: 'jordan@example.com', password: 'secret12' }, 'address', 'Address'],
      [registerSchema, { username: 'jordan', email: 'jordan@example.com', password: 'secret12' }, 'phone', 'Phone number'],
      [marketingSendSchema, { content: '<p>Hi</p>', emails: ['a@example.com'] }, 'subject', 'Subject'],
      [testMarketingEmailSchema, { content: '<p>Hi</p>', testEmail: 'a@example.com' }, 'subject', 'Subject'],
      [marketingFormSchema, { content: '<p>Hi</p>', emailList: 'a@example.com' }, 'subject', 'Subject'],
      [createEngineerSchema, { email: 'sam@example.com' }, 'name', 'Name'],
    ];
    const refused = [
      'Acme\nDental',
      'Acme\r\nBcc: x@example.com',
      'Acme\u001b[31m',
      'Acme\u0085Dental',
      'Acme\u2028Dental',
      'Invoice\u202Egpj.exe',
      'A\u2066B\u2069',
    ];
    for (const [schema, base, field, label] of fields) {
      for (const value of refused) {
        expect({ field, value, errors: errorsOf(schema, { ...base, [field]: value }) }).toEqual({
          field,
          value,
          errors: { [field]: `${label} must be one line of text, without control characters` },
        });
      }
      // Accents, emoji, typographic quotes, right-to-left scripts, and line breaks trimmed from the ends.
      for (const value of [
        'Ünïcødé “Dental” 🙂',
        'مطبعة الشرق',
        'Acme\tDental',
        `${field === 'phone' ? '703 555 0111' : 'Acme Dental'}\n`,
      ]) {
        expect({ field, value, errors: errorsOf(schema, { ...base, [field]: value }) }).toEqual({ field, value, errors: {} });
      }
    }
  });
});
