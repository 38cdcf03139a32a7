/**
 * Which price a subscription is sold at (billing/prices.ts) and the operator command that sets the
 * prices up (billing/price-setup.ts, `pnpm cli stripe:prices`): the real `stripe` SDK against the
 * Stripe-shaped server of support/fake-stripe.ts, real HTTP via inject and real SQLite.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { subscriptionPriceCents } from '@chronicler/schema';
import { lookupKeyOf, parsePriceIds } from '../../src/config/price-config.ts';
import { PRICE_CACHE_MS, PRICE_RECHECK_MS, createPriceResolver } from '../../src/billing/prices.ts';
import { createStripeClient } from '../../src/billing/stripe.ts';
import { type CliIo, runCli } from '../../src/cli.ts';
import type { AppConfig } from '../../src/config/config.ts';
import { configFromEnv } from '../../src/config/config.ts';
import { createTestApp, json, signUp, type TestApp } from '../support/helpers.ts';
import { type FakeStripe, startFakeStripe } from '../support/fake-stripe.ts';

let stripe: FakeStripe;
let opened: TestApp | null = null;
let dataDir: string;

beforeAll(async () => {
  stripe = await startFakeStripe();
});
afterAll(() => stripe.close());
beforeEach(() => {
  stripe.requests.length = 0;
  stripe.prices.clear();
  stripe.products.clear();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-prices-'));
});
afterEach(async () => {
  await opened?.close();
  opened = null;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A fresh app (a fresh price cache) on the fake Stripe. */
async function appWith(stripeConfig: Partial<NonNullable<AppConfig['stripe']>> = {}) {
  opened = await createTestApp({ stripe: { ...stripe.config(), ...stripeConfig } });
  return opened.app;
}

async function subscribe(app: TestApp['app'], planName: string, interval: 'monthly' | 'yearly') {
  const author = await signUp(app);
  return app.inject({ method: 'POST', url: '/api/subscriptions', headers: author.headers, payload: { planName, interval } });
}

const calls = (method: string, pathname: string) => stripe.requests.filter((r) => r.method === method && r.path === pathname);
const lastSessionLineItems = () => (calls('POST', '/v1/checkout/sessions').at(-1)!.body as { line_items: unknown[] }).line_items;

