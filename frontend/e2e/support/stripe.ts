import type { Page, Route } from '@playwright/test';
import type { FakeStripe } from '@ppr/backend/src/payments/testing/fake-stripe';

/**
 * Stripe in the browser, for the suite that pays through the stripe gateway: there is no network to Stripe
 * here, so the page's requests to Stripe's hosts are answered by this test (Playwright routes), the way Stripe
 * would answer them, over the same `FakeStripe` the backend's own Stripe tests use for the server side:
 *
 * - `https://js.stripe.com/<release>/stripe.js` (what `loadStripe` adds to the page): a small Stripe.js with
 *   the surface `@stripe/react-stripe-js` and the card form use (`Stripe(key)`, `elements`, a payment element
 *   that mounts Stripe's iframe, `confirmPayment`);
 * - the payment element's iframe on `js.stripe.com`, a card number field that posts its value to the page (a
 *   cross-origin frame, as Stripe's is: the page never reads the card);
 * - `https://api.stripe.com/v1/payment_intents/<id>/confirm`, the call Stripe.js makes with the publishable key
 *   and the intent's client secret: Stripe's test cards decide the outcome (4242 succeeds, 0002 is declined,
 *   3155 asks for 3-D Secure);
 * - the 3-D Secure page on `hooks.stripe.com`, whose "Complete" sends the browser back to the return URL with
 *   Stripe's parameters, as Stripe does after a challenge.
 *
 * The site's Content-Security-Policy applies to all of it as it would to Stripe's real hosts.
 */

const PAYMENT_ELEMENT_URL = 'https://js.stripe.com/v3/elements-inner-payment.html';
const CHALLENGE_URL = 'https://hooks.stripe.com/3d_secure_2/authenticate';

/** Stripe.js as the page sees it (runs in the browser; plain JavaScript). */
const STRIPE_JS = `(() => {
  'use strict';
  const ELEMENT_URL = ${JSON.stringify(PAYMENT_ELEMENT_URL)};
  let card = '';
  window.addEventListener('message', (event) => {
    if (event.origin === 'https://js.stripe.com' && event.data && typeof event.data.card === 'string') card = event.data.card;
  });
  function Stripe(key) {
    if (typeof key !== 'string' || !/^pk_(test|live)_/.test(key)) throw new Error('Invalid publishable key');
    function elements(options) {
      const clientSecret = options && options.clientSecret;
      const made = new Map();
      return {
        __clientSecret: clientSecret,
        create(type) {
          const handlers = new Map();
          let frame = null;
          const emit = (name, payload) => (handlers.get(name) || []).slice().forEach((handler) => handler(payload));
          const element = {
            mount(node) {
              frame = document.createElement('iframe');
              frame.title = 'Secure payment input frame';
              frame.src = ELEMENT_URL;
              frame.style.width = '100%';
              frame.style.height = '64px';
              frame.style.border = '0';
              frame.addEventListener('load', () => emit('ready', { elementType: type }));
              node.appendChild(frame);
            },
            on(name, handler) {
              handlers.set(name, [...(handlers.get(name) || []), handler]);
              return element;
            },
            off(name, handler) {
              handlers.set(name, (handlers.get(name) || []).filter((h) => h !== handler));
              return element;
            },
            update() {},
            focus() {},
            blur() {},
            clear() {},
            unmount() { if (frame) frame.remove(); frame = null; },
            destroy() { if (frame) frame.remove(); frame = null; made.delete(type); },
          };
          made.set(type, element);
          return element;
        },
        getElement(type) { return made.get(type) || null; },
        update() {},
        async submit() { return {}; },
        async fetchUpdates() { return {}; },
      };
    }
    async function confirmPayment({ elements, confirmParams, redirect }) {
      const secret = elements.__clientSecret;
      const id = String(secret).split('_secret_')[0];
      const body = new URLSearchParams({
        key,
        client_secret: secret,
        'payment_method_data[type]': 'card',
        'payment_method_data[card][number]': card.replace(/\\s+/g, ''),
        return_url: confirmParams.return_url,
      });
      if (confirmParams.receipt_email) body.set('receipt_email', confirmParams.receipt_email);
      const response = await fetch('https://api.stripe.com/v1/payment_intents/' + encodeURIComponent(id) + '/confirm', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
      });
      const answer = await response.json();
      if (answer.error) return { error: answer.error };
      if (answer.status === 'requires_action' || redirect !== 'if_required') {
        window.location.assign(answer.next_action ? answer.next_action.redirect_to_url.url : confirmParams.return_url);
        return new Promise(() => {});
      }
      return { paymentIntent: answer };
    }
    const unused = () => Promise.reject(new Error('Not used by this site'));
    return {
      elements,
      confirmPayment,
      createToken: unused,
      createPaymentMethod: unused,
      confirmCardPayment: unused,
      _registerWrapper() {},
      registerAppInfo() {},
    };
  }
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();`;

