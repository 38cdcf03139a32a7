/**
 * Billing storage: Stripe customers and subscriptions (as Stripe last told us), webhook events
 * applied, entitlements (user-scoped synced rows, `rev` = the write's seq), gift codes, premium
 * support requests, and the author's plan recomputed from all of it.
 */
import crypto from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import {
  DAY_MS,
  DEFAULT_PLAN,
  type Entitlement,
  type EntitlementKind,
  GIFT_CODE_ALPHABET,
  type PlanName,
  effectivePlan,
  entitlementDays,
  hasTier,
  newId,
  statusGrantsPlan,
  toPlanName,
} from '@chronicler/schema';
import type { DB, EntitlementsTable } from '../db/tables.ts';
import { markUserChanged } from '../entities/user-rows.ts';
import { insertRow } from '../entities/writes.ts';
import type { WriteContext } from '../entities/writes.ts';

type Db = Kysely<DB> | Transaction<DB>;

// ---------------------------------------------------------------------------------------------
// Customers

export async function stripeCustomerOf(db: Db, userId: string): Promise<string | null> {
  const row = await db.selectFrom('billingCustomers').select('stripeCustomerId').where('userId', '=', userId).executeTakeFirst();
  return row?.stripeCustomerId ?? null;
}

export async function rememberStripeCustomer(db: Db, userId: string, stripeCustomerId: string, now: string): Promise<void> {
  await db
    .insertInto('billingCustomers')
    .values({ userId, stripeCustomerId, createdAt: now })
    .onConflict((oc) => oc.column('userId').doNothing())
    .execute();
}

export async function userOfStripeCustomer(db: Db, stripeCustomerId: string): Promise<string | null> {
  const row = await db.selectFrom('billingCustomers').select('userId').where('stripeCustomerId', '=', stripeCustomerId).executeTakeFirst();
  return row?.userId ?? null;
}

export async function userExists(db: Db, userId: string): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()) !== undefined;
}

// ---------------------------------------------------------------------------------------------
// Webhook events: each applied once (recorded in the transaction of its effect)

export async function eventWasApplied(db: Db, eventId: string): Promise<boolean> {
  return (await db.selectFrom('billingEvents').select('eventId').where('eventId', '=', eventId).executeTakeFirst()) !== undefined;
}

