/**
 * Plans, subscriptions and premium products (spec 000 §7; docs/server.md#billing):
 * - GET  /api/subscription-plans          the plan list, from the one plan table (works without Stripe);
 * - POST /api/subscriptions {planName, interval}   a Checkout Session at the server's price (prices.ts) → {url};
 * - POST /api/create-payment-intent {items:[{id}], amount}   a PaymentIntent at the catalogue price
 *   → {clientSecret, amount}; an `amount` that is not the price is refused (409 PRICE_MISMATCH, with it);
 * - POST /api/billing/portal               Stripe's customer portal (change card, switch plan, cancel) → {url};
 * - GET  /api/billing/status               plan, subscription as Stripe last said, entitlements;
 * - POST /api/gifts/redeem {code}          one month of Wordsmith, once per code;
 * - GET|POST /api/support-requests         premium support requests (owners of Premium Support);
 * - POST /api/stripe/webhook               public, verified on the raw body (webhook.ts).
 * Without STRIPE_SECRET_KEY every payment call answers 503 PAYMENTS_NOT_CONFIGURED.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type Stripe from 'stripe';
import {
  ERROR_CODES,
  GIFT_CODE_VALID_DAYS,
  GIFT_MESSAGES,
  DAY_MS,
  PLANS,
  PREMIUM_SUPPORT_REQUIRED,
  type BillingStatus,
  hasPrioritySupport,
  createPaymentIntentBodySchema,
  createSubscriptionBodySchema,
  priceMismatch,
  productById,
  redeemGiftBodySchema,
  statusGrantsPlan,
  subscriptionPlanSchema,
  subscriptionPlans,
  supportRequestBodySchema,
  toPlanName,
} from '@chronicler/schema';
import { z } from 'zod';
import { type AuthUser, requireUser } from '../http/caller.ts';
import { type Clock, systemClock } from '../auth/clock.ts';
import { HttpError } from '../http/errors.ts';
import { runServerWrite } from '../sync/mutation.ts';
import { applyEffect } from './events.ts';
import { type PriceResolver, createPriceResolver } from './prices.ts';
import { callStripe, createStripeClient, paymentsNotConfigured } from './stripe.ts';
import {
  authorsWithEndedGifts,
  currentSubscriptionOf,
  entitlementsOf,
  giftByCode,
  giftMonthUntil,
  grantEntitlement,
  insertSupportRequest,
  markGiftRedeemed,
  recomputePlan,
  rememberStripeCustomer,
  stripeCustomerOf,
} from './store.ts';
import webhookRoute from './webhook.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Billing's time source (gift months, premium support); tests move it forward. */
    billingClock: Clock;
    /** Ends gift months whose time is up (also run every minute). */
    expireGiftMonths(): Promise<void>;
  }
}

const GIFT_SWEEP_INTERVAL_MS = 60_000;

/** The site's own origin (success, cancel and return addresses never point elsewhere). */
function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