/** The payment element's iframe: the card number, posted to the page as it is typed. */
const PAYMENT_ELEMENT_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Card details</title></head>
<body style="margin:0;font:16px sans-serif">
<label for="card">Card number</label>
<input id="card" inputmode="numeric" autocomplete="cc-number" style="margin-left:8px;font-size:16px">
<script>
document.getElementById('card').addEventListener('input', (event) => parent.postMessage({ card: event.target.value }, '*'));
</script>
</body></html>`;

const json = (route: Route, status: number, body: unknown) =>
  route.fulfill({ status, contentType: 'application/json', headers: { 'Access-Control-Allow-Origin': '*' }, body: JSON.stringify(body) });

/** The confirm calls the page made to Stripe's API, as Stripe received them. */
export interface StripeConfirm {
  readonly intent: string;
  readonly params: URLSearchParams;
}

/**
 * Answers the page's requests to Stripe's hosts as Stripe would, over `fake` (see above). `publishableKey` is
 * the key the server hands out: a confirm with another key, or with a client secret that is not its intent's,
 * is refused as Stripe refuses it. Answers the confirm calls, for the test to look at.
 */
export async function standInForStripeInBrowser(page: Page, fake: FakeStripe, publishableKey: string): Promise<StripeConfirm[]> {
  const confirms: StripeConfirm[] = [];
  await page.route(/^https:\/\/js\.stripe\.com\/[a-z0-9]+\/stripe\.js(\?.*)?$/, (route) =>
    route.fulfill({ status: 200, contentType: 'application/javascript', body: STRIPE_JS }),
  );
  await page.route(PAYMENT_ELEMENT_URL, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: PAYMENT_ELEMENT_HTML }));
  await page.route('https://api.stripe.com/**', async (route) => {
    const request = route.request();
    if (request.method() === 'OPTIONS') {
      return route.fulfill({
        status: 204,
        headers: {
          'Access-Control-Allow-Origin': '*',
          'Access-Control-Allow-Headers': 'Content-Type',
          'Access-Control-Allow-Methods': 'POST',
        },
      });
    }
    const match = /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(new URL(request.url()).pathname);
    const params = new URLSearchParams(request.postData() ?? '');
    if (!match || request.method() !== 'POST') {
      return json(route, 404, { error: { type: 'invalid_request_error', message: 'Unrecognized request URL.' } });
    }
    const id = decodeURIComponent(match[1]!);
    confirms.push({ intent: id, params });
    if (params.get('key') !== publishableKey) {
      return json(route, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
    }
    const intent = fake.intents.get(id);
    if (!intent || intent.client_secret !== params.get('client_secret')) {
      return json(route, 404, {
        error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such payment_intent: '${id}'` },
      });
    }
    const receipt = params.get('receipt_email');
    const changes = receipt ? { receipt_email: receipt } : {};
    switch (params.get('payment_method_data[card][number]')) {
      case '4242424242424242':
        return json(route, 200, fake.succeed(id, changes));
      case '4000000000000002': {
        const error = {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'generic_decline',
          message: 'Your card was declined.',
          payment_intent: { ...intent, status: 'requires_payment_method' },
        };
        Object.assign(intent, { last_payment_error: error });
        return json(route, 402, { error });
      }
      case '4000002500003155': {
        Object.assign(intent, { status: 'requires_action', ...changes });
        const challenge = new URL(CHALLENGE_URL);
        challenge.searchParams.set('intent', id);
        challenge.searchParams.set('return_url', params.get('return_url') ?? '');
        return json(route, 200, { ...intent, next_action: { type: 'redirect_to_url', redirect_to_url: { url: challenge.href } } });
      }
      default:
        return json(route, 402, {
          error: { type: 'card_error', code: 'incorrect_number', message: 'Your card number is incorrect.' },
        });
    }
  });
  // The bank's 3-D Secure page, and its answer: the intent succeeds and the browser goes back to the site.
  await page.route(`${CHALLENGE_URL}**`, (route) => {
    const url = new URL(route.request().url());
    const id = url.searchParams.get('intent') ?? '';
    if (url.pathname.endsWith('/complete')) {
      const intent = fake.succeed(id);
      const back = new URL(url.searchParams.get('return_url') ?? '');
      back.searchParams.set('payment_intent', id);
      back.searchParams.set('payment_intent_client_secret', String(intent.client_secret));
      back.searchParams.set('redirect_status', 'succeeded');
      return route.fulfill({ status: 302, headers: { Location: back.href } });
    }
    const complete = new URL(`${CHALLENGE_URL}/complete`);
    complete.search = url.search;
    return route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>3D Secure 2 Test Page</title></head>
<body><main><h1>3D Secure 2 Test Page</h1><a href="${complete.href.replace(/&/g, '&amp;')}">Complete</a></main></body></html>`,
    });
  });
  return confirms;
}
