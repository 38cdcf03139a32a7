/**
 * Billing through the REAL `stripe` SDK against a Stripe-shaped server on 127.0.0.1
 * (support/fake-stripe.ts), real HTTP via inject and real SQLite. Webhooks are signed with the
 * SDK's own test-header helper.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS, PLANS, PRODUCTS, type ProductId, subscriptionPriceCents } from '@chronicler/schema';
import { createTestApp, json, signUp, type SignedIn } from '../support/helpers.ts';
import { type FakeStripe, startFakeStripe } from '../support/fake-stripe.ts';

let stripe: FakeStripe;
let app: FastifyInstance;
let close: () => Promise<void>;

beforeAll(async () => {
  stripe = await startFakeStripe();
  ({ app, close } = await createTestApp({ stripe: stripe.config() }));
});
afterAll(async () => {
  await close();
  await stripe.close();
});
beforeEach(() => {
  stripe.requests.length = 0;
  app.billingClock.now = () => Date.now();
});

function deliver(event: { payload: string; signature: string }, payload = event.payload) {
  return app.inject({ method: 'POST', url: '/api/stripe/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': event.signature }, payload });
}

async function planOf(author: SignedIn): Promise<string> {
  const row = await app.deps.database.db.selectFrom('users').select('plan').where('id', '=', author.user.id).executeTakeFirstOrThrow();
  return row.plan;
}

async function status(author: SignedIn) {
  const res = await app.inject({ method: 'GET', url: '/api/billing/status', headers: { cookie: author.cookie } });
  expect(res.statusCode).toBe(200);
  return json(res);
}

const calls = (path: string) => stripe.requests.filter((r) => r.path === path);

/** A succeeded PaymentIntent for `product` bought by `author`, as Stripe would hold it. */
function paidIntent(author: SignedIn, product: ProductId, amount = PRODUCTS.find((p) => p.id === product)!.priceCents) {
  const id = `pi_${product}_${Math.random().toString(36).slice(2)}`;
  return stripe.setPaymentIntent(id, { status: 'succeeded', amount, currency: 'usd', metadata: { userId: author.user.id, productId: product } });
}

async function buy(author: SignedIn, product: ProductId) {
  const intent = paidIntent(author, product);
  const res = await deliver(stripe.signedEvent('payment_intent.succeeded', intent));
  expect(res.statusCode).toBe(200);
  return intent;
}

describe('GET /api/subscription-plans', () => {
  it('answers the spec shape from the one plan table, prices in cents', async () => {
    const author = await signUp(app);
    const res = await app.inject({ method: 'GET', url: '/api/subscription-plans', headers: { cookie: author.cookie } });
    expect(res.statusCode).toBe(200);
    const plans = json<Array<Record<string, unknown>>>(res);
    expect(plans.map((p) => p.id)).toEqual(['apprentice', 'wordsmith', 'loremaster', 'legendary']);
    expect(plans[1]).toEqual({
      id: 'wordsmith',
      name: PLANS.wordsmith.displayName,
      description: PLANS.wordsmith.description,
      price: 999,
      features: [...PLANS.wordsmith.features],
      mostPopular: true,
    });
  });
});