/** False when the event was already recorded (a concurrent delivery won). */
export async function recordEvent(trx: Transaction<DB>, eventId: string, type: string, now: string): Promise<boolean> {
  const result = await trx
    .insertInto('billingEvents')
    .values({ eventId, type, receivedAt: now })
    .onConflict((oc) => oc.column('eventId').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

// ---------------------------------------------------------------------------------------------
// Subscriptions

export interface StoredSubscription {
  id: string;
  userId: string;
  plan: PlanName;
  interval: 'monthly' | 'yearly';
  status: string;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  /** Undefined keeps what is stored (a subscription event says nothing about the last invoice). */
  paymentFailed?: boolean;
}

export async function storeSubscription(trx: Transaction<DB>, sub: StoredSubscription, now: string): Promise<void> {
  const values = {
    userId: sub.userId,
    plan: sub.plan,
    interval: sub.interval,
    status: sub.status,
    currentPeriodEnd: sub.currentPeriodEnd,
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd ? 1 : 0,
    updatedAt: now,
    ...(sub.paymentFailed === undefined ? {} : { paymentFailed: sub.paymentFailed ? 1 : 0 }),
  };
  await trx
    .insertInto('billingSubscriptions')
    .values({ id: sub.id, paymentFailed: 0, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}

export async function subscriptionsOf(db: Db, userId: string) {
  return db.selectFrom('billingSubscriptions').selectAll().where('userId', '=', userId).orderBy('updatedAt', 'desc').execute();
}

/** The subscription that decides the plan: the highest plan among those whose status gives one, else the latest. */
export async function currentSubscriptionOf(db: Db, userId: string) {
  const subs = await subscriptionsOf(db, userId);
  const granting = subs.filter((s) => statusGrantsPlan(s.status));
  if (granting.length === 0) return subs[0] ?? null;
  return granting.reduce((best, s) => (hasTier(toPlanName(s.plan), toPlanName(best.plan)) && s.plan !== best.plan ? s : best));
}

// ---------------------------------------------------------------------------------------------
// Entitlements

export function toEntitlement(row: EntitlementsTable): Entitlement {
  return {
    id: row.id,
    rev: Number(row.rev),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    deletedAt: row.deletedAt,
    userId: row.userId,
    kind: row.kind as EntitlementKind,
    expiresAt: row.expiresAt,
    giftCode: row.giftCode,
    giftRedeemedAt: row.giftRedeemedAt,
  };
}

export async function entitlementsOf(db: Db, userId: string): Promise<Entitlement[]> {
  const rows = await db.selectFrom('entitlements').selectAll().where('userId', '=', userId).where('deletedAt', 'is', null).orderBy('createdAt').execute();
  return rows.map(toEntitlement);
}

/** The latest end of a timed entitlement of `kind` still running at `now`, or null. */
async function runningUntil(db: Db, userId: string, kind: EntitlementKind, now: number): Promise<string | null> {
  const row = await db
    .selectFrom('entitlements')
    .select((eb) => eb.fn.max('expiresAt').as('until'))
    .where('userId', '=', userId)
    .where('kind', '=', kind)
    .where('deletedAt', 'is', null)
    .executeTakeFirst();
  const until = row?.until ?? null;
  return until !== null && Date.parse(until) > now ? until : null;
}

export function newGiftCode(): string {
  const bytes = crypto.randomBytes(12);
  const chars = [...bytes].map((b) => GIFT_CODE_ALPHABET[b % GIFT_CODE_ALPHABET.length]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}

export interface Grant {
  userId: string;
  kind: EntitlementKind;
  /** What granted it (a PaymentIntent id, `gift:<code>`): one grant per source. */
  source: string;
  now: number;
}

/**
 * Grants an entitlement once per source (a second delivery of the same payment grants nothing),
 * as a user-scoped synced row of this write (rev = its seq; the owner's apps are poked). A timed
 * one bought while another runs starts when that one ends.
 */
export async function grantEntitlement(ctx: WriteContext, grant: Grant): Promise<Entitlement> {
  const existing = await ctx.trx.selectFrom('entitlements').selectAll().where('source', '=', grant.source).executeTakeFirst();
  if (existing) return toEntitlement(existing);
  const days = entitlementDays(grant.kind);
  let expiresAt: string | null = null;
  if (days !== null) {
    const from = await runningUntil(ctx.trx, grant.userId, grant.kind, grant.now);
    expiresAt = new Date((from ? Date.parse(from) : grant.now) + days * DAY_MS).toISOString();
  }
  const row = await insertRow(ctx, 'entitlements', {
    id: newId(grant.now),
    userId: grant.userId,
    kind: grant.kind,
    expiresAt,
    giftCode: grant.kind === 'gift-subscription' ? newGiftCode() : null,
    giftRedeemedAt: null,
  });
  await ctx.trx.updateTable('entitlements').set({ source: grant.source }).where('id', '=', row.id).execute();
  return row;
}

export async function giftByCode(db: Db, code: string) {
  return db.selectFrom('entitlements').selectAll().where('giftCode', '=', code).where('kind', '=', 'gift-subscription').executeTakeFirst();
}

/**
 * Marks the gift redeemed (a compare-and-set, so two redeemers cannot both win), stamped with this
 * write's seq like updateRow does; the buyer's apps are poked. False when it was already redeemed.
 */
export async function markGiftRedeemed(ctx: WriteContext, gift: { id: string; userId: string }, redeemerId: string): Promise<boolean> {
  const result = await ctx.trx
    .updateTable('entitlements')
    .set({ giftRedeemedAt: ctx.now, giftRedeemedBy: redeemerId, rev: ctx.seq, updatedAt: ctx.now })
    .where('id', '=', gift.id)
    .where('giftRedeemedAt', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  ctx.touchUser(gift.userId);
  return true;
}

export async function giftMonthUntil(db: Db, userId: string, now: number): Promise<string | null> {
  return runningUntil(db, userId, 'gift-month', now);
}

// ---------------------------------------------------------------------------------------------
// The plan

/**
 * Sets the author's plan from the subscription Stripe last reported and any gift month still
 * running; returns the plan when it changed, else null. A plan billing did not give (an operator's
 * `pnpm cli user:plan`: support, comps) is the floor: billing raises the author above it, never below.
 */
export async function recomputePlan(ctx: WriteContext, userId: string, now: number): Promise<PlanName | null> {
  const { trx } = ctx;
  const user = await trx.selectFrom('users').select('plan').where('id', '=', userId).executeTakeFirst();
  if (!user) return null;
  const given = await trx.selectFrom('billingPlans').select('plan').where('userId', '=', userId).executeTakeFirst();
  const operatorPlan = given === undefined || given.plan !== user.plan ? toPlanName(user.plan) : DEFAULT_PLAN;
  const sub = await currentSubscriptionOf(trx, userId);
  const fromBilling = effectivePlan({
    basePlan: DEFAULT_PLAN,
    subscriptionPlan: sub && statusGrantsPlan(sub.status) ? toPlanName(sub.plan) : null,
    giftUntil: await giftMonthUntil(trx, userId, now),
    now,
  });
  const plan = hasTier(operatorPlan, fromBilling) ? operatorPlan : fromBilling;
  // Remember what billing gives, so an operator's later change is recognised as theirs.
  const billingGives = plan === operatorPlan && operatorPlan !== DEFAULT_PLAN && operatorPlan !== fromBilling ? null : plan;
  if (billingGives !== null) {
    await trx.insertInto('billingPlans').values({ userId, plan: billingGives }).onConflict((oc) => oc.column('userId').doUpdateSet({ plan: billingGives })).execute();
  }
  if (plan === user.plan) return null;
  // The author's record changes: every open app of theirs follows within a pull.
  await markUserChanged(ctx, userId, { plan });
  return plan;
}

/** Authors whose gift month ended (and who have no plan from a subscription that explains theirs). */
export async function authorsWithEndedGifts(db: Db, now: number, onlyUserId?: string): Promise<string[]> {
  const stamp = new Date(now).toISOString();
  const rows = await db
    .selectFrom('entitlements')
    .innerJoin('users', 'users.id', 'entitlements.userId')
    .select('entitlements.userId')
    .distinct()
    .where('entitlements.kind', '=', 'gift-month')
    .where('entitlements.deletedAt', 'is', null)
    .where('entitlements.expiresAt', '<=', stamp)
    .where('users.plan', '!=', DEFAULT_PLAN)
    .$if(onlyUserId !== undefined, (q) => q.where('entitlements.userId', '=', onlyUserId!))
    .execute();
  return rows.map((r) => r.userId);
}

// ---------------------------------------------------------------------------------------------
// Premium support

export async function insertSupportRequest(db: Db, request: { userId: string; subject: string; message: string; now: number }): Promise<{ id: string; createdAt: string }> {
  const row = { id: newId(request.now), userId: request.userId, subject: request.subject, message: request.message, createdAt: new Date(request.now).toISOString() };
  await db.insertInto('supportRequests').values(row).execute();
  return { id: row.id, createdAt: row.createdAt };
}

export async function listSupportRequests(db: Db, limit = 100) {
  return db
    .selectFrom('supportRequests')
    .innerJoin('users', 'users.id', 'supportRequests.userId')
    .select(['supportRequests.id', 'supportRequests.subject', 'supportRequests.message', 'supportRequests.createdAt', 'users.username', 'users.email'])
    .orderBy('supportRequests.createdAt', 'desc')
    .limit(limit)
    .execute();
}
