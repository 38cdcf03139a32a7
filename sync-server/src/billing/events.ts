/**
 * Applying a verified Stripe event (docs/server.md#billing). Stripe may deliver an event twice,
 * late, or before an older one, so:
 * - the objects are re-fetched from Stripe and their CURRENT state is stored, whatever the event's
 *   order or payload said (an old `customer.subscription.updated` arriving last stores today's
 *   state, not the old one);
 * - the event id is recorded in the transaction of its effect, so a second delivery applies nothing;
 * - prices are checked against the catalogue before a product is granted;
 * - a subscription's plan is the one its price sells (a portal switch), else its metadata's.
 * Stripe calls happen before the transaction (never hold the write lock over the network); a
 * Stripe failure answers 5xx, so Stripe delivers the event again later.
 */
import type Stripe from 'stripe';
import { type PlanName, isProductId, productById, toPlanName } from '@chronicler/schema';
import type { WriteContext } from '../entities/writes.ts';
import { type ConfiguredPriceIds, type PlanInterval, planIntervalOfLookupKey, planIntervalOfSlot } from '../config/price-config.ts';
import { type SubscriptionState, callStripe, checkoutSessionOf, invoiceSubscriptionId, paymentIntentStateOf, subscriptionStateOf } from './stripe.ts';
import { grantEntitlement, recomputePlan, rememberStripeCustomer, storeSubscription, userExists, userOfStripeCustomer } from './store.ts';

/** The types billing acts on; others are acknowledged and recorded. */
export const HANDLED_EVENT_TYPES = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
] as const;

export interface EffectContext {
  /** The event's write (runServerWrite): rows it writes take its seq, their owners are poked. */
  write: WriteContext;
  /** The billing clock's now, in ms. */
  now: number;
}

/** Runs in the event's transaction; returns the authors whose billing rows it touched. */
export type Effect = (ctx: EffectContext) => Promise<string[]>;

const nothing: Effect = async () => [];

/**
 * The plan a subscription's price sells (its lookup key, or a STRIPE_PRICE_IDS entry), or null for
 * an inline price: then the metadata Checkout was given says. A plan switched in Stripe's customer
 * portal moves the subscription to another price and leaves the metadata as it was.
 */
export function planIntervalOfPrice(price: SubscriptionState['price'], priceIds: ConfiguredPriceIds): PlanInterval | null {
  const configured = Object.entries(priceIds).find(([, id]) => id === price.id)?.[0];
  return (configured ? planIntervalOfSlot(configured) : null) ?? planIntervalOfLookupKey(price.lookupKey);
}

/** A subscription (re-fetched) stored for its author. */
async function subscriptionEffect(stripe: Stripe, priceIds: ConfiguredPriceIds, subscriptionId: string, extra: { userId?: string | null; paymentFailed?: boolean }): Promise<Effect> {
  const sub = subscriptionStateOf(await callStripe(() => stripe.subscriptions.retrieve(subscriptionId)));
  return async ({ write: { trx }, now }) => {
    const stamp = new Date(now).toISOString();
    let userId = extra.userId ?? sub.metadata.userId ?? null;
    if (!userId && sub.customerId) userId = await userOfStripeCustomer(trx, sub.customerId);
    if (!userId || !(await userExists(trx, userId))) return [];
    if (sub.customerId) await rememberStripeCustomer(trx, userId, sub.customerId, stamp);
    const sold = planIntervalOfPrice(sub.price, priceIds);
    const plan: PlanName = sold?.plan ?? toPlanName(sub.metadata.plan);
    await storeSubscription(
      trx,
      {
        id: sub.id,
        userId,
        plan,
        interval: sold?.interval ?? (sub.metadata.interval === 'yearly' ? 'yearly' : 'monthly'),
        status: sub.status,
        currentPeriodEnd: sub.currentPeriodEnd,
        cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
        ...(extra.paymentFailed === undefined ? {} : { paymentFailed: extra.paymentFailed }),
      },
      stamp,
    );
    return [userId];
  };
}

/** A product bought: granted only when Stripe says the PaymentIntent succeeded at the catalogue price. */
async function paymentEffect(stripe: Stripe, intentId: string): Promise<Effect> {
  const intent = paymentIntentStateOf(await callStripe(() => stripe.paymentIntents.retrieve(intentId)));
  const productId = intent.metadata.productId;
  const userId = intent.metadata.userId;
  if (intent.status !== 'succeeded' || !isProductId(productId) || !userId) return nothing;
  const product = productById(productId)!;
  if (intent.amount !== product.priceCents || intent.currency !== product.currency) return nothing;
  return async ({ write, now }) => {
    if (!(await userExists(write.trx, userId))) return [];
    await grantEntitlement(write, { userId, kind: productId, source: intent.id, now });
    return [userId];
  };
}

/** What the event will do, with Stripe's current objects already fetched. */
export async function effectOf(stripe: Stripe, event: Stripe.Event, priceIds: ConfiguredPriceIds = {}): Promise<Effect> {
  const object: unknown = event.data.object;
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = checkoutSessionOf(object);
      if (session.mode !== 'subscription' || !session.subscriptionId) return nothing;
      return subscriptionEffect(stripe, priceIds, session.subscriptionId, { userId: session.clientReferenceId });
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return subscriptionEffect(stripe, priceIds, String((object as { id: unknown }).id), {});
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const subscriptionId = invoiceSubscriptionId(object);
      if (!subscriptionId) return nothing;
      return subscriptionEffect(stripe, priceIds, subscriptionId, { paymentFailed: event.type === 'invoice.payment_failed' });
    }
    case 'payment_intent.succeeded':
      return paymentEffect(stripe, String((object as { id: unknown }).id));
    default:
      // payment_intent.payment_failed changes nothing on the server: the checkout page shows
      // Stripe's message to the author as it happens.
      return nothing;
  }
}

/** Applies the effect and recomputes the plan of every author it touched; returns those whose plan changed. */
export async function applyEffect(effect: Effect, ctx: EffectContext): Promise<{ touched: string[]; planChanged: string[] }> {
  const touched = [...new Set(await effect(ctx))];
  const planChanged: string[] = [];
  for (const userId of touched) if ((await recomputePlan(ctx.write, userId, ctx.now)) !== null) planChanged.push(userId);
  return { touched, planChanged };
}
