/**
 * POST /api/stripe/webhook: public (Stripe has no session) and verified instead.
 * - The body is kept as the raw bytes Stripe signed: this route's own content-type parser (in its
 *   own encapsulated context, so every other route keeps the JSON-only parser of app.ts); a
 *   re-serialised body would fail every signature.
 * - The `Stripe-Signature` timestamp must be within WEBHOOK_TOLERANCE_S of now in BOTH directions
 *   (the SDK only refuses old ones): a captured delivery cannot be replayed later, nor a
 *   future-dated one stored up.
 * - Each event applies once (events.ts); answers 2xx once applied or already applied, 400 for a
 *   delivery that can never be valid, 5xx when Stripe could not be reached (Stripe retries).
 * It needs no exemption from the cross-site check (Stripe's servers send neither Sec-Fetch-Site
 * nor Origin) and sends application/json, which that check accepts.
 */
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { ERROR_CODES } from '@chronicler/schema';
import { HttpError } from '../http/errors.ts';
import { runServerWrite } from '../sync/mutation.ts';
import type { Effect, EffectContext } from './events.ts';
import { effectOf } from './events.ts';
import type { ConfiguredPriceIds } from '../config/price-config.ts';
import { paymentsNotConfigured } from './stripe.ts';
import { eventWasApplied, recordEvent } from './store.ts';

/** Stripe's own default (300 s), applied to stale and future timestamps alike. */
export const WEBHOOK_TOLERANCE_S = 300;

export const WEBHOOK_MESSAGES = {
  noSignature: 'Missing Stripe-Signature header',
  badSignature: 'The webhook signature is not valid',
  outsideTolerance: 'The webhook timestamp is outside the tolerance',
} as const;

interface WebhookOptions {
  stripe: Stripe | null;
  webhookSecret: string | null;
  /** STRIPE_PRICE_IDS: which plan a configured price sells. */
  priceIds: ConfiguredPriceIds;
  applyEffect(effect: Effect, ctx: EffectContext): Promise<{ touched: string[]; planChanged: string[] }>;
}

const badWebhook = (message: string) => new HttpError(400, ERROR_CODES.badRequest, message);

/** The `t=` of a Stripe-Signature header, or null. */
export function signatureTimestamp(header: string): number | null {
  for (const part of header.split(',')) {
    const [key, value] = part.split('=', 2);
    if (key?.trim() === 't' && value !== undefined && /^\d{1,12}$/.test(value.trim())) return Number(value.trim());
  }
  return null;
}

export default async function webhookRoute(app: FastifyInstance, options: WebhookOptions): Promise<void> {
  const { database } = app.deps;
  const { stripe, webhookSecret } = options;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post('/api/stripe/webhook', { config: { public: true } }, async (request) => {
    if (!stripe || !webhookSecret) throw paymentsNotConfigured();
    const raw = request.body;
    if (!Buffer.isBuffer(raw)) throw badWebhook(WEBHOOK_MESSAGES.badSignature);
    const header = request.headers['stripe-signature'];
    if (typeof header !== 'string' || header === '') throw badWebhook(WEBHOOK_MESSAGES.noSignature);
    const nowS = Math.floor(app.billingClock.now() / 1000);
    const timestamp = signatureTimestamp(header);
    if (timestamp === null) throw badWebhook(WEBHOOK_MESSAGES.badSignature);
    if (Math.abs(nowS - timestamp) > WEBHOOK_TOLERANCE_S) throw badWebhook(WEBHOOK_MESSAGES.outsideTolerance);
    let event: Stripe.Event;
    try {
      event = Stripe.webhooks.constructEvent(raw, header, webhookSecret, WEBHOOK_TOLERANCE_S, undefined, nowS);
    } catch {
      throw badWebhook(WEBHOOK_MESSAGES.badSignature);
    }
    if (await eventWasApplied(database.db, event.id)) return { received: true, duplicate: true };
    const effect = await effectOf(stripe, event, options.priceIds);
    const now = app.billingClock.now();
    const outcome = await runServerWrite(app.deps, async (write) => {
      // A concurrent delivery of the same event may have committed meanwhile: apply nothing then.
      if (!(await recordEvent(write.trx, event.id, event.type, new Date(now).toISOString()))) return null;
      return options.applyEffect(effect, { write, now });
    });
    return { received: true, duplicate: outcome === null };
  });



}
