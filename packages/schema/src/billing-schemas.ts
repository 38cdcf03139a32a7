/**
 * The zod schemas of billing (billing.ts) and of the product catalogue (products.ts): request
 * bodies and the answers the web app parses. Apart from the rules so that the signed-in app's first
 * screen, which reads what the author owns, downloads no zod (issue 16).
 */
import './zod-browser.ts';
import { z } from 'zod';
import { entitlementSchema } from './entities.ts';
import { planNameSchema } from './plan-schemas.ts';
import { PRODUCT_IDS, isProductId } from './products.ts';
import { BILLING_INTERVALS, GIFT_MESSAGES, SUPPORT_LIMITS, UNKNOWN_PRODUCT, isGiftCode, isPaidPlan, normalizeGiftCode } from './billing.ts';

export const productIdSchema = z.enum(PRODUCT_IDS);

// GET /api/subscription-plans (000 §3)
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

export const billingIntervalSchema = z.enum(BILLING_INTERVALS);

export const createSubscriptionBodySchema = z.strictObject({
  planName: z
    .string({ error: 'Please choose a plan' })
    .transform((v) => v.trim().toLowerCase())
    .pipe(planNameSchema.refine(isPaidPlan, { error: 'The Apprentice plan is free: there is nothing to buy' })),
  interval: billingIntervalSchema.default('monthly'),
});
export type CreateSubscriptionBody = z.input<typeof createSubscriptionBodySchema>;

// POST /api/create-payment-intent
export const createPaymentIntentBodySchema = z.strictObject({
  items: z
    .array(z.strictObject({ id: z.string({ error: UNKNOWN_PRODUCT }).max(100, { error: UNKNOWN_PRODUCT }).refine(isProductId, { error: UNKNOWN_PRODUCT }) }), { error: 'Choose one product' })
    .length(1, { error: 'Choose one product' }),
  /** What the page showed, in dollars (the checkout URL's `amount`); never what is charged. */
  amount: z.number({ error: 'amount must be a number' }).finite().min(0).max(1_000_000),
});
export type CreatePaymentIntentBody = z.infer<typeof createPaymentIntentBodySchema>;

// POST /api/gifts/redeem
export const redeemGiftBodySchema = z.strictObject({
  code: z
    .string({ error: 'Please enter a gift code' })
    .max(40, { error: GIFT_MESSAGES.invalid })
    .transform(normalizeGiftCode)
    .refine(isGiftCode, { error: GIFT_MESSAGES.invalid }),
});

// Premium support requests
export const supportRequestBodySchema = z.strictObject({
  subject: z.string({ error: 'Please enter a subject' }).trim().min(1, { error: 'Please enter a subject' }).max(SUPPORT_LIMITS.subject, { error: `Must be at most ${SUPPORT_LIMITS.subject} characters` }),
  message: z
    .string({ error: 'Please describe what you need' })
    .trim()
    .min(1, { error: 'Please describe what you need' })
    .max(SUPPORT_LIMITS.message, { error: `Must be at most ${SUPPORT_LIMITS.message} characters` }),
});
export type SupportRequestBody = z.infer<typeof supportRequestBodySchema>;

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
