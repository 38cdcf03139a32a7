/**
 * `pnpm cli stripe:prices`: makes the Stripe account sell the plan table (docs/server.md#billing).
 * For each paid plan a product `chronicler_<plan>` (its name and description from the plan table)
 * and, for each interval, a price with the documented lookup key (config/price-config.ts) at the
 * plan table's price. Idempotent: a second run changes nothing. Stripe prices cannot change amount,
 * so a price that disagrees with the plan table is replaced: a new price takes the lookup key
 * (`transfer_lookup_key`) and the old one is archived (subscriptions on it continue; nobody new can
 * choose it). A plan and interval STRIPE_PRICE_IDS names is only checked, never changed: that price
 * is the operator's.
 */
import type Stripe from 'stripe';
import { PLANS, type PlanName, isPaidPlan, PLAN_NAMES } from '@chronicler/schema';
import { type ConfiguredPriceIds, lookupKeyOf, paidPlanIntervals, priceSlotOf } from '../config/price-config.ts';
import { expectedPrice, priceDisagreements, pricesByLookupKey, retrievePrice } from './prices.ts';
import { retrievedOrNull } from './stripe.ts';

export const productIdOf = (plan: PlanName): string => `chronicler_${plan}`;

export interface PriceSetupReport {
  /** One line per product and price: what was found and what was done. */
  lines: string[];
  /** Objects created or changed at Stripe (0 on a second run). */
  changes: number;
  /** Configured prices that disagree with the plan table (left as they are). */
  problems: number;
}

export async function setUpStripePrices(stripe: Stripe, priceIds: ConfiguredPriceIds, options: { dryRun: boolean }): Promise<PriceSetupReport> {
  const report: PriceSetupReport = { lines: [], changes: 0, problems: 0 };
  const act = async (line: string, work: () => Promise<unknown>) => {
    report.changes++;
    report.lines.push(options.dryRun ? `would ${line}` : line);
    if (!options.dryRun) await work();
  };

  for (const plan of PLAN_NAMES.filter(isPaidPlan)) {
    const tier = PLANS[plan];
    const id = productIdOf(plan);
    const product = await retrievedOrNull(() => stripe.products.retrieve(id));
    const fields = { name: tier.displayName, description: tier.description, metadata: { chronicler_plan: plan } };
    if (!product) await act(`create product ${id} (${tier.displayName})`, () => stripe.products.create({ id, ...fields }));
    else if (product.name !== fields.name || product.description !== fields.description || !product.active) {
      await act(`update product ${id} (${tier.displayName})`, () => stripe.products.update(id, { ...fields, active: true }));
    } else report.lines.push(`product ${id}: up to date`);
  }

  const slots = paidPlanIntervals();
  const byKey = await pricesByLookupKey(stripe, slots.filter((slot) => !priceIds[priceSlotOf(slot)]));
  for (const slot of slots) {
    const expected = expectedPrice(slot);
    const configured = priceIds[priceSlotOf(slot)];
    if (configured) {
      const price = await retrievePrice(stripe, configured);
      const disagreements = price ? priceDisagreements(price, expected) : [`Stripe has no price ${configured}`];
      if (disagreements.length > 0) report.problems++;
      report.lines.push(
        disagreements.length === 0
          ? `price for ${priceSlotOf(slot)}: ${configured} (STRIPE_PRICE_IDS) agrees with the plan table`
          : `price for ${priceSlotOf(slot)}: ${configured} (STRIPE_PRICE_IDS) is NOT used: ${disagreements.join('; ')} — fix it or remove it from STRIPE_PRICE_IDS`,
      );
      continue;
    }
    const lookupKey = lookupKeyOf(slot);
    const existing = byKey.get(lookupKey);
    const disagreements = existing ? priceDisagreements(existing, expected) : [];
    if (existing && disagreements.length === 0) {
      report.lines.push(`price ${lookupKey}: ${existing.id} up to date`);
      continue;
    }
    const what = `${expected.unitAmount} ${expected.currency} every ${expected.recurringInterval}`;
    await act(existing ? `replace price ${lookupKey} (${existing.id}: ${disagreements.join('; ')}) with ${what}` : `create price ${lookupKey}: ${what}`, async () => {
      await stripe.prices.create({
        product: productIdOf(slot.plan),
        currency: expected.currency,
        unit_amount: expected.unitAmount,
        recurring: { interval: expected.recurringInterval, interval_count: 1, usage_type: 'licensed' },
        lookup_key: lookupKey,
        transfer_lookup_key: true,
        nickname: `${PLANS[slot.plan].displayName} (${slot.interval})`,
        metadata: { chronicler_plan: slot.plan, chronicler_interval: slot.interval },
      });
      if (existing?.active) await stripe.prices.update(existing.id, { active: false });
    });
  }
  return report;
}
