import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received, as Stripe would see it. */
export interface RecordedStripeRequest {
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  /** The form-encoded body's fields, flat as sent (`metadata[ticketId]`, `line_items[0][quantity]`). */
  readonly params: Readonly<Record<string, string>>;
}

type Json = Record<string, unknown>;

/**
 * A local HTTP server standing in for Stripe's API (the `stripe` client's host, port and protocol point at it)
 * for tests: payment intents (create with idempotency keys, retrieve), checkout sessions and refunds, in
 * memory, with Stripe's JSON shapes and error bodies. It records every request, can be told to fail (401,
 * 500), and can play the customer paying (`succeed`).
 */
export class FakeStripe {
  readonly requests: RecordedStripeRequest[] = [];
  readonly intents = new Map<string, Json>();
  readonly sessions = new Map<string, Json>();
  /** 'ok', or answer every request with Stripe's 401 (a wrong key) or a 500. */
  failure: 'none' | 'unauthorized' | 'server_error' = 'none';
  private readonly idempotent = new Map<string, { status: number; body: Json }>();
  private counter = 0;
  private server: Server | null = null;

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => this.handle(request, Buffer.concat(chunks).toString('utf8'), response));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The customer pays: the intent succeeds (with a charge). */
  succeed(id: string, changes: Json = {}): Json {
    const intent = this.intents.get(id);
    if (!intent) throw new Error(`No intent ${id}`);
    Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, latest_charge: `ch_fake_${++this.counter}` }, changes);
    return intent;
  }

  /** Hosted checkout completed: its intent exists now (Stripe creates it then) and has succeeded. */
  completeSession(id: string): Json {
    const session = this.sessions.get(id);
    if (!session) throw new Error(`No session ${id}`);
    const intent = this.newIntent({
      amount: session.amount_total,
      currency: session.currency,
      metadata: session.payment_intent_data_metadata ?? {},
      receipt_email: session.customer_email ?? null,
    });
    this.succeed(intent.id as string);
    Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: intent.id, url: null });
    return session;
  }

  private newIntent(fields: Json): Json {
    const id = `pi_fake${++this.counter}`;
    const intent: Json = {
      id,
      object: 'payment_intent',
      amount_received: 0,
      status: 'requires_payment_method',
      client_secret: `${id}_secret_fake${this.counter}`,
      latest_charge: null,
      last_payment_error: null,
      livemode: false,
      created: Math.floor(Date.now() / 1000),
      ...fields,
    };
    this.intents.set(id, intent);
    return intent;
  }

  private handle(request: IncomingMessage, body: string, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://fake');
    const params = Object.fromEntries(new URLSearchParams(body));
    this.requests.push({ method: request.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: request.headers, params });
    const send = (status: number, json: Json): void => {
      response.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_fake${this.counter}` });
      response.end(JSON.stringify(json));
    };
    if (this.failure === 'unauthorized') {
      send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' } });
      return;
    }
    if (this.failure === 'server_error') {
      send(500, { error: { type: 'api_error', message: 'Something went wrong on our end.' } });
      return;
    }
    const key = request.headers['idempotency-key'];
    const idempotencyKey = typeof key === 'string' ? `${url.pathname}:${key}` : null;
    if (request.method === 'POST' && idempotencyKey) {
      const replay = this.idempotent.get(idempotencyKey);
      if (replay) {
        send(replay.status, replay.body);
        return;
      }
    }
    const [status, json] = this.route(request.method ?? 'GET', url.pathname, params);
    if (request.method === 'POST' && idempotencyKey) this.idempotent.set(idempotencyKey, { status, body: json });
    send(status, json);
  }

  private route(method: string, path: string, params: Record<string, string>): [number, Json] {
    const missing = (what: string, id: string): [number, Json] => [
      404,
      { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${id}'`, param: 'id' } },
    ];
    const metadataOf = (prefix: string): Json =>
      Object.fromEntries(
        Object.entries(params)
          .filter(([name]) => name.startsWith(`${prefix}[`))
          .map(([name, value]) => [name.slice(prefix.length + 1, -1), value]),
      );
    if (method === 'POST' && path === '/v1/payment_intents') {
      const intent = this.newIntent({
        amount: Number(params.amount),
        currency: params.currency,
        metadata: metadataOf('metadata'),
        receipt_email: params.receipt_email ?? null,
        description: params.description ?? null,
      });
      return [200, intent];
    }
    let match = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === 'GET' && match) {
      const intent = this.intents.get(match[1]!);
      return intent ? [200, intent] : missing('payment_intent', match[1]!);
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const id = `cs_fake${++this.counter}`;
      const session: Json = {
        id,
        object: 'checkout.session',
        mode: params.mode,
        status: 'open',
        payment_status: 'unpaid',
        payment_intent: null,
        url: `https://checkout.stripe.test/c/pay/${id}`,
        amount_total: Number(params['line_items[0][price_data][unit_amount]']),
        currency: params['line_items[0][price_data][currency]'],
        customer_email: params.customer_email ?? null,
        success_url: params.success_url,
        cancel_url: params.cancel_url,
        metadata: metadataOf('metadata'),
        payment_intent_data_metadata: metadataOf('payment_intent_data[metadata]'),
      };
      this.sessions.set(id, session);
      return [200, session];
    }
    match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === 'GET' && match) {
      const session = this.sessions.get(match[1]!);
      return session ? [200, session] : missing('checkout.session', match[1]!);
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const intent = this.intents.get(params.payment_intent ?? '');
      if (!intent) return missing('payment_intent', params.payment_intent ?? '');
      return [
        200,
        { id: `re_fake${++this.counter}`, object: 'refund', amount: intent.amount, status: 'succeeded', payment_intent: intent.id },
      ];
    }
    return [404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` } }];
  }
}
