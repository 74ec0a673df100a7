import {
  Body,
  Controller,
  Get,
  HttpCode,
  HttpException,
  HttpStatus,
  Inject,
  NotFoundException,
  Param,
  Post,
  Res,
  UseFilters,
} from '@nestjs/common';
import {
  type ApiError,
  formatUsd,
  paymentMessages,
  type SimulatedConfirmRequest,
  simulatedConfirmRequestSchema,
  type SimulatedConfirmResponse,
} from '@ppr/contracts';
import type { Response } from 'express';
import { ZodBodyPipe } from '../common/zod-validation.pipe';
import { PaymentErrorsFilter } from './payment-errors.filter';
import type { PaymentGateway } from './payment-gateway.port';
import { PAYMENT_GATEWAY } from './payments.tokens';
import { SIMULATED_CHECKOUT_PATH, SimulatedPaymentGateway } from './simulated-payment-gateway';

const NOT_FOUND: ApiError = { message: 'Not found' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/**
 * The simulated gateway's own endpoints, present only while it is the active gateway (404 otherwise, as for
 * any unknown path): the card confirmation the test-mode card form calls, and a hosted checkout page that
 * stands in for Stripe Checkout.
 */
@Controller('payments/simulated')
@UseFilters(PaymentErrorsFilter)
export class SimulatedPaymentsController {
  constructor(@Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway) {}

  private simulated(): SimulatedPaymentGateway {
    if (!(this.gateway instanceof SimulatedPaymentGateway)) throw new NotFoundException(NOT_FOUND);
    return this.gateway;
  }

  /**
   * The card form's confirmation. A success is reported to the webhook endpoint's code path as a signed event
   * before this answers (so the ticket shows it paid); if that delivery fails, the answer is still the success
   * and the gateway delivers the event again until it is acknowledged (SimulatedPaymentGateway). A decline
   * answers 200 with status 'declined' and Stripe's message, and the same intent can be confirmed again with
   * another card. A confirmation of an intent that succeeded before answers that success again (and delivers
   * its event now if it was not acknowledged yet), never a 409. The gateway's database away: 503
   * (PaymentErrorsFilter).
   */
  @Post('confirm')
  @HttpCode(200)
  async confirm(@Body(new ZodBodyPipe(simulatedConfirmRequestSchema)) body: SimulatedConfirmRequest): Promise<SimulatedConfirmResponse> {
    const gateway = this.simulated();
    const result = await gateway.confirm(
      body.clientSecret,
      { number: body.cardNumber, expMonth: body.expMonth, expYear: body.expYear, cvc: body.cvc },
      body.receiptEmail ?? null,
    );
    switch (result.kind) {
      case 'not_found':
        throw new NotFoundException({ message: paymentMessages.paymentNotFound } satisfies ApiError);
      case 'not_confirmable':
        // Under way or canceled: nothing to confirm now (an intent that succeeded answers that success again).
        throw new HttpException({ message: paymentMessages.paymentNotCompleted } satisfies ApiError, HttpStatus.CONFLICT);
      case 'succeeded':
        return { status: 'succeeded', paymentIntentId: result.intent.id };
      case 'declined':
        return { status: 'declined', paymentIntentId: result.intent.id, message: result.message, code: result.code };
      default: {
        const unhandled: never = result;
        return unhandled;
      }
    }
  }

  /** The script of the checkout page (a file of its own: the site's CSP runs scripts from 'self' only). */
  @Get('checkout.js')
  checkoutScript(@Res() response: Response): void {
    this.simulated();
    response.type('application/javascript').send(CHECKOUT_SCRIPT);
  }

  /** A stand-in for Stripe's hosted checkout page, clearly marked as test mode. */
  @Get('checkout/:id')
  async checkoutPage(@Param('id') id: string, @Res() response: Response): Promise<void> {
    const gateway = this.simulated();
    const page = /^cs_sim_[A-Za-z0-9]{1,64}$/.test(id) ? await gateway.checkoutPage(id) : null;
    if (!page) throw new NotFoundException({ message: paymentMessages.paymentNotFound } satisfies ApiError);
    // This page is the site's own: it sends the browser back within the site, whatever host a stored URL names.
    const successPath = pathOf(page.successUrl);
    if (page.session.status !== 'open') {
      response.redirect(303, successPath);
      return;
    }
    response.type('html').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Test checkout - no real charge</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem}label{display:block;margin:.75rem 0 .25rem}input{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}button{margin-top:1rem;padding:.75rem 1rem;font-size:1rem}.banner{background:#fff3cd;border:1px solid #b58900;padding:.75rem;border-radius:.25rem}[role=alert]{color:#b00020;margin-top:1rem}</style>
</head><body>
<p class="banner"><strong>Test mode: no real charge.</strong> Use 4242 4242 4242 4242, any future date and any CVC.</p>
<h1>Diagnostic fee ${escapeHtml(formatUsd(4900))}</h1>
<form id="checkout" data-client-secret="${escapeHtml(page.clientSecret)}" data-success-url="${escapeHtml(successPath)}">
<label for="cardNumber">Card number</label><input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" required>
<label for="expMonth">Expiry month</label><input id="expMonth" name="expMonth" inputmode="numeric" placeholder="MM" required>
<label for="expYear">Expiry year</label><input id="expYear" name="expYear" inputmode="numeric" placeholder="YYYY" required>
<label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required>
<button type="submit">Pay ${escapeHtml(formatUsd(4900))}</button>
<p id="error" role="alert"></p>
</form>
<p><a href="${escapeHtml(pathOf(page.cancelUrl))}">Cancel and return</a></p>
<script src="${SIMULATED_CHECKOUT_PATH}.js"></script>
</body></html>`);
  }
}

const CHECKOUT_SCRIPT = `'use strict';
(function () {
  var form = document.getElementById('checkout');
  var error = document.getElementById('error');
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    error.textContent = '';
    var data = new FormData(form);
    fetch('/api/payments/simulated/confirm', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
      body: JSON.stringify({
        clientSecret: form.dataset.clientSecret,
        cardNumber: String(data.get('cardNumber') || ''),
        expMonth: String(data.get('expMonth') || ''),
        expYear: String(data.get('expYear') || ''),
        cvc: String(data.get('cvc') || '')
      })
    }).then(function (response) {
      return response.json().then(function (body) { return { ok: response.ok, body: body }; });
    }).then(function (result) {
      if (result.ok && result.body.status === 'succeeded') { window.location.assign(form.dataset.successUrl); return; }
      error.textContent = result.body.message || 'An error occurred during payment processing';
    }).catch(function () { error.textContent = 'An error occurred during payment processing'; });
  });
})();
`;

/** The path and query of a URL of this site (`/` for anything unreadable): a redirect that cannot leave the site. */
function pathOf(url: string): string {
  if (!URL.canParse(url)) return '/';
  const { pathname, search } = new URL(url);
  // One leading slash: `//host/...` would be another site's address.
  return `/${pathname.replace(/^\/+/, '')}${search}`;
}