/** A recurring USD price at the plan table's amount, under the documented lookup key (as `stripe:prices` makes it). */
function rightPrice(plan: 'wordsmith' | 'loremaster' | 'legendary', interval: 'monthly' | 'yearly', fields: Record<string, unknown> = {}) {
  return stripe.addPrice({
    lookup_key: lookupKeyOf({ plan, interval }),
    unit_amount: subscriptionPriceCents(plan, interval),
    recurring: { interval: interval === 'monthly' ? 'month' : 'year', interval_count: 1 },
    ...fields,
  });
}

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { env: { DATA_DIR: dataDir, STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_URL: stripe.url }, out: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await runCli(argv, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('the price a subscription is sold at', () => {
  it('uses the Stripe price with the documented lookup key, looked up once and kept for a while', async () => {
    const yearly = rightPrice('loremaster', 'yearly');
    const app = await appWith();
    const now = Date.now();
    app.billingClock.now = () => now;

    const res = await subscribe(app, 'loremaster', 'yearly');
    expect(res.statusCode, res.body).toBe(200);
    expect(lastSessionLineItems()).toEqual([{ quantity: '1', price: yearly.id }]);
    const list = calls('GET', '/v1/prices');
    expect(list).toHaveLength(1);
    // One request for every plan and interval.
    expect(list[0]!.body.lookup_keys).toEqual(expect.arrayContaining(['chronicler_wordsmith_monthly', 'chronicler_loremaster_yearly', 'chronicler_legendary_yearly']));

    expect((await subscribe(app, 'loremaster', 'yearly')).statusCode).toBe(200);
    expect(calls('GET', '/v1/prices')).toHaveLength(1);
    // Other plans still lack a price here, so the lookup is repeated after a minute, not ten.
    app.billingClock.now = () => now + PRICE_RECHECK_MS + 1;
    expect((await subscribe(app, 'loremaster', 'yearly')).statusCode).toBe(200);
    expect(calls('GET', '/v1/prices')).toHaveLength(2);
  });

  it('keeps a complete set of prices for ten minutes', async () => {
    expect((await cli('stripe:prices')).code).toBe(0);
    const app = await appWith();
    const now = Date.now();
    app.billingClock.now = () => now;
    stripe.requests.length = 0;
    for (const [plan, interval] of [['wordsmith', 'monthly'], ['legendary', 'yearly']] as const) {
      expect((await subscribe(app, plan, interval)).statusCode).toBe(200);
      const priceId = (lastSessionLineItems()[0] as { price: string }).price;
      expect(stripe.prices.get(priceId)).toMatchObject({ lookup_key: `chronicler_${plan}_${interval}`, unit_amount: subscriptionPriceCents(plan, interval) });
    }
    app.billingClock.now = () => now + PRICE_CACHE_MS - 1;
    expect((await subscribe(app, 'wordsmith', 'yearly')).statusCode).toBe(200);
    expect(calls('GET', '/v1/prices')).toHaveLength(1);
    app.billingClock.now = () => now + PRICE_CACHE_MS + 1;
    expect((await subscribe(app, 'wordsmith', 'yearly')).statusCode).toBe(200);
    expect(calls('GET', '/v1/prices')).toHaveLength(2);
  });

  it.each([
    ['the yearly price without the 20% discount', { unit_amount: 12 * 999 }],
    ['another currency', { currency: 'eur' }],
    ['a monthly interval on the yearly key', { recurring: { interval: 'month', interval_count: 1 } }],
    ['an archived price', { active: false }],
    ['a one-time price', { recurring: null }],
  ])('refuses a price that disagrees with the plan table (%s): a clear 503, no customer, no checkout', async (_, fields) => {
    rightPrice('wordsmith', 'yearly', fields);
    const app = await appWith();
    const res = await subscribe(app, 'wordsmith', 'yearly');
    expect(res.statusCode).toBe(503);
    expect(json(res)).toEqual({
      code: 'PAYMENTS_NOT_CONFIGURED',
      message: 'The Wordsmith plan (yearly) cannot be bought right now: its price at the payment provider is not set up correctly. Nothing was charged; please try again later.',
    });
    expect(calls('POST', '/v1/checkout/sessions')).toHaveLength(0);
    expect(calls('POST', '/v1/customers')).toHaveLength(0);
    // The monthly price has no Stripe price: sold inline, unaffected.
    expect((await subscribe(app, 'wordsmith', 'monthly')).statusCode).toBe(200);
  });

  it('tells the operator why a price is not used', async () => {
    const wrong = rightPrice('wordsmith', 'yearly', { unit_amount: 11988 });
    const logged: Array<{ level: string; object: object; message: string }> = [];
    const log = { info: (object: object, message: string) => logged.push({ level: 'info', object, message }), error: (object: object, message: string) => logged.push({ level: 'error', object, message }) };
    const resolver = createPriceResolver({ stripe: createStripeClient(stripe.config()), priceIds: {}, inlinePrices: true, log, now: () => Date.now() });
    await expect(resolver.lineItem('wordsmith', 'yearly')).rejects.toMatchObject({ statusCode: 503 });
    const errors = logged.filter((l) => l.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toBe(
      `Stripe price ${wrong.id} for wordsmith_yearly disagrees with the plan table and is not used: it charges 11988, the plan table says 9590 (cents). Authors are refused this plan until it is fixed (pnpm cli stripe:prices)`,
    );
    expect(errors[0]!.object).toMatchObject({ plan: 'wordsmith', interval: 'yearly', lookupKey: 'chronicler_wordsmith_yearly', priceId: wrong.id });
    // Missing prices are an ordinary state of a fresh account: information, not an error.
    expect(logged.filter((l) => l.level === 'info').map((l) => l.message)).toContain(
      "No Stripe price has the lookup key chronicler_wordsmith_monthly: selling at the plan table's price inline (pnpm cli stripe:prices creates it)",
    );
    // Logged once per lookup, not once per checkout.
    await expect(resolver.lineItem('wordsmith', 'yearly')).rejects.toMatchObject({ statusCode: 503 });
    expect(logged.filter((l) => l.level === 'error')).toHaveLength(1);
  });

  it('sells at a price STRIPE_PRICE_IDS names over the lookup key; a configured price that is missing or wrong is refused, never replaced', async () => {
    rightPrice('wordsmith', 'monthly');
    const configured = stripe.addPrice({ unit_amount: 999, recurring: { interval: 'month' } });
    const wrong = stripe.addPrice({ unit_amount: 999, recurring: { interval: 'month' } });
    const app = await appWith({ priceIds: { wordsmith_monthly: configured.id, loremaster_monthly: 'price_doesnotexist', wordsmith_yearly: wrong.id } });
    expect((await subscribe(app, 'wordsmith', 'monthly')).statusCode).toBe(200);
    expect(lastSessionLineItems()).toEqual([{ quantity: '1', price: configured.id }]);
    expect(calls('GET', `/v1/prices/${configured.id}`)).toHaveLength(1);
    // Configured keys are not looked up by lookup key.
    expect(calls('GET', '/v1/prices')[0]!.body.lookup_keys).not.toContain('chronicler_wordsmith_monthly');
    for (const [plan, interval] of [['loremaster', 'monthly'], ['wordsmith', 'yearly']] as const) {
      const res = await subscribe(app, plan, interval);
      expect(res.statusCode).toBe(503);
    }
    expect(calls('POST', '/v1/checkout/sessions')).toHaveLength(1);
  });

  it('without a Stripe price sends the plan table price inline (a fresh account sells at once), unless STRIPE_INLINE_PRICES=false', async () => {
    const app = await appWith();
    expect((await subscribe(app, 'legendary', 'yearly')).statusCode).toBe(200);
    expect(lastSessionLineItems()).toEqual([
      { quantity: '1', price_data: { currency: 'usd', unit_amount: '47990', recurring: { interval: 'year' }, product_data: { name: 'Legendary Chronicler (yearly)' } } },
    ]);
    await opened!.close();
    const strict = await appWith({ inlinePrices: false });
    expect((await subscribe(strict, 'legendary', 'yearly')).statusCode).toBe(503);
    expect(calls('POST', '/v1/checkout/sessions')).toHaveLength(1);
  });

  it('answers 502 when Stripe cannot be asked for the prices, and asks again next time', async () => {
    const app = await appWith();
    stripe.failing = true;
    try {
      expect((await subscribe(app, 'wordsmith', 'monthly')).statusCode).toBe(502);
    } finally {
      stripe.failing = false;
    }
    expect((await subscribe(app, 'wordsmith', 'monthly')).statusCode).toBe(200);
  });
});

describe('a subscription sells the plan of its price', () => {
  it('follows a plan switched in the customer portal (lookup key or configured price), not the metadata Checkout was given', async () => {
    const legendary = rightPrice('legendary', 'yearly');
    const configured = stripe.addPrice({ unit_amount: 1999, recurring: { interval: 'month' } });
    const app = await appWith({ priceIds: { loremaster_monthly: configured.id } });
    const author = await signUp(app);
    const id = `sub_switch_${author.user.id}`;
    const deliver = async (price: Record<string, unknown>) => {
      stripe.setSubscription(id, {
        customer: `cus_switch_${author.user.id}`,
        // What Checkout was given: Wordsmith monthly, never updated by the portal.
        metadata: { userId: author.user.id, plan: 'wordsmith', interval: 'monthly' },
        items: { object: 'list', data: [{ id: `si_${id}`, price, current_period_end: Math.floor(Date.now() / 1000) + 30 * 86400 }] },
      });
      const event = stripe.signedEvent('customer.subscription.updated', { id });
      const res = await app.inject({ method: 'POST', url: '/api/stripe/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': event.signature }, payload: event.payload });
      expect(res.statusCode).toBe(200);
      const status = json(await app.inject({ method: 'GET', url: '/api/billing/status', headers: { cookie: author.cookie } }));
      return { plan: status.plan, interval: status.subscription.interval };
    };
    // An inline price (no lookup key): the metadata says.
    expect(await deliver({ id: 'price_inline', lookup_key: null })).toEqual({ plan: 'wordsmith', interval: 'monthly' });
    expect(await deliver(legendary)).toEqual({ plan: 'legendary', interval: 'yearly' });
    expect(await deliver(configured)).toEqual({ plan: 'loremaster', interval: 'monthly' });
  });
});

describe('STRIPE_PRICE_IDS', () => {
  it('reads plan_interval=price_id pairs and refuses anything else at start', () => {
    expect(parsePriceIds(' wordsmith_monthly=price_1A, legendary_yearly = price_2B ')).toEqual({ wordsmith_monthly: 'price_1A', legendary_yearly: 'price_2B' });
    expect(parsePriceIds(undefined)).toEqual({});
    expect(() => parsePriceIds('apprentice_monthly=price_1')).toThrow(/"apprentice_monthly" is not a paid plan and interval; use wordsmith_monthly, wordsmith_yearly/);
    expect(() => parsePriceIds('wordsmith_weekly=price_1')).toThrow(/not a paid plan/);
    expect(() => parsePriceIds('wordsmith_monthly=prod_1')).toThrow(/"prod_1" \(for wordsmith_monthly\) is not a Stripe price id/);
    expect(() => parsePriceIds('wordsmith_monthly=price_1,wordsmith_monthly=price_2')).toThrow(/given twice/);
    expect(configFromEnv({ DATA_DIR: dataDir, STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PRICE_IDS: 'loremaster_yearly=price_9' }).stripe).toMatchObject({
      priceIds: { loremaster_yearly: 'price_9' },
      inlinePrices: true,
    });
    expect(configFromEnv({ DATA_DIR: dataDir, STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_INLINE_PRICES: 'false' }).stripe?.inlinePrices).toBe(false);
  });
});

describe('pnpm cli stripe:prices', () => {
  it('creates the products and the six prices with their lookup keys, then changes nothing on a second run', async () => {
    const first = await cli('stripe:prices');
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain('create product chronicler_wordsmith (The Wordsmith)');
    expect(first.out).toContain('create price chronicler_legendary_yearly: 47990 usd every year');
    expect(first.out).toMatch(/9 change\(s\) made\.$/);
    expect([...stripe.products.keys()].sort()).toEqual(['chronicler_legendary', 'chronicler_loremaster', 'chronicler_wordsmith']);
    const byKey = new Map([...stripe.prices.values()].map((p) => [p.lookup_key, p]));
    expect(byKey.size).toBe(6);
    expect(byKey.get('chronicler_wordsmith_yearly')).toMatchObject({ product: 'chronicler_wordsmith', unit_amount: 9590, currency: 'usd', active: true, recurring: { interval: 'year', interval_count: 1 } });

    stripe.requests.length = 0;
    const second = await cli('stripe:prices');
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/Stripe already sells the plan table: nothing to change\.$/);
    expect(stripe.requests.filter((r) => r.method === 'POST')).toEqual([]);
    expect(stripe.prices.size).toBe(6);
  });

  it('replaces a price that disagrees (the new one takes the lookup key, the old one is archived) and only checks configured ones', async () => {
    const old = rightPrice('loremaster', 'monthly', { unit_amount: 1500 });
    const configuredWrong = stripe.addPrice({ unit_amount: 100, recurring: { interval: 'month' } });
    const dry = await cli('stripe:prices', '--dry-run');
    expect(dry.out).toContain(`would replace price chronicler_loremaster_monthly (${old.id}: it charges 1500, the plan table says 1999 (cents)) with 1999 usd every month`);
    expect(stripe.requests.filter((r) => r.method === 'POST')).toEqual([]);

    const env = { STRIPE_PRICE_IDS: `wordsmith_monthly=${configuredWrong.id}` };
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['stripe:prices'], { env: { DATA_DIR: dataDir, STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_URL: stripe.url, ...env }, out: (l) => out.push(l), err: (l) => err.push(l) });
    expect(code).toBe(1);
    expect(err.join('\n')).toContain('1 configured price(s) in STRIPE_PRICE_IDS disagree with the plan table');
    expect(out.join('\n')).toContain(`price for wordsmith_monthly: ${configuredWrong.id} (STRIPE_PRICE_IDS) is NOT used: it charges 100, the plan table says 999 (cents)`);
    expect(stripe.prices.get(configuredWrong.id)).toMatchObject({ unit_amount: 100, active: true });
    expect(stripe.prices.get(old.id)).toMatchObject({ active: false, lookup_key: null });
    const current = [...stripe.prices.values()].find((p) => p.lookup_key === 'chronicler_loremaster_monthly');
    expect(current).toMatchObject({ unit_amount: 1999, active: true, product: 'chronicler_loremaster' });
    // The configured slot got no lookup-key price of its own.
    expect([...stripe.prices.values()].some((p) => p.lookup_key === 'chronicler_wordsmith_monthly')).toBe(false);
  });

  it('says what is missing without Stripe keys', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['stripe:prices'], { env: { DATA_DIR: dataDir }, out: (l) => out.push(l), err: (l) => err.push(l) });
    expect(code).toBe(1);
    expect(err).toEqual(['Error: STRIPE_SECRET_KEY is not set: there is no Stripe account to set up']);
  });
});
