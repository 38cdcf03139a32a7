/**
 * Billing rules both sides use (spec 000 §3, §7, §9; docs/server.md#billing):
 * the plan list the API answers, request bodies, what a Stripe subscription status means for the
 * author's plan, the price the server charges, entitlements (products owned, gift months) and gift
 * codes. Prices always come from the plan and product tables, never from the client.
 */
import { z } from 'zod';
import { DEFAULT_PLAN, PLAN_LIST, PLANS, type PlanName, formatCents, hasFeature, hasTier, planNameSchema, yearlyPrice } from './plans.ts';
import { type Entitlement, type EntitlementKind, entitlementSchema } from './entities.ts';
import { type PremiumProduct, type ProductId, isProductId } from './products.ts';

// ---------------------------------------------------------------------------------------------
// GET /api/subscription-plans (000 §3: id, name, description, price in cents, features, mostPopular)

export const subscriptionPlanSchema = z.object({
  /** The lowercase plan name: what `POST /api/subscriptions` takes as `planName`. */
  id: planNameSchema,
  name: z.string(),
  description: z.string(),
  price: z.number().int(),
  features: z.array(z.string()),
  mostPopular: z.boolean(),
});
export type SubscriptionPlan = z.infer<typeof subscriptionPlanSchema>;

/** The plan list the API answers, drawn from the one plan table. */
export function subscriptionPlans(): SubscriptionPlan[] {
  return PLAN_LIST.map((p) => ({
    id: p.name,
    name: p.displayName,
    description: p.description,
    price: p.priceCents,
    features: [...p.features],
    mostPopular: p.mostPopular,
  }));
}

// ---------------------------------------------------------------------------------------------
// Subscriptions

export const BILLING_INTERVALS = ['monthly', 'yearly'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];
export const billingIntervalSchema = z.enum(BILLING_INTERVALS);

/** Plans that can be bought: every plan with a price. */
export function isPaidPlan(plan: PlanName): boolean {
  return PLANS[plan].priceCents > 0;
}

export const createSubscriptionBodySchema = z.strictObject({
  planName: z
    .string({ error: 'Please choose a plan' })
    .transform((v) => v.trim().toLowerCase())
    .pipe(planNameSchema.refine(isPaidPlan, { error: 'The Apprentice plan is free: there is nothing to buy' })),
  interval: billingIntervalSchema.default('monthly'),
});
export type CreateSubscriptionBody = z.input<typeof createSubscriptionBodySchema>;

/** Plans are priced in US dollars (the plan table's cents; `formatCents`). */
export const SUBSCRIPTION_CURRENCY = 'usd';

/** What Stripe charges for a plan: the monthly price, or the yearly total at the 20% discount. */
export function subscriptionPriceCents(plan: PlanName, interval: BillingInterval): number {
  const monthly = PLANS[plan].priceCents;
  return interval === 'monthly' ? monthly : yearlyPrice(monthly).annualCents;
}

/** Stripe subscription statuses (their API's names). */
export const STRIPE_SUBSCRIPTION_STATUSES = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'paused',
] as const;
export type StripeSubscriptionStatus = (typeof STRIPE_SUBSCRIPTION_STATUSES)[number];

/**
 * Whether a subscription in this status gives its plan. `past_due` keeps the plan while Stripe
 * retries the renewal (the author is told the payment failed); a cancelled subscription keeps
 * `active` until the period's end, when Stripe moves it to `canceled`.
 */
export function statusGrantsPlan(status: string): boolean {
  return status === 'active' || status === 'trialing' || status === 'past_due';
}

/** A gift month is Wordsmith (000 §9: "one month of Wordsmith tier access"). */
export const GIFT_PLAN: PlanName = 'wordsmith';
export const GIFT_MONTH_DAYS = 30;
/** A gift code not redeemed within this long expires. */
export const GIFT_CODE_VALID_DAYS = 365;
export const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The author's plan: the highest of the subscription's plan (when its status gives one), a gift
 * month still running, and the base plan an operator set (`pnpm cli user:plan`).
 */
export function effectivePlan(input: { basePlan: PlanName; subscriptionPlan: PlanName | null; giftUntil: string | null; now: number }): PlanName {
  const candidates: PlanName[] = [input.basePlan];
  if (input.subscriptionPlan !== null) candidates.push(input.subscriptionPlan);
  if (input.giftUntil !== null && Date.parse(input.giftUntil) > input.now) candidates.push(GIFT_PLAN);
  return candidates.reduce((best, p) => (hasTier(p, best) ? p : best), DEFAULT_PLAN);
}

// ---------------------------------------------------------------------------------------------
// Products (POST /api/create-payment-intent {items:[{id}], amount})

export const UNKNOWN_PRODUCT = 'This product is not in the catalogue';

export const createPaymentIntentBodySchema = z.strictObject({
  items: z
    .array(z.strictObject({ id: z.string({ error: UNKNOWN_PRODUCT }).max(100, { error: UNKNOWN_PRODUCT }).refine(isProductId, { error: UNKNOWN_PRODUCT }) }), { error: 'Choose one product' })
    .length(1, { error: 'Choose one product' }),
  /** What the page showed, in dollars (the checkout URL's `amount`); never what is charged. */
  amount: z.number({ error: 'amount must be a number' }).finite().min(0).max(1_000_000),
});
export type CreatePaymentIntentBody = z.infer<typeof createPaymentIntentBodySchema>;

export const PRICE_MISMATCH_MESSAGE = 'The price has changed';

