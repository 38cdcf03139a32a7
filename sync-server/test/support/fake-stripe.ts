/**
 * A small Stripe-shaped HTTP server on 127.0.0.1 for tests (nothing here can reach Stripe:
 * docs/measurements.md#platform-facts). The real `stripe` SDK is pointed at it through
 * STRIPE_API_URL / AppConfig.stripe; it records every request the SDK sent (form-decoded) and
 * answers Customer, Checkout Session, PaymentIntent, Subscription, Price, Product and
 * billing-portal objects in Stripe's shapes. Tests change the state Stripe "has"
 * (`setSubscription`, `setPaymentIntent`) and sign webhook events with the SDK's own test-header
 * helper (`signedEvent`). Also used by the e2e server (e2e/support).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export interface RecordedRequest {
  method: string;
  path: string;
  body: Record<string, unknown>;
}

type Obj = Record<string, unknown>;

/** `a[b][0][c]=1` form fields → nested objects (arrays as objects with numeric keys turned into arrays). */
export function decodeForm(text: string): Obj {
  const root: Obj = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.replace(/\]/g, '').split('[');
    let node: Obj = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Obj;
    });
  }
  const arrays = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    const o = v as Obj;
    const keys = Object.keys(o);
    if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) return keys.sort((a, b) => Number(a) - Number(b)).map((k) => arrays(o[k]));
    return Object.fromEntries(keys.map((k) => [k, arrays(o[k])]));
  };
  return arrays(root) as Obj;
}

export interface FakeStripe {
  url: string;
  port: number;
  secretKey: string;
  webhookSecret: string;
  requests: RecordedRequest[];
  /** AppConfig.stripe pointing at this server. */
  config(): { secretKey: string; webhookSecret: string; publishableKey: string; apiHost: string; apiPort: number; apiProtocol: 'http' };
  subscriptions: Map<string, Obj>;
  paymentIntents: Map<string, Obj>;
  /** Prices and products Stripe "has" (`/v1/prices`, `/v1/products`), by id. */
  prices: Map<string, Obj>;
  products: Map<string, Obj>;
  /** Adds a price as an operator would make it in the dashboard (a recurring USD price unless `fields` say otherwise). */
  addPrice(fields: Obj): Obj & { id: string };
  /** Sets (or merges into) the subscription Stripe reports for `id`. */
  setSubscription(id: string, fields: Obj): Obj;
  setPaymentIntent(id: string, fields: Obj): Obj;
  /** An event body and its Stripe-Signature header, signed with the webhook secret at `timestampS`. */
  signedEvent(type: string, object: Obj, options?: { id?: string; timestampS?: number; secret?: string }): { payload: string; signature: string; id: string };
  /** Answer every call with 500 (Stripe down) while true. */
  failing: boolean;
  close(): Promise<void>;
}

let counter = 0;
const nextId = (prefix: string) => `${prefix}_test${Date.now().toString(36)}${(++counter).toString(36)}`;

export interface FakeStripeOptions {
  checkoutUrl?: (session: Obj) => string;
  unref?: boolean;
  port?: number;
  /**
   * Browser runs (e2e): Checkout Sessions get a hosted page on this server whose Subscribe button
   * makes the subscription and then, after `webhookDelayMs`, delivers the signed
   * `checkout.session.completed` to `webhookUrl`; confirming a PaymentIntent
   * (`POST /v1/payment_intents/:id/confirm`, what the Stripe.js double sends) delivers
   * `payment_intent.succeeded` — or, for the card 4000 0000 0000 0002, declines it.
   */
  webhookUrl?: string;
  webhookDelayMs?: number;
}

