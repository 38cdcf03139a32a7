/**
 * The Stripe client (the real `stripe` SDK). STRIPE_API_URL points it at another host: tests run a
 * small Stripe-shaped server on 127.0.0.1 (test/support/fake-stripe.ts). Objects read back from
 * Stripe are narrowed here to the few fields billing needs, so the rest of the domain does not
 * depend on which API version shaped them (a subscription's period end moved to its items; an
 * invoice's subscription moved under `parent.subscription_details`).
 */
import Stripe from 'stripe';
import { ERROR_CODES, GENERIC_MESSAGES } from '@chronicler/schema';
import type { AppConfig } from '../config/config.ts';
import { HttpError } from '../http/errors.ts';

export type StripeConfig = NonNullable<AppConfig['stripe']>;

export const paymentsNotConfigured = () => new HttpError(503, ERROR_CODES.paymentsNotConfigured, GENERIC_MESSAGES.paymentsNotConfigured);

export function createStripeClient(config: StripeConfig): Stripe {
  return new Stripe(config.secretKey, {
    ...(config.apiHost ? { host: config.apiHost } : {}),
    ...(config.apiPort ? { port: config.apiPort } : {}),
    protocol: config.apiProtocol,
    maxNetworkRetries: 1,
    timeout: 15_000,
    telemetry: false,
  });
}

/** A Stripe failure the author can do nothing about: a 502 with a plain message, never Stripe's internals. */
export function stripeUnavailable(): HttpError {
  return new HttpError(502, ERROR_CODES.internal, 'The payment provider could not be reached. Please try again in a moment.');
}

export async function callStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw stripeUnavailable();
  }
}

/** An object Stripe has by id, or null when it has none (404); other failures are thrown. */
export async function retrievedOrNull<T>(retrieve: () => Promise<T>): Promise<T | null> {
  try {
    return await retrieve();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Narrowed objects

export interface SubscriptionState {
  id: string;
  customerId: string | null;
  status: string;
  metadata: Record<string, string>;
  /** ISO time; null when Stripe did not say. */
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  /** The price of its (first) item: a plan switched in the customer portal changes it, not the metadata. */
  price: { id: string | null; lookupKey: string | null };
}

type Loose = Record<string, unknown>;
const asObject = (v: unknown): Loose => (v !== null && typeof v === 'object' ? (v as Loose) : {});
const asString = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const idOf = (v: unknown): string | null => asString(v) ?? asString(asObject(v).id);
const isoOfSeconds = (v: unknown): string | null => (typeof v === 'number' && Number.isFinite(v) ? new Date(v * 1000).toISOString() : null);

export function metadataOf(object: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(asObject(asObject(object).metadata))) if (typeof v === 'string') out[k] = v;
  return out;
}

export function subscriptionStateOf(subscription: unknown): SubscriptionState {
  const s = asObject(subscription);
  const firstItem = asObject((asObject(s.items).data as unknown[] | undefined)?.[0]);
  return {
    id: String(s.id),
    customerId: idOf(s.customer),
    status: asString(s.status) ?? 'incomplete',
    metadata: metadataOf(s),
    currentPeriodEnd: isoOfSeconds(s.current_period_end) ?? isoOfSeconds(firstItem.current_period_end),
    cancelAtPeriodEnd: s.cancel_at_period_end === true,
    price: { id: idOf(firstItem.price), lookupKey: asString(asObject(firstItem.price).lookup_key) },
  };
}

/** The subscription an invoice belongs to, in either API shape. */
export function invoiceSubscriptionId(invoice: unknown): string | null {
  const i = asObject(invoice);
  return idOf(i.subscription) ?? idOf(asObject(asObject(i.parent).subscription_details).subscription);
}

export function checkoutSessionOf(session: unknown): { mode: string | null; subscriptionId: string | null; customerId: string | null; clientReferenceId: string | null } {
  const s = asObject(session);
  return { mode: asString(s.mode), subscriptionId: idOf(s.subscription), customerId: idOf(s.customer), clientReferenceId: asString(s.client_reference_id) };
}

export interface PaymentIntentState {
  id: string;
  status: string;
  amount: number;
  currency: string;
  metadata: Record<string, string>;
}

export function paymentIntentStateOf(intent: unknown): PaymentIntentState {
  const p = asObject(intent);
  return {
    id: String(p.id),
    status: asString(p.status) ?? 'unknown',
    amount: typeof p.amount === 'number' ? p.amount : -1,
    currency: asString(p.currency) ?? '',
    metadata: metadataOf(p),
  };
}