async function billingPlugin(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { config, database } = app.deps;
  const { db } = database;
  const stripe: Stripe | null = config.stripe ? createStripeClient(config.stripe) : null;
  app.decorate('billingClock', systemClock());

  const requireStripe = (): Stripe => {
    if (!stripe) throw paymentsNotConfigured();
    return stripe;
  };
  const priceResolver =
    stripe &&
    createPriceResolver({
      stripe,
      priceIds: config.stripe?.priceIds ?? {},
      inlinePrices: config.stripe?.inlinePrices ?? true,
      log: app.log,
      now: () => app.billingClock.now(),
    });
  const prices = (): PriceResolver => {
    if (!priceResolver) throw paymentsNotConfigured();
    return priceResolver;
  };

  const ensureCustomer = async (user: AuthUser): Promise<string> => {
    const known = await stripeCustomerOf(db, user.id);
    if (known) return known;
    const customer = await callStripe(() =>
      requireStripe().customers.create({ name: user.displayName, ...(user.email ? { email: user.email } : {}), metadata: { userId: user.id } }),
    );
    await rememberStripeCustomer(db, user.id, customer.id, new Date().toISOString());
    // A concurrent request may have stored another customer first: use the stored one.
    return (await stripeCustomerOf(db, user.id)) ?? customer.id;
  };

  /** Authors whose gift month ended get their plan back (markUserChanged tells their apps). */
  const expireGiftMonths = async (onlyUserId?: string) => {
    const now = app.billingClock.now();
    for (const userId of await authorsWithEndedGifts(db, now, onlyUserId)) {
      await runServerWrite(app.deps, (write) => recomputePlan(write, userId, now));
    }
  };
  app.decorate('expireGiftMonths', () => expireGiftMonths());
  const sweep = setInterval(() => void expireGiftMonths().catch((error: unknown) => app.log.error({ err: error }, 'gift expiry failed')), GIFT_SWEEP_INTERVAL_MS);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));

  app.get('/api/subscription-plans', { schema: { response: { 200: z.array(subscriptionPlanSchema) } } }, async () => subscriptionPlans());

  app.post('/api/subscriptions', { schema: { body: createSubscriptionBodySchema } }, async (request) => {
    const user = requireUser(request);
    const { planName, interval } = request.body;
    const client = requireStripe();
    const current = await db.selectFrom('users').select('plan').where('id', '=', user.id).executeTakeFirst();
    if (current?.plan === planName) {
      throw new HttpError(409, ERROR_CODES.conflict, `You are already subscribed to the ${PLANS[planName].displayName} plan.`);
    }
    const sub = await currentSubscriptionOf(db, user.id);
    if (sub && statusGrantsPlan(sub.status)) {
      // One subscription per author: switching goes through the portal, which prorates.
      throw new HttpError(409, ERROR_CODES.conflict, 'You already have a subscription: use Manage subscription to switch plans.');
    }
    // The price first: a plan that cannot be sold makes no Stripe customer.
    const lineItem = await prices().lineItem(planName, interval);
    const customer = await ensureCustomer(user);
    const origin = originOf(request);
    const metadata = { userId: user.id, plan: planName, interval };
    const session = await callStripe(() =>
      client.checkout.sessions.create({
        mode: 'subscription',
        customer,
        client_reference_id: user.id,
        line_items: [lineItem],
        metadata,
        subscription_data: { metadata },
        success_url: `${origin}/subscriptions?checkout=success`,
        cancel_url: `${origin}/subscriptions?checkout=cancelled`,
      }),
    );
    if (!session.url) throw new HttpError(502, ERROR_CODES.internal, 'The payment provider did not return a checkout address.');
    return { url: session.url };
  });

  app.post('/api/create-payment-intent', { schema: { body: createPaymentIntentBodySchema } }, async (request, reply) => {
    const user = requireUser(request);
    const product = productById(request.body.items[0]!.id)!;
    const client = requireStripe();
    const mismatch = priceMismatch(product, request.body.amount);
    if (mismatch) {
      return reply.status(409).send({ message: mismatch, code: ERROR_CODES.priceMismatch, price: product.priceCents, amount: product.priceCents / 100 });
    }
    const customer = await ensureCustomer(user);
    const intent = await callStripe(() =>
      client.paymentIntents.create({
        amount: product.priceCents,
        currency: product.currency,
        customer,
        description: product.name,
        metadata: { userId: user.id, productId: product.id },
        automatic_payment_methods: { enabled: true },
      }),
    );
    if (!intent.client_secret) throw new HttpError(502, ERROR_CODES.internal, 'The payment provider did not return a payment.');
    return { clientSecret: intent.client_secret, amount: product.priceCents / 100, price: product.priceCents, publishableKey: config.stripe?.publishableKey ?? null };
  });

  app.post('/api/billing/portal', async (request) => {
    const user = requireUser(request);
    const client = requireStripe();
    // Also for an author who never subscribed: the portal shows their cards and receipts.
    const customer = await ensureCustomer(user);
    const session = await callStripe(() => client.billingPortal.sessions.create({ customer, return_url: `${originOf(request)}/subscriptions` }));
    return { url: session.url };
  });

  app.get('/api/billing/status', async (request): Promise<BillingStatus> => {
    const user = requireUser(request);
    const now = app.billingClock.now();
    // A gift month that ended since the last sweep ends now for its author.
    await expireGiftMonths(user.id);
    const [row, sub, giftUntil, entitlements] = await Promise.all([
      db.selectFrom('users').select('plan').where('id', '=', user.id).executeTakeFirst(),
      currentSubscriptionOf(db, user.id),
      giftMonthUntil(db, user.id, now),
      entitlementsOf(db, user.id),
    ]);
    return {
      paymentsConfigured: stripe !== null,
      plan: toPlanName(row?.plan),
      subscription: sub
        ? {
            plan: toPlanName(sub.plan),
            interval: sub.interval === 'yearly' ? 'yearly' : 'monthly',
            status: sub.status,
            currentPeriodEnd: sub.currentPeriodEnd,
            cancelAtPeriodEnd: sub.cancelAtPeriodEnd === 1,
            paymentFailed: sub.paymentFailed === 1,
          }
        : null,
      giftUntil,
      entitlements,
    };
  });

  app.post('/api/gifts/redeem', { schema: { body: redeemGiftBodySchema } }, async (request) => {
    const user = requireUser(request);
    const now = app.billingClock.now();
    const code = request.body.code;
    const result = await runServerWrite(app.deps, async (write) => {
      const gift = await giftByCode(write.trx, code);
      if (!gift || gift.deletedAt !== null) throw new HttpError(404, ERROR_CODES.notFound, GIFT_MESSAGES.invalid);
      if (gift.giftRedeemedAt !== null) throw new HttpError(409, ERROR_CODES.conflict, GIFT_MESSAGES.used);
      if (Date.parse(gift.createdAt) + GIFT_CODE_VALID_DAYS * DAY_MS <= now) throw new HttpError(410, ERROR_CODES.conflict, GIFT_MESSAGES.expired);
      if (!(await markGiftRedeemed(write, gift, user.id))) throw new HttpError(409, ERROR_CODES.conflict, GIFT_MESSAGES.used);
      const month = await grantEntitlement(write, { userId: user.id, kind: 'gift-month', source: `gift:${code}`, now });
      await recomputePlan(write, user.id, now);
      return { month };
    });
    return { message: GIFT_MESSAGES.redeemed, giftUntil: result.month.expiresAt };
  });

  app.post('/api/support-requests', { schema: { body: supportRequestBodySchema } }, async (request, reply) => {
    const user = requireUser(request);
    const now = app.billingClock.now();
    const row = await db.selectFrom('users').select('plan').where('id', '=', user.id).executeTakeFirst();
    if (!hasPrioritySupport(toPlanName(row?.plan), await entitlementsOf(db, user.id), now)) throw new HttpError(403, ERROR_CODES.featureLocked, PREMIUM_SUPPORT_REQUIRED);
    const saved = await insertSupportRequest(db, { userId: user.id, subject: request.body.subject, message: request.body.message, now });
    return reply.status(201).send({ ...saved, subject: request.body.subject, message: request.body.message });
  });

  app.get('/api/support-requests', async (request) => {
    const user = requireUser(request);
    const rows = await db
      .selectFrom('supportRequests')
      .select(['id', 'subject', 'message', 'createdAt'])
      .where('userId', '=', user.id)
      .orderBy('createdAt', 'desc')
      .limit(100)
      .execute();
    return rows;
  });

  await app.register(webhookRoute, { stripe, webhookSecret: config.stripe?.webhookSecret ?? null, priceIds: config.stripe?.priceIds ?? {}, applyEffect });
}

// fastify-plugin: `billingClock` and `expireGiftMonths` are the app's (tests move the clock); the
// webhook keeps its own encapsulated context for its raw-body parser.
export default fp(billingPlugin, { name: 'chronicler-billing', dependencies: ['chronicler-auth'] });