/** Stripe's test card that is always declined. */
export const DECLINED_CARD = '4000000000000002';

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const subscriptions = new Map<string, Obj>();
  const paymentIntents = new Map<string, Obj>();
  const sdk = new Stripe('sk_test_fake');

  const notFound = (res: http.ServerResponse, what: string) => {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } }));
  };

  const sessions = new Map<string, Obj>();
  const prices = new Map<string, Obj>();
  const products = new Map<string, Obj>();

  const stripeError = (res: http.ServerResponse, status: number, message: string) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { type: 'invalid_request_error', message } }));
  };
  const bool = (v: unknown) => v === true || v === 'true';
  /** A price from form fields, as Stripe shapes it (amounts arrive as strings). */
  const priceObject = (id: string, body: Obj, now: number): Obj => {
    const recurring = body.recurring as Obj | undefined;
    return {
      id,
      object: 'price',
      active: body.active === undefined ? true : bool(body.active),
      billing_scheme: body.billing_scheme ?? 'per_unit',
      created: now,
      currency: body.currency ?? 'usd',
      livemode: false,
      lookup_key: body.lookup_key ?? null,
      metadata: body.metadata ?? {},
      nickname: body.nickname ?? null,
      product: body.product ?? null,
      recurring: recurring
        ? { interval: recurring.interval, interval_count: Number(recurring.interval_count ?? 1), usage_type: recurring.usage_type ?? 'licensed', meter: null, trial_period_days: null }
        : null,
      tax_behavior: 'unspecified',
      type: recurring ? 'recurring' : 'one_time',
      unit_amount: body.unit_amount === undefined || body.unit_amount === null ? null : Number(body.unit_amount),
    };
  };
  /** Stripe keeps a lookup key on one price: taking it needs `transfer_lookup_key`. */
  const takeLookupKey = (res: http.ServerResponse, key: unknown, transfer: unknown, exceptId?: string): boolean => {
    if (typeof key !== 'string' || key === '') return true;
    const holder = [...prices.values()].find((p) => p.lookup_key === key && p.id !== exceptId);
    if (!holder) return true;
    if (!bool(transfer)) {
      stripeError(res, 400, `A price (\`${String(holder.id)}\`) already uses that lookup key.`);
      return false;
    }
    holder.lookup_key = null;
    return true;
  };

  /** Signs an event as Stripe would and posts it to the app (browser runs). */
  const deliver = async (type: string, object: Obj) => {
    if (!options.webhookUrl) return;
    const event = fake.signedEvent(type, object);
    await fetch(options.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': event.signature }, body: event.payload }).catch(() => undefined);
  };
  const later = (work: () => Promise<void>) => setTimeout(() => void work(), options.webhookDelayMs ?? 0);

  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const body = decodeForm(req.method === 'GET' ? url.searchParams.toString() : text);
      requests.push({ method: req.method ?? 'GET', path: url.pathname, body });
      if (fake.failing) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'api_error', message: 'Stripe is down (test)' } }));
        return;
      }
      const send = (object: Obj) => {
        res.writeHead(200, { 'content-type': 'application/json', 'request-id': nextId('req') });
        res.end(JSON.stringify(object));
      };
      const path = url.pathname;
      const now = Math.floor(Date.now() / 1000);
      if (path === '/__health') return send({ ok: true });
      const pay = /^\/pay\/([^/]+)$/.exec(path);
      if (pay) {
        const session = sessions.get(pay[1]!);
        if (!session) return notFound(res, 'checkout session');
        if (req.method === 'GET') {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(`<!doctype html><html lang="en"><head><title>Stripe Checkout (test double)</title></head><body><main><h1>Stripe Checkout (test double)</h1><form method="post"><button type="submit">Subscribe</button></form></main></body></html>`);
          return;
        }
        // Paid: the subscription exists at Stripe; the webhook follows (as Stripe's does, a moment later).
        const subId = nextId('sub');
        const metadata = ((session.subscription_data as Obj | undefined)?.metadata ?? session.metadata ?? {}) as Obj;
        fake.setSubscription(subId, { customer: session.customer, metadata, items: { object: 'list', data: [{ id: nextId('si'), current_period_end: now + 30 * 86400 }] } });
        session.status = 'complete';
        session.subscription = subId;
        later(() => deliver('checkout.session.completed', { ...session }));
        res.writeHead(303, { location: String(session.success_url) });
        res.end();
        return;
      }
      const confirm = /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(path);
      if (req.method === 'POST' && confirm) {
        const intent = paymentIntents.get(confirm[1]!);
        const cors = { 'access-control-allow-origin': '*', 'content-type': 'application/json' };
        if (!intent || intent.client_secret !== body.client_secret) {
          res.writeHead(404, cors);
          res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'No such payment_intent' } }));
          return;
        }
        if (String(body.card ?? '').replace(/\D/g, '') === DECLINED_CARD) {
          const error = { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' };
          fake.setPaymentIntent(intent.id as string, { status: 'requires_payment_method', last_payment_error: error });
          later(() => deliver('payment_intent.payment_failed', { ...paymentIntents.get(intent.id as string)! }));
          res.writeHead(402, cors);
          res.end(JSON.stringify({ error }));
          return;
        }
        const paid = fake.setPaymentIntent(intent.id as string, { status: 'succeeded' });
        later(() => deliver('payment_intent.succeeded', { ...paid }));
        res.writeHead(200, cors);
        res.end(JSON.stringify(paid));
        return;
      }
      if (req.method === 'POST' && path === '/v1/customers') {
        return send({ id: nextId('cus'), object: 'customer', created: now, email: body.email ?? null, name: body.name ?? null, metadata: body.metadata ?? {} });
      }
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        const id = nextId('cs');
        const session: Obj = { id, object: 'checkout.session', created: now, mode: body.mode, customer: body.customer, client_reference_id: body.client_reference_id, metadata: body.metadata ?? {}, status: 'open', success_url: body.success_url, cancel_url: body.cancel_url };
        session.url = options.checkoutUrl ? options.checkoutUrl(session) : options.webhookUrl ? `${fake.url}/pay/${id}` : `https://checkout.stripe.test/c/pay/${id}`;
        session.subscription_data = body.subscription_data ?? null;
        session.line_items = body.line_items ?? null;
        sessions.set(id, session);
        return send(session);
      }
      if (req.method === 'POST' && path === '/v1/payment_intents') {
        const id = nextId('pi');
        const intent: Obj = {
          id,
          object: 'payment_intent',
          created: now,
          amount: Number(body.amount),
          currency: body.currency,
          customer: body.customer ?? null,
          description: body.description ?? null,
          metadata: body.metadata ?? {},
          status: 'requires_payment_method',
          client_secret: `${id}_secret_${nextId('s')}`,
        };
        paymentIntents.set(id, intent);
        return send(intent);
      }
      const pi = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && pi) {
        const intent = paymentIntents.get(pi[1]!);
        return intent ? send(intent) : notFound(res, 'payment_intent');
      }
      const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && sub) {
        const found = subscriptions.get(sub[1]!);
        return found ? send(found) : notFound(res, 'subscription');
      }
      if (path === '/v1/prices' && req.method === 'GET') {
        const keys = Array.isArray(body.lookup_keys) ? (body.lookup_keys as string[]) : typeof body.lookup_keys === 'string' ? [body.lookup_keys] : null;
        const data = [...prices.values()].filter((p) => (keys === null || keys.includes(p.lookup_key as string)) && (body.active === undefined || p.active === bool(body.active)));
        return send({ object: 'list', data, has_more: false, url: '/v1/prices' });
      }
      if (path === '/v1/prices' && req.method === 'POST') {
        if (typeof body.product !== 'string' || !products.has(body.product)) return stripeError(res, 400, `No such product: '${String(body.product)}'`);
        if (!takeLookupKey(res, body.lookup_key, body.transfer_lookup_key)) return;
        const price = priceObject(nextId('price'), body, now);
        prices.set(price.id as string, price);
        return send(price);
      }
      const priceId = /^\/v1\/prices\/([^/]+)$/.exec(path)?.[1];
      if (priceId !== undefined) {
        const price = prices.get(priceId);
        if (!price) return notFound(res, `price: '${priceId}'`);
        if (req.method === 'POST') {
          // Only these change: a price's amount and interval are fixed once made.
          if (body.lookup_key !== undefined && !takeLookupKey(res, body.lookup_key, body.transfer_lookup_key, priceId)) return;
          if (body.lookup_key !== undefined) price.lookup_key = body.lookup_key === '' ? null : body.lookup_key;
          if (body.active !== undefined) price.active = bool(body.active);
          if (body.nickname !== undefined) price.nickname = body.nickname;
          if (body.metadata !== undefined) price.metadata = { ...(price.metadata as Obj), ...(body.metadata as Obj) };
        }
        return send(price);
      }
      if (path === '/v1/products' && req.method === 'POST') {
        const id = typeof body.id === 'string' ? body.id : nextId('prod');
        if (products.has(id)) return stripeError(res, 400, `Product already exists.`);
        const product: Obj = { id, object: 'product', active: true, created: now, name: body.name, description: body.description ?? null, metadata: body.metadata ?? {} };
        products.set(id, product);
        return send(product);
      }
      const productId = /^\/v1\/products\/([^/]+)$/.exec(path)?.[1];
      if (productId !== undefined) {
        const product = products.get(productId);
        if (!product) return notFound(res, `product: '${productId}'`);
        if (req.method === 'POST') {
          for (const field of ['name', 'description'] as const) if (body[field] !== undefined) product[field] = body[field];
          if (body.active !== undefined) product.active = bool(body.active);
          if (body.metadata !== undefined) product.metadata = { ...(product.metadata as Obj), ...(body.metadata as Obj) };
        }
        return send(product);
      }
      if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
        return send({ id: nextId('bps'), object: 'billing_portal.session', customer: body.customer, return_url: body.return_url, url: `https://billing.stripe.test/p/session/${nextId('x')}` });
      }
      notFound(res, `route ${req.method} ${path}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  if (options.unref) server.unref();
  const port = (server.address() as AddressInfo).port;
  const secretKey = 'sk_test_chronicler';
  const webhookSecret = 'whsec_chronicler_test';

  const fake: FakeStripe = {
    url: `http://127.0.0.1:${port}`,
    port,
    secretKey,
    webhookSecret,
    requests,
    subscriptions,
    paymentIntents,
    prices,
    products,
    addPrice(fields) {
      const productId = (fields.product as string | undefined) ?? nextId('prod');
      if (!products.has(productId)) products.set(productId, { id: productId, object: 'product', active: true, name: 'Dashboard product', description: null, metadata: {} });
      const { recurring, ...rest } = fields;
      const price = priceObject(nextId('price'), { currency: 'usd', recurring: recurring === undefined ? { interval: 'month' } : recurring, ...rest, product: productId }, Math.floor(Date.now() / 1000));
      if (fields.lookup_key) for (const p of prices.values()) if (p.lookup_key === fields.lookup_key) p.lookup_key = null;
      prices.set(price.id as string, price);
      return price as Obj & { id: string };
    },
    failing: false,
    config: () => ({ secretKey, webhookSecret, publishableKey: 'pk_test_chronicler', apiHost: '127.0.0.1', apiPort: port, apiProtocol: 'http' }),
    setSubscription(id, fields) {
      const merged: Obj = { id, object: 'subscription', status: 'active', cancel_at_period_end: false, metadata: {}, items: { object: 'list', data: [] }, ...subscriptions.get(id), ...fields };
      subscriptions.set(id, merged);
      return merged;
    },
    setPaymentIntent(id, fields) {
      const merged: Obj = { ...paymentIntents.get(id), id, object: 'payment_intent', ...fields };
      paymentIntents.set(id, merged);
      return merged;
    },
    signedEvent(type, object, eventOptions = {}) {
      const id = eventOptions.id ?? nextId('evt');
      const payload = JSON.stringify({ id, object: 'event', api_version: '2025-01-01', created: Math.floor(Date.now() / 1000), type, data: { object }, livemode: false, pending_webhooks: 1, request: null });
      const signature = sdk.webhooks.generateTestHeaderString({ payload, secret: eventOptions.secret ?? webhookSecret, ...(eventOptions.timestampS !== undefined ? { timestamp: eventOptions.timestampS } : {}) });
      return { payload, signature, id };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}

let shared: Promise<FakeStripe> | undefined;

/**
 * One fake Stripe per test process for apps built by support/routes.ts (authz matrix, fuzz): it
 * never stops, and does not keep the process alive.
 */
export function sharedFakeStripe(): Promise<FakeStripe> {
  shared ??= startFakeStripe({ unref: true });
  return shared;
}
