/**
 * The price a Checkout Session sells a plan at (docs/server.md#billing: prices decided by the
 * server). For each plan and interval, in order:
 * 1. the price STRIPE_PRICE_IDS names for it, else
 * 2. the price with the documented lookup key `chronicler_<plan>_<interval>` (config/price-config.ts;
 *    `pnpm cli stripe:prices` creates them), else
 * 3. the plan table's price sent inline (`price_data`), so a fresh Stripe account sells at once
 *    (STRIPE_INLINE_PRICES=false turns this off: such a plan is then refused).
 * A Stripe price is used only when it agrees with the plan table (currency, unit amount incl. the
 * yearly discount, billed every month/year, licensed per unit, active): one that disagrees is never
 * used — not even replaced by the inline price, as the operator meant that price — the operator
 * reads why in the log and the author gets a clear 503 instead of a wrong charge.
 * Prices are looked up once for all plans (one `prices.list` by lookup keys, one `retrieve` per
 * configured id) and kept PRICE_CACHE_MS, or PRICE_RECHECK_MS while any plan lacks a usable price,
 * so a price fixed at Stripe is picked up within a minute.
 */
import type Stripe from 'stripe';
import { type BillingInterval, ERROR_CODES, PLANS, type PlanName, SUBSCRIPTION_CURRENCY, subscriptionPriceCents } from '@chronicler/schema';
import { HttpError } from '../http/errors.ts';
import { type ConfiguredPriceIds, type PlanInterval, type PriceSlot, lookupKeyOf, paidPlanIntervals, priceSlotOf } from '../config/price-config.ts';
import { callStripe, retrievedOrNull } from './stripe.ts';

export const PRICE_CACHE_MS = 10 * 60_000;
export const PRICE_RECHECK_MS = 60_000;

/** What the plan table says Stripe must charge for a plan and interval. */
export interface ExpectedPrice {
  currency: string;
  unitAmount: number;
  recurringInterval: 'month' | 'year';
}

export function expectedPrice({ plan, interval }: PlanInterval): ExpectedPrice {
  return { currency: SUBSCRIPTION_CURRENCY, unitAmount: subscriptionPriceCents(plan, interval), recurringInterval: interval === 'monthly' ? 'month' : 'year' };
}

/** Where a Stripe price disagrees with the plan table, in the operator's words; empty when it agrees. */
export function priceDisagreements(price: Stripe.Price, expected: ExpectedPrice): string[] {
  const out: string[] = [];
  if (!price.active) out.push('it is archived (inactive)');
  if (price.currency !== expected.currency) out.push(`its currency is ${price.currency}, the plan table's is ${expected.currency}`);
  if (price.billing_scheme !== 'per_unit') out.push(`its billing scheme is ${price.billing_scheme}, not per_unit`);
  if (price.unit_amount !== expected.unitAmount) out.push(`it charges ${price.unit_amount ?? 'a customer-chosen amount'}, the plan table says ${expected.unitAmount} (cents)`);
  const recurring = price.recurring;
  if (price.type !== 'recurring' || !recurring) out.push('it is a one-time price, not a recurring one');
  else {
    if (recurring.interval !== expected.recurringInterval || recurring.interval_count !== 1) {
      out.push(`it bills every ${recurring.interval_count} ${recurring.interval}(s), the plan table every 1 ${expected.recurringInterval}`);
    }
    if (recurring.usage_type !== 'licensed') out.push(`its usage type is ${recurring.usage_type}, not licensed`);
  }
  return out;
}

/** The plan table's price as Checkout's inline `price_data`. */
export function inlineLineItem(slot: PlanInterval): Stripe.Checkout.SessionCreateParams.LineItem {
  const expected = expectedPrice(slot);
  return {
    quantity: 1,
    price_data: {
      currency: expected.currency,
      unit_amount: expected.unitAmount,
      recurring: { interval: expected.recurringInterval },
      product_data: { name: `${PLANS[slot.plan].displayName} (${slot.interval})` },
    },
  };
}

/** A Stripe price by id, or null when Stripe has none by that id. */
export function retrievePrice(stripe: Stripe, id: string): Promise<Stripe.Price | null> {
  return retrievedOrNull(() => stripe.prices.retrieve(id));
}

/** The prices with the documented lookup keys, by key (Stripe keeps a lookup key on one price at most). */
export async function pricesByLookupKey(stripe: Stripe, slots: readonly PlanInterval[]): Promise<Map<string, Stripe.Price>> {
  const found = new Map<string, Stripe.Price>();
  // Stripe takes up to 10 lookup keys a request.
  for (let i = 0; i < slots.length; i += 10) {
    const keys = slots.slice(i, i + 10).map(lookupKeyOf);
    const page = await stripe.prices.list({ lookup_keys: keys, limit: 100 });
    for (const price of page.data) if (price.lookup_key) found.set(price.lookup_key, price);
  }
  return found;
}