describe('POST /api/subscriptions', () => {
  it('opens a Checkout Session at the server price for the author, with addresses on the site origin', async () => {
    const author = await signUp(app);
    const res = await app.inject({ method: 'POST', url: '/api/subscriptions', headers: { ...author.headers, host: 'chronicler.example' }, payload: { planName: 'loremaster', interval: 'yearly' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const [sent] = calls('/v1/checkout/sessions');
    expect(sent!.body).toMatchObject({
      mode: 'subscription',
      client_reference_id: author.user.id,
      success_url: 'http://chronicler.example/subscriptions?checkout=success',
      cancel_url: 'http://chronicler.example/subscriptions?checkout=cancelled',
      line_items: [{ price_data: { unit_amount: String(subscriptionPriceCents('loremaster', 'yearly')), recurring: { interval: 'year' }, currency: 'usd' } }],
      subscription_data: { metadata: { userId: author.user.id, plan: 'loremaster', interval: 'yearly' } },
    });
    expect(subscriptionPriceCents('loremaster', 'yearly')).toBe(19190);
    // The author became a Stripe customer once, and the session is theirs.
    expect(calls('/v1/customers')).toHaveLength(1);
    expect((sent!.body as { customer: string }).customer).toMatch(/^cus_/);
  });

  it('answers "Already subscribed" for the current plan without calling Stripe', async () => {
    const author = await signUp(app, { plan: 'wordsmith' });
    const res = await app.inject({ method: 'POST', url: '/api/subscriptions', headers: author.headers, payload: { planName: 'wordsmith' } });
    expect(res.statusCode).toBe(409);
    expect(json(res)).toEqual({ message: 'You are already subscribed to the The Wordsmith plan.'.replace('the The', 'the The'), code: 'CONFLICT' });
    expect(stripe.requests).toHaveLength(0);
  });

  it('refuses the free plan and unknown plans with a clear 422', async () => {
    const author = await signUp(app);
    for (const planName of ['apprentice', 'emperor']) {
      const res = await app.inject({ method: 'POST', url: '/api/subscriptions', headers: author.headers, payload: { planName } });
      expect(res.statusCode).toBe(422);
      expect(json(res).code).toBe('VALIDATION_FAILED');
    }
    expect(stripe.requests).toHaveLength(0);
  });

  it('answers 502 with a plain message when Stripe is down', async () => {
    const author = await signUp(app);
    stripe.failing = true;
    try {
      const res = await app.inject({ method: 'POST', url: '/api/subscriptions', headers: author.headers, payload: { planName: 'wordsmith' } });
      expect(res.statusCode).toBe(502);
      expect(json(res).message).toMatch(/payment provider could not be reached/);
      expect(res.body).not.toMatch(/Stripe is down/);
    } finally {
      stripe.failing = false;
    }
  });
});

describe('POST /api/create-payment-intent', () => {
  it('charges the catalogue price whatever amount the client sent', async () => {
    const author = await signUp(app);
    for (const product of PRODUCTS) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/create-payment-intent',
        headers: author.headers,
        payload: { items: [{ id: product.id }], amount: product.priceCents / 100 },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(json(res).clientSecret).toMatch(/^pi_.*_secret_/);
    }
    const sent = calls('/v1/payment_intents').map((r) => [r.body.amount, (r.body.metadata as Record<string, string>).productId]);
    expect(sent).toEqual(PRODUCTS.map((p) => [String(p.priceCents), p.id]));
  });

  it('refuses an amount that is not the price, with the real price, and never calls Stripe', async () => {
    const author = await signUp(app);
    for (const amount of [0.01, 0, 4.98, 499, 1000]) {
      const res = await app.inject({ method: 'POST', url: '/api/create-payment-intent', headers: author.headers, payload: { items: [{ id: 'custom-theme-pack' }], amount } });
      expect(res.statusCode).toBe(409);
      expect(json(res)).toEqual({ message: 'The price has changed: Custom Theme Pack costs $4.99.', code: 'PRICE_MISMATCH', price: 499, amount: 4.99 });
    }
    expect(calls('/v1/payment_intents')).toHaveLength(0);
  });

  it('refuses unknown products and several items with 422', async () => {
    const author = await signUp(app);
    for (const items of [[{ id: 'free-money' }], [], [{ id: 'inspiration-pack' }, { id: 'inspiration-pack' }]]) {
      const res = await app.inject({ method: 'POST', url: '/api/create-payment-intent', headers: author.headers, payload: { items, amount: 7.99 } });
      expect(res.statusCode).toBe(422);
    }
    expect(stripe.requests).toHaveLength(0);
  });
});

describe('POST /api/stripe/webhook', () => {
  async function entitlementCount(author: SignedIn): Promise<number> {
    const rows = await app.deps.database.db.selectFrom('entitlements').select('id').where('userId', '=', author.user.id).execute();
    return rows.length;
  }

  it('each product grants its entitlement, and the gift subscription a code to share', async () => {
    const author = await signUp(app);
    for (const product of PRODUCTS) await buy(author, product.id);
    const { entitlements } = await status(author);
    expect(entitlements.map((e: { kind: string }) => e.kind).sort()).toEqual(PRODUCTS.map((p) => p.id).sort());
    const gift = entitlements.find((e: { kind: string }) => e.kind === 'gift-subscription');
    expect(gift.giftCode).toMatch(/^[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}$/);
    const support = entitlements.find((e: { kind: string }) => e.kind === 'premium-support');
    expect(Date.parse(support.expiresAt) - Date.now()).toBeGreaterThan(29 * DAY_MS);
  });

  it('grants nothing for a PaymentIntent Stripe does not hold as succeeded at the catalogue price', async () => {
    const author = await signUp(app);
    const cheap = paidIntent(author, 'writers-toolkit', 1);
    const pending = stripe.setPaymentIntent('pi_pending_' + author.user.id, { status: 'processing', amount: 999, currency: 'usd', metadata: { userId: author.user.id, productId: 'writers-toolkit' } });
    for (const intent of [cheap, pending]) expect((await deliver(stripe.signedEvent('payment_intent.succeeded', intent))).statusCode).toBe(200);
    // The event's own payload claims success: the server believes Stripe's current object, not it.
    const forged = stripe.signedEvent('payment_intent.succeeded', { ...pending, status: 'succeeded' });
    expect((await deliver(forged)).statusCode).toBe(200);
    expect(await entitlementCount(author)).toBe(0);
  });

  it('a tampered, wrongly signed, stale or future-dated delivery is refused and changes nothing', async () => {
    const author = await signUp(app);
    const intent = paidIntent(author, 'inspiration-pack');
    const nowS = Math.floor(Date.now() / 1000);
    const good = stripe.signedEvent('payment_intent.succeeded', intent);
    const attempts = [
      deliver(good, good.payload.replace('inspiration-pack', 'writers-toolkit')),
      deliver(good, JSON.stringify(JSON.parse(good.payload), null, 2)), // re-serialised: not the signed bytes
      deliver(stripe.signedEvent('payment_intent.succeeded', intent, { secret: 'whsec_someone_else' })),
      deliver(stripe.signedEvent('payment_intent.succeeded', intent, { timestampS: nowS - 301 })),
      deliver(stripe.signedEvent('payment_intent.succeeded', intent, { timestampS: nowS + 301 })),
      deliver({ payload: good.payload, signature: '' }),
      deliver({ payload: good.payload, signature: 'garbage' }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode, res.body).toBe(400);
      expect(json(res).code).toBe('BAD_REQUEST');
    }
    expect(await entitlementCount(author)).toBe(0);
    const applied = await app.deps.database.db.selectFrom('billingEvents').select('eventId').where('eventId', '=', good.id).execute();
    expect(applied).toEqual([]);
    // Within the tolerance both ways it is accepted.
    expect((await deliver(stripe.signedEvent('payment_intent.succeeded', intent, { timestampS: nowS + 200 }))).statusCode).toBe(200);
    expect(await entitlementCount(author)).toBe(1);
  });

  it('the same event delivered twice (also concurrently) applies once', async () => {
    const author = await signUp(app);
    const event = stripe.signedEvent('payment_intent.succeeded', paidIntent(author, 'premium-support'));
    const answers = await Promise.all([deliver(event), deliver(event), deliver(event)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect((await deliver(event)).json()).toEqual({ received: true, duplicate: true });
    expect(await entitlementCount(author)).toBe(1);
  });

  it('two events for the same payment grant it once', async () => {
    const author = await signUp(app);
    const intent = paidIntent(author, 'writers-toolkit');
    await deliver(stripe.signedEvent('payment_intent.succeeded', intent));
    await deliver(stripe.signedEvent('payment_intent.succeeded', intent));
    expect(await entitlementCount(author)).toBe(1);
  });

  it('without a webhook secret the route answers "Payments are not configured"', async () => {
    const other = await createTestApp({ stripe: { ...stripe.config(), webhookSecret: null } as never });
    try {
      const event = stripe.signedEvent('payment_intent.succeeded', { id: 'pi_x' });
      const res = await other.app.inject({ method: 'POST', url: '/api/stripe/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': event.signature }, payload: event.payload });
      expect(res.statusCode).toBe(503);
      expect(json(res).code).toBe('PAYMENTS_NOT_CONFIGURED');
    } finally {
      await other.close();
    }
  });
});

describe('subscriptions follow Stripe', () => {
  function subscription(author: SignedIn, id: string, plan: string, fields: Record<string, unknown> = {}) {
    return stripe.setSubscription(id, {
      customer: 'cus_' + id,
      metadata: { userId: author.user.id, plan, interval: 'monthly' },
      items: { object: 'list', data: [{ id: 'si_' + id, current_period_end: Math.floor(Date.now() / 1000) + 30 * 86400 }] },
      ...fields,
    });
  }

  it('checkout completed → the plan; cancel at period end keeps it; deleted ends it', async () => {
    const author = await signUp(app);
    const sub = subscription(author, 'sub_a_' + author.user.id, 'wordsmith');
    const completed = stripe.signedEvent('checkout.session.completed', { id: 'cs_1', object: 'checkout.session', mode: 'subscription', subscription: sub.id, customer: sub.customer, client_reference_id: author.user.id });
    expect((await deliver(completed)).statusCode).toBe(200);
    expect(await planOf(author)).toBe('wordsmith');

    subscription(author, String(sub.id), 'wordsmith', { cancel_at_period_end: true });
    await deliver(stripe.signedEvent('customer.subscription.updated', { id: sub.id }));
    expect(await planOf(author)).toBe('wordsmith');
    expect((await status(author)).subscription).toMatchObject({ plan: 'wordsmith', cancelAtPeriodEnd: true, status: 'active' });

    subscription(author, String(sub.id), 'wordsmith', { status: 'canceled' });
    await deliver(stripe.signedEvent('customer.subscription.deleted', { id: sub.id }));
    expect(await planOf(author)).toBe('apprentice');
  });

  it('out-of-order events end in the plan Stripe holds now', async () => {
    const author = await signUp(app);
    const id = 'sub_o_' + author.user.id;
    // Stripe's truth today: upgraded to Legendary. The events arrive newest first.
    const now = subscription(author, id, 'legendary');
    const updated = stripe.signedEvent('customer.subscription.updated', { ...now });
    const created = stripe.signedEvent('customer.subscription.created', { ...now, status: 'incomplete', metadata: { ...(now.metadata as object), plan: 'wordsmith' } });
    await deliver(updated);
    await deliver(created);
    expect(await planOf(author)).toBe('legendary');
    // And a late "active" event after the cancellation does not bring the plan back.
    subscription(author, id, 'legendary', { status: 'canceled' });
    await deliver(stripe.signedEvent('customer.subscription.deleted', { id }));
    await deliver(stripe.signedEvent('customer.subscription.updated', { ...now, status: 'active' }));
    expect(await planOf(author)).toBe('apprentice');
  });

  it('a failed renewal is shown to the author and the plan holds while Stripe retries; a paid invoice clears it', async () => {
    const author = await signUp(app);
    const id = 'sub_f_' + author.user.id;
    subscription(author, id, 'loremaster');
    await deliver(stripe.signedEvent('customer.subscription.created', { id }));
    subscription(author, id, 'loremaster', { status: 'past_due' });
    await deliver(stripe.signedEvent('invoice.payment_failed', { id: 'in_1', object: 'invoice', parent: { subscription_details: { subscription: id } } }));
    expect(await planOf(author)).toBe('loremaster');
    expect((await status(author)).subscription).toMatchObject({ status: 'past_due', paymentFailed: true });
    subscription(author, id, 'loremaster', { status: 'active' });
    await deliver(stripe.signedEvent('invoice.paid', { id: 'in_2', object: 'invoice', subscription: id }));
    expect((await status(author)).subscription).toMatchObject({ status: 'active', paymentFailed: false });
  });

  it('Stripe unreachable while applying: 502, nothing recorded, the redelivery applies', async () => {
    const author = await signUp(app);
    const id = 'sub_d_' + author.user.id;
    subscription(author, id, 'wordsmith');
    const event = stripe.signedEvent('customer.subscription.created', { id });
    stripe.failing = true;
    try {
      expect((await deliver(event)).statusCode).toBe(502);
    } finally {
      stripe.failing = false;
    }
    expect(await planOf(author)).toBe('apprentice');
    expect((await deliver(event)).json()).toEqual({ received: true, duplicate: false });
    expect(await planOf(author)).toBe('wordsmith');
  });

  it('POST /api/billing/portal opens the customer portal returning to /subscriptions', async () => {
    const author = await signUp(app);
    const res = await app.inject({ method: 'POST', url: '/api/billing/portal', headers: { ...author.headers, host: 'site.test' } });
    expect(res.statusCode).toBe(200);
    expect(json(res).url).toMatch(/^https:\/\/billing\.stripe\.test\//);
    expect(calls('/v1/billing_portal/sessions')[0]!.body).toMatchObject({ return_url: 'http://site.test/subscriptions' });
  });
});

describe('sync', () => {
  const feed = async (who: SignedIn) => json(await app.inject({ method: 'GET', url: '/api/sync/changes?since=0', headers: { cookie: who.cookie } })).changes;

  it('entitlements and the plan a webhook gives reach their owner through the changes feed, nobody else', async () => {
    const author = await signUp(app);
    const other = await signUp(app);
    await buy(author, 'writers-toolkit');
    const id = 'sub_feed_' + author.user.id;
    stripe.setSubscription(id, { customer: 'cus_feed', metadata: { userId: author.user.id, plan: 'loremaster', interval: 'monthly' } });
    await deliver(stripe.signedEvent('customer.subscription.created', { id }));
    const mine = await feed(author);
    expect(mine.entitlements.map((e: { kind: string }) => e.kind)).toEqual(['writers-toolkit']);
    expect(mine.users.find((u: { id: string }) => u.id === author.user.id).plan).toBe('loremaster');
    const theirs = await feed(other);
    expect(theirs.entitlements).toEqual([]);
    expect(JSON.stringify(theirs)).not.toContain(author.user.id);
  });
});

describe('gift codes', () => {
  async function giftCodeBoughtBy(buyer: SignedIn): Promise<string> {
    await buy(buyer, 'gift-subscription');
    const { entitlements } = await status(buyer);
    return entitlements.find((e: { kind: string }) => e.kind === 'gift-subscription').giftCode;
  }
  const redeem = (who: SignedIn, code: string) => app.inject({ method: 'POST', url: '/api/gifts/redeem', headers: who.headers, payload: { code } });

  it('gives one month of Wordsmith once, and the month ends by itself', async () => {
    const buyer = await signUp(app);
    const friend = await signUp(app);
    const third = await signUp(app);
    const code = await giftCodeBoughtBy(buyer);
    const start = Date.now();
    app.billingClock.now = () => start;
    // Typed loosely (lower case, spaces) it still matches.
    const res = await redeem(friend, ` ${code.toLowerCase().replace(/-/g, ' ')} `);
    expect(res.statusCode, res.body).toBe(200);
    expect(await planOf(friend)).toBe('wordsmith');
    expect((await redeem(third, code)).json()).toEqual({ message: 'This gift code has already been redeemed', code: 'CONFLICT' });
    expect((await redeem(friend, code)).statusCode).toBe(409);
    expect(await planOf(third)).toBe('apprentice');
    const bought = (await status(buyer)).entitlements.find((e: { kind: string }) => e.kind === 'gift-subscription');
    expect(bought.giftRedeemedAt).not.toBeNull();

    app.billingClock.now = () => start + 29 * DAY_MS;
    await app.expireGiftMonths();
    expect(await planOf(friend)).toBe('wordsmith');
    app.billingClock.now = () => start + 30 * DAY_MS + 1000;
    await app.expireGiftMonths();
    expect(await planOf(friend)).toBe('apprentice');
  });

  it('a gift month does not lower a higher plan, and a code expires unredeemed after a year', async () => {
    const buyer = await signUp(app);
    const legend = await signUp(app, { plan: 'legendary' });
    const code = await giftCodeBoughtBy(buyer);
    app.billingClock.now = () => Date.now() + 366 * DAY_MS;
    expect((await redeem(legend, code)).json()).toEqual({ message: 'This gift code has expired', code: 'CONFLICT' });
    app.billingClock.now = () => Date.now();
    const code2 = await giftCodeBoughtBy(buyer);
    expect((await redeem(legend, code2)).statusCode).toBe(200);
    expect(await planOf(legend)).toBe('legendary');
  });

  it('unknown and malformed codes are refused', async () => {
    const author = await signUp(app);
    expect((await redeem(author, 'AAAA-BBBB-CCCC')).statusCode).toBe(404);
    const bad = await redeem(author, 'not a code');
    expect(bad.statusCode).toBe(422);
    expect(json(bad).message).toBe('This gift code is not valid');
  });
});

describe('premium support requests', () => {
  it('need Premium Support (or a plan with priority support); owners send them and see their own', async () => {
    const author = await signUp(app);
    const body = { subject: 'Export question', message: 'How do I export book two as DOCX?' };
    const locked = await app.inject({ method: 'POST', url: '/api/support-requests', headers: author.headers, payload: body });
    expect(locked.statusCode).toBe(403);
    await buy(author, 'premium-support');
    const res = await app.inject({ method: 'POST', url: '/api/support-requests', headers: author.headers, payload: body });
    expect(res.statusCode).toBe(201);
    const list = await app.inject({ method: 'GET', url: '/api/support-requests', headers: { cookie: author.cookie } });
    expect(json(list)).toEqual([expect.objectContaining(body)]);
    const blank = await app.inject({ method: 'POST', url: '/api/support-requests', headers: author.headers, payload: { subject: ' ', message: 'x' } });
    expect(json(blank)).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Please enter a subject' });
    const legend = await signUp(app, { plan: 'legendary' });
    expect((await app.inject({ method: 'POST', url: '/api/support-requests', headers: legend.headers, payload: body })).statusCode).toBe(201);
    const list2 = await app.inject({ method: 'GET', url: '/api/support-requests', headers: { cookie: legend.cookie } });
    expect(json(list2)).toHaveLength(1);
  });
});

describe('without Stripe keys', () => {
  it('payment calls answer "Payments are not configured"; plans and the rest still work', async () => {
    const bare = await createTestApp();
    try {
      const author = await signUp(bare.app);
      const calls = [
        { method: 'POST' as const, url: '/api/subscriptions', payload: { planName: 'wordsmith' } },
        { method: 'POST' as const, url: '/api/create-payment-intent', payload: { items: [{ id: 'inspiration-pack' }], amount: 7.99 } },
        { method: 'POST' as const, url: '/api/billing/portal' },
      ];
      for (const call of calls) {
        const res = await bare.app.inject({ ...call, headers: author.headers });
        expect(res.statusCode).toBe(503);
        expect(json(res)).toEqual({ message: 'Payments are not configured on this server', code: 'PAYMENTS_NOT_CONFIGURED' });
      }
      const webhook = await bare.app.inject({ method: 'POST', url: '/api/stripe/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' }, payload: '{}' });
      expect(webhook.statusCode).toBe(503);
      expect((await bare.app.inject({ method: 'GET', url: '/api/subscription-plans', headers: { cookie: author.cookie } })).statusCode).toBe(200);
      expect(json(await bare.app.inject({ method: 'GET', url: '/api/billing/status', headers: { cookie: author.cookie } }))).toMatchObject({ paymentsConfigured: false, plan: 'apprentice' });
      expect((await bare.app.inject({ method: 'POST', url: '/api/series', headers: author.headers, payload: { title: 'Still works' } })).statusCode).toBe(201);
    } finally {
      await bare.close();
    }
  });
});
