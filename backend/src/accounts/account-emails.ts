import { BUSINESS_PROFILE as businessProfile } from '@ppr/contracts';
import type { MailMessage } from '../mail/mail.types';
import { escapeHtml } from '../mail/html';

function layout(title: string, paragraphs: readonly string[], action?: { label: string; url: string }): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const button = action
    ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 18px;background:#1d4ed8;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(action.label)}</a></p>
<p style="font-size:13px;color:#555">Or copy this address into your browser: ${escapeHtml(action.url)}</p>`
    : '';
  return `<!doctype html><html><body style="font-family:Arial,sans-serif;line-height:1.5;color:#111">
<h1 style="font-size:20px">${escapeHtml(title)}</h1>
${body}
${button}
<p style="font-size:13px;color:#555">${escapeHtml(businessProfile.name)} · ${escapeHtml(businessProfile.phone)}</p>
</body></html>`;
}

function text(paragraphs: readonly string[], url?: string): string {
  return [...paragraphs, ...(url ? [url] : []), '', `${businessProfile.name} · ${businessProfile.phone}`].join('\n\n');
}

export function verificationEmail(to: string, username: string, url: string, hours: number): MailMessage {
  const lines = [
    `Hello ${username},`,
    `Please confirm that this is your email address by opening the link below. The link works for ${hours} hours.`,
    'Open it in the browser you registered with; anywhere else it asks for the password you chose for the account.',
    `If you did not create an account named ${username}, you can ignore this email: without that password nobody can use this address with it.`,
  ];
  return {
    kind: 'account-verification',
    to,
    subject: `Verify your email address for ${businessProfile.name}`,
    text: text(lines, url),
    html: layout('Verify your email address', lines, { label: 'Verify my email address', url }),
  };
}

export function alreadyRegisteredEmail(to: string, loginUrl: string, resetUrl: string): MailMessage {
  const lines = [
    'Someone (perhaps you) just tried to create an account with this email address, but it already has one.',
    `You can log in at ${loginUrl}. If you have forgotten your password, you can reset it at ${resetUrl}.`,
    'If this was not you, you can ignore this email: nothing has changed.',
  ];
  return {
    kind: 'account-exists',
    to,
    subject: `You already have an account with ${businessProfile.name}`,
    text: text(lines),
    html: layout('You already have an account', lines, { label: 'Log in', url: loginUrl }),
  };
}

export function passwordResetEmail(to: string, url: string, minutes: number): MailMessage {
  const lines = [
    'We received a request to reset the password of your account.',
    `Open the link below to choose a new password. The link works for ${minutes} minutes and only once.`,
    'If you did not ask for this, you can ignore this email: your password stays the same.',
  ];
  return {
    kind: 'password-reset',
    to,
    subject: `Reset your ${businessProfile.name} password`,
    text: text(lines, url),
    html: layout('Reset your password', lines, { label: 'Choose a new password', url }),
  };
}

export function passwordChangedEmail(to: string): MailMessage {
  const lines = [
    'The password of your account was just changed, and every other session was logged out.',
    `If this was not you, call us at ${businessProfile.phone}.`,
  ];
  return {
    kind: 'password-changed',
    to,
    subject: `Your ${businessProfile.name} password was changed`,
    text: text(lines),
    html: layout('Your password was changed', lines),
  };
}