/** Null when the shown amount (dollars) is the product's price, else the sentence to show. */
export function priceMismatch(product: PremiumProduct, amountDollars: number): string | null {
  if (Math.round(amountDollars * 100) === product.priceCents) return null;
  return `${PRICE_MISMATCH_MESSAGE}: ${product.name} costs ${formatCents(product.priceCents)}.`;
}

// ---------------------------------------------------------------------------------------------
// Entitlements: user-scoped synced rows (docs/server.md#billing), granted only by the verified
// webhook

// The wire schema (`entitlementSchema`, ENTITLEMENT_KINDS) is in entities.ts with the other synced kinds.

/** How long a product's entitlement lasts, in days; null for ever. */
export function entitlementDays(kind: EntitlementKind): number | null {
  if (kind === 'premium-support') return 30;
  if (kind === 'gift-month') return GIFT_MONTH_DAYS;
  return null;
}

export function isEntitlementActive(e: Pick<Entitlement, 'expiresAt' | 'deletedAt'>, now: number): boolean {
  return e.deletedAt === null && (e.expiresAt === null || Date.parse(e.expiresAt) > now);
}

/** The products the author owns now (a product bought twice is owned once). */
export function ownedProducts(entitlements: readonly Entitlement[], now: number): Set<ProductId> {
  const owned = new Set<ProductId>();
  for (const e of entitlements) {
    if (e.kind !== 'gift-month' && e.kind !== 'gift-subscription' && isEntitlementActive(e, now)) owned.add(e.kind);
  }
  return owned;
}

export function ownsProduct(entitlements: readonly Entitlement[], product: ProductId, now: number): boolean {
  return ownedProducts(entitlements, now).has(product);
}

/** Whole days left (rounded up), 0 when over. */
export function daysRemaining(expiresAt: string | null, now: number): number {
  if (expiresAt === null) return 0;
  return Math.max(0, Math.ceil((Date.parse(expiresAt) - now) / DAY_MS));
}

/** The latest-ending active entitlement of a kind, or undefined. */
export function activeEntitlement(entitlements: readonly Entitlement[], kind: EntitlementKind, now: number): Entitlement | undefined {
  return entitlements
    .filter((e) => e.kind === kind && isEntitlementActive(e, now))
    .sort((a, b) => (b.expiresAt ?? '9').localeCompare(a.expiresAt ?? '9'))[0];
}

// ---------------------------------------------------------------------------------------------
// Gift codes: XXXX-XXXX-XXXX from an alphabet without look-alikes (no 0/O, 1/I/L)

export const GIFT_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const GIFT_CODE_RE = new RegExp(`^[${GIFT_CODE_ALPHABET}]{4}-[${GIFT_CODE_ALPHABET}]{4}-[${GIFT_CODE_ALPHABET}]{4}$`);

/** Upper-cases, drops spaces and re-inserts the dashes, so a code read aloud still matches. */
export function normalizeGiftCode(raw: string): string {
  const bare = raw.toUpperCase().replace(/[^0-9A-Z]/g, '');
  return bare.length === 12 ? `${bare.slice(0, 4)}-${bare.slice(4, 8)}-${bare.slice(8)}` : bare;
}

export function isGiftCode(code: string): boolean {
  return GIFT_CODE_RE.test(code);
}

export const GIFT_MESSAGES = {
  invalid: 'This gift code is not valid',
  used: 'This gift code has already been redeemed',
  expired: 'This gift code has expired',
  redeemed: 'Gift redeemed: enjoy one month of The Wordsmith tier',
} as const;

export const redeemGiftBodySchema = z.strictObject({
  code: z
    .string({ error: 'Please enter a gift code' })
    .max(40, { error: GIFT_MESSAGES.invalid })
    .transform(normalizeGiftCode)
    .refine(isGiftCode, { error: GIFT_MESSAGES.invalid }),
});

// ---------------------------------------------------------------------------------------------
// Premium support requests

export const SUPPORT_LIMITS = { subject: 200, message: 10_000 } as const;

export const supportRequestBodySchema = z.strictObject({
  subject: z.string({ error: 'Please enter a subject' }).trim().min(1, { error: 'Please enter a subject' }).max(SUPPORT_LIMITS.subject, { error: `Must be at most ${SUPPORT_LIMITS.subject} characters` }),
  message: z
    .string({ error: 'Please describe what you need' })
    .trim()
    .min(1, { error: 'Please describe what you need' })
    .max(SUPPORT_LIMITS.message, { error: `Must be at most ${SUPPORT_LIMITS.message} characters` }),
});
export type SupportRequestBody = z.infer<typeof supportRequestBodySchema>;

export const PREMIUM_SUPPORT_REQUIRED = 'Priority support comes with Premium Support or a plan that includes it';

/** Priority support: a plan with the feature (000 §6), or Premium Support still running. */
export function hasPrioritySupport(plan: PlanName, entitlements: readonly Entitlement[], now: number): boolean {
  return hasFeature(plan, 'prioritySupport') || activeEntitlement(entitlements, 'premium-support', now) !== undefined;
}

// ---------------------------------------------------------------------------------------------
// GET /api/billing/status: the author's subscription as Stripe last told us

export const billingStatusSchema = z.object({
  paymentsConfigured: z.boolean(),
  plan: planNameSchema,
  subscription: z
    .object({
      plan: planNameSchema,
      interval: billingIntervalSchema,
      status: z.string(),
      currentPeriodEnd: z.string().nullable(),
      cancelAtPeriodEnd: z.boolean(),
      /** The last renewal failed and Stripe is retrying (shown to the author). */
      paymentFailed: z.boolean(),
    })
    .nullable(),
  giftUntil: z.string().nullable(),
  entitlements: z.array(entitlementSchema),
});
export type BillingStatus = z.infer<typeof billingStatusSchema>;
