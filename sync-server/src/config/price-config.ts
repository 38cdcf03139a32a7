/**
 * Which Stripe price each plan and interval is sold at (docs/server.md#billing: prices decided by
 * the server): a price whose lookup key is `chronicler_<plan>_<monthly|yearly>` (what
 * `pnpm cli stripe:prices` creates), unless STRIPE_PRICE_IDS names one for that plan and interval.
 * No Stripe types here: config.ts parses STRIPE_PRICE_IDS with it, and billing/ sells by it. It is
 * configuration (the lookup keys are what an operator names prices by in Stripe), so it sits in
 * config/, below billing/ and everything else that reads the settings.
 */
import { BILLING_INTERVALS, type BillingInterval, PLAN_NAMES, type PlanName, isPaidPlan } from '@chronicler/schema';

/** `<plan>_<interval>`, e.g. `wordsmith_yearly`: the key of STRIPE_PRICE_IDS entries. */
export type PriceSlot = `${PlanName}_${BillingInterval}`;

export interface PlanInterval {
  plan: PlanName;
  interval: BillingInterval;
}

export const LOOKUP_KEY_PREFIX = 'chronicler_';

export const priceSlotOf = ({ plan, interval }: PlanInterval): PriceSlot => `${plan}_${interval}`;

/** The documented lookup key of a plan's price: `chronicler_wordsmith_monthly`. */
export const lookupKeyOf = (slot: PlanInterval): string => `${LOOKUP_KEY_PREFIX}${priceSlotOf(slot)}`;

/** Every plan and interval that can be bought (3 paid plans × monthly, yearly). */
export function paidPlanIntervals(): PlanInterval[] {
  return PLAN_NAMES.filter(isPaidPlan).flatMap((plan) => BILLING_INTERVALS.map((interval) => ({ plan, interval })));
}

const SLOTS = new Map(paidPlanIntervals().map((slot) => [priceSlotOf(slot), slot]));

export function planIntervalOfSlot(text: string): PlanInterval | null {
  return SLOTS.get(text as PriceSlot) ?? null;
}

/** The plan and interval a documented lookup key names, or null. */
export function planIntervalOfLookupKey(key: string | null | undefined): PlanInterval | null {
  return key?.startsWith(LOOKUP_KEY_PREFIX) ? planIntervalOfSlot(key.slice(LOOKUP_KEY_PREFIX.length)) : null;
}

export type ConfiguredPriceIds = Partial<Record<PriceSlot, string>>;

/**
 * STRIPE_PRICE_IDS: `wordsmith_monthly=price_1Q…,wordsmith_yearly=price_1R…` (any subset). A
 * typo would silently sell at the lookup key's price instead, so anything else is refused at start.
 */
export function parsePriceIds(text: string | undefined): ConfiguredPriceIds {
  const out: ConfiguredPriceIds = {};
  for (const entry of (text ?? '').split(',').map((e) => e.trim()).filter(Boolean)) {
    const [slot = '', id = ''] = entry.split('=', 2).map((part) => part.trim());
    if (!planIntervalOfSlot(slot)) {
      throw new Error(`STRIPE_PRICE_IDS: "${slot}" is not a paid plan and interval; use ${[...SLOTS.keys()].join(', ')}`);
    }
    if (!/^price_[A-Za-z0-9_]+$/.test(id)) throw new Error(`STRIPE_PRICE_IDS: "${id}" (for ${slot}) is not a Stripe price id (price_…)`);
    if (out[slot as PriceSlot]) throw new Error(`STRIPE_PRICE_IDS: ${slot} is given twice`);
    out[slot as PriceSlot] = id;
  }
  return out;
}
