import { BUSINESS_PROFILE } from '@ppr/contracts';
import { escapeHtml } from '../mail/html';

/**
 * Headers of the small pages the API renders itself: no scripts, no framing, nothing cached. The referrer
 * policy is `same-origin`, not `no-referrer`: under `no-referrer` a browser posts the page's form with
 * `Origin: null`, which the CSRF rule (rightly) refuses, so no real browser could verify. `same-origin` still
 * never sends the page's address (it holds the token) to another site, and the page loads nothing from one.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
};

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} | ${escapeHtml(BUSINESS_PROFILE.name)}</title>
<style>body{font-family:system-ui,Arial,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#111;line-height:1.5}
button,a.button{display:inline-block;font:inherit;padding:.6rem 1.2rem;background:#1d4ed8;color:#fff;border:0;border-radius:.4rem;text-decoration:none;cursor:pointer}
label{display:block;font-weight:600;margin:1rem 0 .25rem}input[type=password]{font:inherit;padding:.5rem;width:100%;box-sizing:border-box;border:1px solid #555;border-radius:.4rem}
.alert{color:#991b1b;font-weight:600}
button:focus-visible,a:focus-visible,input:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

export interface ConfirmPageOptions {
  /** The account the link belongs to, so a person who did not register it can tell. */
  readonly username: string;
  /**
   * The browser cannot show that its user registered the account (another browser, or logged out): the form
   * asks for the account's password.
   */
  readonly askPassword: boolean;
  /** Why the last attempt was refused (a wrong or missing password). */
  readonly problem?: string;
}

/** GET on the emailed link: nothing changes until the visitor confirms with the button (a POST). */
export function confirmVerificationPage(token: string, options: ConfirmPageOptions): string {
  const alert = options.problem ? `<p class="alert" role="alert">${escapeHtml(options.problem)}</p>` : '';
  const password = options.askPassword
    ? `<p>This browser did not create the account. To show that you did, enter the password you chose when you registered.
If you did not create an account named ${escapeHtml(options.username)}, close this page: nothing will change.</p>
<label for="password">Password of the account</label>
<input type="password" id="password" name="password" autocomplete="current-password" required maxlength="200">`
    : '';
  return page(
    'Verify your email address',
    `${alert}<p>Press the button to confirm your email address for the ${escapeHtml(BUSINESS_PROFILE.name)} account
<strong>${escapeHtml(options.username)}</strong>.</p>
<form method="post" action="/api/customer/verify-email">
<input type="hidden" name="token" value="${escapeHtml(token)}">
${password}
<p><button type="submit">Verify my email address</button></p>
</form>`,
  );
}

export function verificationProblemPage(message: string): string {
  return page(
    'Email verification',
    `<p role="alert">${escapeHtml(message)}</p><p><a class="button" href="/customer/login">Go to the login page</a></p>`,
  );
}
