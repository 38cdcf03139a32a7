/**
 * The companion's daily allowance (spec 000 §6 "AI suggestions": apprentice 3, wordsmith 100,
 * loremaster 200, legendary unlimited), per author per local day in the author's IANA time zone,
 * from the one plan table. Generated suggestions and model-backed analyses count; the built-in
 * analysis is free. Spending is one conditional upsert inside the request's write transaction, so
 * concurrent requests cannot overspend.
 */
import type { Kysely, Transaction } from 'kysely';
import { type AiAllowance, ERROR_CODES, UNLIMITED, gateState, limitFor } from '@chronicler/schema';
import { runPrepared } from '../db/prepared.ts';
import type { DB } from '../db/tables.ts';
import { userPlan } from '../entities/queries.ts';
import { HttpError } from '../http/errors.ts';

type Db = Kysely<DB> | Transaction<DB>;

/** One day formatter per zone (making one costs more than the rest of a request's allowance work). */
const dayFormats = new Map<string, Intl.DateTimeFormat | null>();

function dayFormat(timeZone: string): Intl.DateTimeFormat | null {
  let format = dayFormats.get(timeZone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    } catch {
      format = null;
    }
    if (dayFormats.size < 1_000) dayFormats.set(timeZone, format);
  }
  return format;
}

function isTimeZone(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && dayFormat(value) !== null;
}

/**
 * The author's IANA time zone: `users.time_zone` (added by the accounts work, issue "core"), or UTC
 * while that column is missing, empty or not a zone Intl knows. The one place that reads it here.
 */
export async function authorTimeZone(db: Db, userId: string): Promise<string> {
  const [row] = await runPrepared(db, 'companion author row', (q, v: { userId: string }) => q.selectFrom('users').selectAll().where('id', '=', v.userId), { userId });
  const zone = (row as Record<string, unknown> | undefined)?.timeZone;
  return isTimeZone(zone) ? zone : 'UTC';
}

/** The calendar day (YYYY-MM-DD) that `nowMs` falls on in `timeZone`. */
export function localDay(nowMs: number, timeZone: string): string {
  return (dayFormat(timeZone) ?? dayFormat('UTC')!).format(new Date(nowMs));
}

async function usedOn(db: Db, userId: string, day: string): Promise<number> {
  const [row] = await runPrepared(
    db,
    'companion usage',
    (q, v: { userId: string; day: string }) => q.selectFrom('aiUsage').select('used').where('userId', '=', v.userId).where('day', '=', v.day),
    { userId, day },
  );
  return (row as { used?: number } | undefined)?.used ?? 0;
}

export async function readAllowance(db: Db, userId: string, nowMs: number, modelConfigured: boolean): Promise<AiAllowance> {
  const [plan, timeZone] = await Promise.all([userPlan(db, userId), authorTimeZone(db, userId)]);
  const day = localDay(nowMs, timeZone);
  const limit = limitFor(plan, 'aiSuggestionsPerDay');
  const used = await usedOn(db, userId, day);
  return { limit, used, remaining: limit === UNLIMITED ? UNLIMITED : Math.max(0, limit - used), day, timeZone, modelConfigured };
}

/** The 4xx of a used-up allowance: the tier message of the plan that would allow one more today. */
function usedUp(plan: Parameters<typeof limitFor>[0], used: number): HttpError {
  const gate = gateState({ plan, limit: 'aiSuggestionsPerDay', count: used });
  return new HttpError(403, ERROR_CODES.planLimit, gate.message);
}

/** The author's plan and zone, read once per request. */
export interface AllowanceHolder {
  plan: Parameters<typeof limitFor>[0];
  timeZone: string;
}

/** Refuses early (before a model is asked) when today's allowance is already spent; answers who is spending. */
export async function assertAllowanceLeft(db: Db, userId: string, nowMs: number): Promise<AllowanceHolder> {
  const [plan, timeZone] = await Promise.all([userPlan(db, userId), authorTimeZone(db, userId)]);
  const limit = limitFor(plan, 'aiSuggestionsPerDay');
  if (limit !== UNLIMITED) {
    const used = await usedOn(db, userId, localDay(nowMs, timeZone));
    if (used >= limit) throw usedUp(plan, used);
  }
  return { plan, timeZone };
}

/**
 * Spends one of today's allowance in `trx`, or throws the 4xx when none is left. The increment and
 * the check are one statement (insert, or add one where still below the limit).
 */
export async function spendAllowance(trx: Transaction<DB>, userId: string, nowMs: number, holder: AllowanceHolder): Promise<void> {
  const { plan, timeZone } = holder;
  const day = localDay(nowMs, timeZone);
  const limit = limitFor(plan, 'aiSuggestionsPerDay');
  if (limit === 0) throw usedUp(plan, 0);
  const result = await trx
    .insertInto('aiUsage')
    .values({ userId, day, used: 1 })
    .onConflict((oc) => {
      const update = oc.columns(['userId', 'day']).doUpdateSet((eb) => ({ used: eb('aiUsage.used', '+', 1) }));
      return limit === UNLIMITED ? update : update.where('aiUsage.used', '<', limit);
    })
    .executeTakeFirst();
  if (Number(result.numInsertedOrUpdatedRows ?? 0n) === 0) throw usedUp(plan, await usedOn(trx, userId, day));
}
