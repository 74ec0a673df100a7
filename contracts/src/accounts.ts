import { z } from 'zod';
import { customerUserSchema, ticketDetailSchema } from './api';
import { messages } from './forms';

/**
 * Customer-account bodies and answers beyond the spec's own forms: email verification, password reset, the
 * answers of the account endpoints. The spec shows only the links to these screens; the wording is ours.
 */
export const accountMessages = {
  tokenRequired: 'The link is missing its token',
  usernameTaken: 'Username is already taken',
  registered: 'Thanks for registering. Check your email for a link to verify your address, then log in.',
  invalidCredentials: 'Invalid email/username or password',
  tooManyLoginAttempts: 'Too many login attempts. Please wait {minutes} minutes and try again.',
  tooManyRequests: 'Too many requests from your network. Please wait a while and try again.',
  notLoggedIn: 'Please log in to continue',
  loggedOut: 'You have been logged out',
  emailVerified: 'Your email address is verified. You can now log in.',
  alreadyVerified: 'Your email address is already verified',
  verificationSent: 'We have sent a new verification link to your email address',
  verificationInvalid: 'This verification link is not valid or has already been used.',
  verificationExpired: 'This verification link has expired. Log in and ask for a new one.',
  verifyBeforeLinking: 'Please verify your email address before linking earlier requests to your account.',
  verificationNeedsPassword:
    "To confirm that you created this account, open the link in the browser you registered with, or enter the account's password.",
  verificationWrongPassword: 'That is not the password of this account. Enter the password you chose when you registered.',
  verificationAddressTaken: 'This email address is already verified for another account. Log in with that account, or reset its password.',
  passwordTooCommon: 'This password is one of the most common passwords. Please choose a less common one.',
  passwordIsIdentity: 'Password must not be your username or email address',
  passwordOneCharacter: 'Password must not be a single character repeated',
  forgotPasswordSent: 'If an account uses that email address, we have sent it a link to reset the password.',
  resetInvalid: 'This password reset link is not valid or has already been used. Please ask for a new one.',
  resetExpired: 'This password reset link has expired. Please ask for a new one.',
  passwordChanged: 'Your password has been changed. You can now log in with it.',
  unsubscribeTokenUnknown: 'This unsubscribe link is not valid. Enter your email address to unsubscribe.',
  unsubscribed: 'You have been unsubscribed and will receive no more marketing emails.',
  csrfHeader: 'This request was refused: it must be sent by the website itself (X-Requested-With header missing).',
  csrfOrigin: 'This request was refused: it came from another website.',
  sessionUnavailable: 'Your session could not be loaded just now. Please try again in a moment.',
} as const;

const token = z
  .string({ error: accountMessages.tokenRequired })
  .trim()
  .min(1, accountMessages.tokenRequired)
  .max(200, accountMessages.tokenRequired);

/**
 * POST /api/customer/verify-email: the token from the emailed link, and the account's password when the
 * browser is not the one that registered the account (an empty field counts as none).
 */
export const verifyEmailSchema = z.strictObject({
  token,
  password: z
    .string({ error: 'Password must be text' })
    .max(200, 'Password must be at most 200 characters')
    .optional()
    .transform((value) => (value === '' ? undefined : value)),
});
export type VerifyEmailRequest = z.infer<typeof verifyEmailSchema>;

/** POST /api/customer/forgot-password. */
export const forgotPasswordSchema = z.strictObject({
  email: z.string({ error: messages.invalidEmail }).trim().max(100, 'Email must be at most 100 characters').email(messages.invalidEmail),
});
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordSchema>;

/** POST /api/customer/reset-password: the emailed token and the new password (customer rules). */
export const resetPasswordSchema = z.strictObject({
  token,
  password: z
    .string({
      error: (issue) => (issue.input === undefined || issue.input === null ? messages.customerPasswordLength : 'Password must be text'),
    })
    .min(6, messages.customerPasswordLength)
    .max(200, 'Password must be at most 200 characters'),
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordSchema>;

/** The reset-password screen: the API body plus the confirmation. */
export const resetPasswordFormSchema = resetPasswordSchema
  .extend({ confirmPassword: z.string() })
  .refine((form) => form.password === form.confirmPassword, {
    message: messages.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });

/** An answer that only carries a sentence to show. */
export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

/** GET /api/customer/user and /me, POST /api/customer/login: the customer, and whether the email is verified. */
export const currentCustomerSchema = customerUserSchema.extend({ emailVerified: z.boolean() });
export type CurrentCustomer = z.infer<typeof currentCustomerSchema>;

/** GET /api/customer/tickets: each ticket, and how many of staff's replies its customer has not read yet. */
export const customerTicketSchema = ticketDetailSchema.extend({
  /** Staff's public messages the customer has not read yet (GET /api/tickets/{id}/messages reads them). */
  unreadMessages: z.number().int().nonnegative(),
});
export type CustomerTicket = z.infer<typeof customerTicketSchema>;
export const customerTicketsSchema = z.array(customerTicketSchema);

/** POST /api/customer/link-tickets: how many guest tickets were attached, and those tickets. */
export const linkTicketsResponseSchema = z.object({
  linked: z.number().int().nonnegative(),
  tickets: z.array(ticketDetailSchema),
});
export type LinkTicketsResponse = z.infer<typeof linkTicketsResponseSchema>;

/** GET /api/unsubscribe/{token}. */
export const unsubscribeTokenInfoSchema = z.object({ email: z.string() });
export type UnsubscribeTokenInfo = z.infer<typeof unsubscribeTokenInfoSchema>;
