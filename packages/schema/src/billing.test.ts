import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DAY_MS,
  effectivePlan,
  isGiftCode,
  normalizeGiftCode,
  ownedProducts,
  priceMismatch,
  statusGrantsPlan,
  subscriptionPlans,
  subscriptionPriceCents,
  daysRemaining,
} from './billing.ts';
import type { Entitlement } from './entities.ts';
import { PLAN_NAMES, PLANS, hasTier } from './plans.ts';
import { PRODUCTS, productById } from './products.ts';

const entitlement = (fields: Partial<Entitlement>): Entitlement => ({
  id: '0190a6f0-0000-7000-8000-000000000009',
  rev: 1,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  deletedAt: null,
  userId: '0190a6f0-0000-7000-8000-000000000001',
  kind: 'custom-theme-pack',
  expiresAt: null,
  giftCode: null,
  giftRedeemedAt: null,
  ...fields,
});

describe('plans and prices', () => {
  it('the API plan list is the plan table', () => {
    expect(subscriptionPlans().map((p) => [p.id, p.price, p.mostPopular])).toEqual(PLAN_NAMES.map((n) => [n, PLANS[n].priceCents, PLANS[n].mostPopular]));
  });

  it('yearly is twelve months at 20% off, rounded to the cent', () => {
    expect(subscriptionPriceCents('wordsmith', 'monthly')).toBe(999);
    expect(subscriptionPriceCents('wordsmith', 'yearly')).toBe(9590);
    expect(subscriptionPriceCents('legendary', 'yearly')).toBe(47990);
  });

  it('only the catalogue price (in dollars, to the cent) passes the price check', () => {
    for (const product of PRODUCTS) expect(priceMismatch(product, product.priceCents / 100)).toBeNull();
    expect(priceMismatch(productById('custom-theme-pack')!, 0.01)).toBe('The price has changed: Custom Theme Pack costs $4.99.');
    fc.assert(
      fc.property(fc.constantFrom(...PRODUCTS), fc.double({ min: 0, max: 10_000, noNaN: true }), (product, amount) => {
        expect(priceMismatch(product, amount) === null).toBe(Math.round(amount * 100) === product.priceCents);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the plan an author has', () => {
  it('follows the subscription while Stripe says it is active, trialing or past due', () => {
    expect(['active', 'trialing', 'past_due'].every(statusGrantsPlan)).toBe(true);
    expect(['canceled', 'unpaid', 'incomplete', 'incomplete_expired', 'paused'].some(statusGrantsPlan)).toBe(false);
  });

  it('is the highest of the base plan, the subscription and a running gift month, and never below the base', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    const soon = new Date(now + DAY_MS).toISOString();
    const past = new Date(now - 1).toISOString();
    expect(effectivePlan({ basePlan: 'apprentice', subscriptionPlan: null, giftUntil: soon, now })).toBe('wordsmith');
    expect(effectivePlan({ basePlan: 'apprentice', subscriptionPlan: null, giftUntil: past, now })).toBe('apprentice');
    expect(effectivePlan({ basePlan: 'apprentice', subscriptionPlan: 'legendary', giftUntil: soon, now })).toBe('legendary');
    fc.assert(
      fc.property(fc.constantFrom(...PLAN_NAMES), fc.option(fc.constantFrom(...PLAN_NAMES), { nil: null }), fc.option(fc.integer({ min: -40, max: 40 }), { nil: null }), (base, sub, giftDays) => {
        const giftUntil = giftDays === null ? null : new Date(now + giftDays * DAY_MS).toISOString();
        const plan = effectivePlan({ basePlan: base, subscriptionPlan: sub, giftUntil, now });
        expect(hasTier(plan, base)).toBe(true);
        if (sub) expect(hasTier(plan, sub)).toBe(true);
        if (giftDays !== null && giftDays > 0) expect(hasTier(plan, 'wordsmith')).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('entitlements', () => {
  it('owned products: active, not deleted, gifts and gift months excluded', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    const owned = ownedProducts(
      [
        entitlement({ kind: 'inspiration-pack' }),
        entitlement({ kind: 'writers-toolkit', deletedAt: '2026-11-02T00:00:00.000Z' }),
        entitlement({ kind: 'premium-support', expiresAt: '2026-11-20T00:00:00.000Z' }),
        entitlement({ kind: 'gift-subscription', giftCode: 'ABCD-EFGH-JKMN' }),
        entitlement({ kind: 'gift-month', expiresAt: '2026-12-20T00:00:00.000Z' }),
      ],
      now,
    );
    expect([...owned]).toEqual(['inspiration-pack']);
    expect(daysRemaining('2026-11-26T12:00:00.000Z', now)).toBe(1);
    expect(daysRemaining('2026-11-20T00:00:00.000Z', now)).toBe(0);
  });

  it('gift codes are read back however they were typed', () => {
    expect(normalizeGiftCode(' abcd efgh jkmn ')).toBe('ABCD-EFGH-JKMN');
    expect(isGiftCode('ABCD-EFGH-JKMN')).toBe(true);
    // No look-alikes in the alphabet: 0, O, 1, I and L never appear.
    expect(isGiftCode('ABCD-EFGH-JKM0')).toBe(false);
    expect(isGiftCode('ABCD-EFGH')).toBe(false);
  });
});
