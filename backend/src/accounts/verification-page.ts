import { BUSINESS_PROFILE } from '@ppr/contracts';
import { escapeHtml } from '../mail/html';

/** Headers of the small pages the API renders itself: no scripts, no framing, the token never leaks. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} | ${escapeHtml(BUSINESS_PROFILE.name)}</title>
<style>body{font-family:system-ui,Arial,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#111;line-height:1.5}
button,a.button{display:inline-block;font:inherit;padding:.6rem 1.2rem;background:#1d4ed8;color:#fff;border:0;border-radius:.4rem;text-decoration:none;cursor:pointer}
button:focus-visible,a:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

/** GET on the emailed link: nothing changes until the visitor confirms with the button (a POST). */
export function confirmVerificationPage(token: string): string {
  return page(
    'Verify your email address',
    `<p>Press the button to confirm your email address for ${escapeHtml(BUSINESS_PROFILE.name)}.</p>
<form method="post" action="/api/customer/verify-email">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">Verify my email address</button>
</form>`,
  );
}

export function verificationProblemPage(message: string): string {
  return page(
    'Email verification',
    `<p role="alert">${escapeHtml(message)}</p><p><a class="button" href="/customer/login">Go to the login page</a></p>`,
  );
}
