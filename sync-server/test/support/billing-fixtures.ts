/**
 * Billing state for the authz matrix and fuzz worlds: a gift code each side bought, granted the
 * way production grants it (a signed payment_intent.succeeded webhook, re-fetched from the fake
 * Stripe of support/fake-stripe.ts).
 */
import type { FastifyInstance } from 'fastify';
import { productById } from '@chronicler/schema';
import type { SignedIn } from './helpers.ts';
import { sharedFakeStripe } from './fake-stripe.ts';

export async function giftCodeBoughtBy(app: FastifyInstance, who: SignedIn): Promise<string> {
  const stripe = await sharedFakeStripe();
  const intent = stripe.setPaymentIntent(`pi_fixture_${who.user.id}`, {
    status: 'succeeded',
    amount: productById('gift-subscription')!.priceCents,
    currency: 'usd',
    metadata: { userId: who.user.id, productId: 'gift-subscription' },
  });
  const event = stripe.signedEvent('payment_intent.succeeded', intent);
  const res = await app.inject({ method: 'POST', url: '/api/stripe/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': event.signature }, payload: event.payload });
  if (res.statusCode !== 200) throw new Error(`fixture: gift purchase webhook → ${res.statusCode} ${res.body}`);
  const row = await app.deps.database.db.selectFrom('entitlements').select('giftCode').where('userId', '=', who.user.id).where('kind', '=', 'gift-subscription').executeTakeFirst();
  if (!row?.giftCode) throw new Error('fixture: no gift code after the purchase');
  return row.giftCode;
}