type Choice = { kind: 'price'; id: string } | { kind: 'inline' } | { kind: 'refused' };

/** The logger's calls billing uses (pino's signature). */
export interface PriceLog {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface PriceResolverOptions {
  stripe: Stripe;
  priceIds: ConfiguredPriceIds;
  inlinePrices: boolean;
  log: PriceLog;
  now(): number;
}

export interface PriceResolver {
  /** Checkout's line item for a plan and interval; a 503 when its configured price cannot be used. */
  lineItem(plan: PlanName, interval: BillingInterval): Promise<Stripe.Checkout.SessionCreateParams.LineItem>;
}

export function priceRefused(plan: PlanName, interval: BillingInterval): HttpError {
  return new HttpError(
    503,
    ERROR_CODES.paymentsNotConfigured,
    `${PLANS[plan].displayName} plan (${interval}) cannot be bought right now: its price at the payment provider is not set up correctly. Nothing was charged; please try again later.`,
  );
}

export function createPriceResolver(options: PriceResolverOptions): PriceResolver {
  const { stripe, priceIds, inlinePrices, log } = options;
  let cached: { choices: Map<PriceSlot, Choice>; expiresAt: number } | null = null;
  let loading: Promise<Map<PriceSlot, Choice>> | null = null;

  const load = async (): Promise<Map<PriceSlot, Choice>> => {
    const slots = paidPlanIntervals();
    const byKey = await pricesByLookupKey(stripe, slots.filter((slot) => !priceIds[priceSlotOf(slot)]));
    const configured = new Map(
      await Promise.all(
        slots.flatMap((slot) => {
          const id = priceIds[priceSlotOf(slot)];
          return id ? [retrievePrice(stripe, id).then((price) => [id, price] as const)] : [];
        }),
      ),
    );
    const choices = new Map<PriceSlot, Choice>();
    for (const slot of slots) {
      const id = priceIds[priceSlotOf(slot)];
      const lookupKey = lookupKeyOf(slot);
      const price = id ? configured.get(id) : byKey.get(lookupKey);
      const where = id ? { plan: slot.plan, interval: slot.interval, priceId: id, source: 'STRIPE_PRICE_IDS' } : { plan: slot.plan, interval: slot.interval, lookupKey };
      if (!price) {
        if (id) {
          log.error(where, `Stripe has no price ${id} (STRIPE_PRICE_IDS, ${priceSlotOf(slot)}): this plan cannot be bought until it is fixed`);
          choices.set(priceSlotOf(slot), { kind: 'refused' });
        } else if (inlinePrices) {
          log.info(where, `No Stripe price has the lookup key ${lookupKey}: selling at the plan table's price inline (pnpm cli stripe:prices creates it)`);
          choices.set(priceSlotOf(slot), { kind: 'inline' });
        } else {
          log.error(where, `No Stripe price has the lookup key ${lookupKey} and STRIPE_INLINE_PRICES=false: this plan cannot be bought (pnpm cli stripe:prices creates it)`);
          choices.set(priceSlotOf(slot), { kind: 'refused' });
        }
        continue;
      }
      const disagreements = priceDisagreements(price, expectedPrice(slot));
      if (disagreements.length > 0) {
        log.error(
          { ...where, priceId: price.id, disagreements },
          `Stripe price ${price.id} for ${priceSlotOf(slot)} disagrees with the plan table and is not used: ${disagreements.join('; ')}. Authors are refused this plan until it is fixed (pnpm cli stripe:prices)`,
        );
        choices.set(priceSlotOf(slot), { kind: 'refused' });
      } else {
        choices.set(priceSlotOf(slot), { kind: 'price', id: price.id });
      }
    }
    return choices;
  };

  const current = async (): Promise<Map<PriceSlot, Choice>> => {
    if (cached && cached.expiresAt > options.now()) return cached.choices;
    // Concurrent checkouts share one lookup; a failed lookup is not kept (the next checkout asks again).
    loading ??= callStripe(load)
      .then((choices) => {
        const settled = [...choices.values()].every((choice) => choice.kind === 'price');
        cached = { choices, expiresAt: options.now() + (settled ? PRICE_CACHE_MS : PRICE_RECHECK_MS) };
        return choices;
      })
      .finally(() => {
        loading = null;
      });
    return loading;
  };

  return {
    async lineItem(plan, interval) {
      const slot = { plan, interval };
      const choice = (await current()).get(priceSlotOf(slot)) ?? { kind: 'refused' };
      if (choice.kind === 'price') return { quantity: 1, price: choice.id };
      if (choice.kind === 'inline') return inlineLineItem(slot);
      throw priceRefused(plan, interval);
    },
  };
}
