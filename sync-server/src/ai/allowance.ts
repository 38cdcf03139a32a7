/**
 * The companion's daily allowance (spec 000 §6 "AI suggestions": apprentice 3, wordsmith 100,
 * loremaster 200, legendary unlimited), per author per local day in the author's IANA time zone,
 * from the one plan table. Generated suggestions and model-backed analyses count; the built-in
 * analysis is free. Spending is one conditional upsert inside the request's write transaction, so
 * concurrent requests cannot overspend.
 */
import type { Kysely, Transaction } from 'kysely';
import { type AiAllowance, ERROR_CODES, type PlanName, UNLIMITED, gateState, limitFor, storedPlan } from '@chronicler/schema';
import { runPrepared } from '../db/prepared.ts';
import { PREPARED_KEYS } from '../db/prepared-keys.ts';
import type { DB } from '../db/tables.ts';
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

/** The author's plan and zone: what their allowance and its day depend on. */
export interface AllowanceHolder {
  plan: PlanName;
  timeZone: string;
}

/**
 * The author's plan, and IANA time zone: `users.time_zone`, or UTC while it is empty or not a zone
 * Intl knows. The one place that reads the zone here; one statement for both.
 */
export async function allowanceHolder(db: Db, userId: string): Promise<AllowanceHolder> {
  const [row] = await runPrepared(
    db,
    PREPARED_KEYS.companionAllowanceHolder,
    (q, v: { userId: string }) => q.selectFrom('users').select(['plan', 'timeZone']).where('id', '=', v.userId),
    { userId },
  );
  const { plan, timeZone } = (row ?? {}) as { plan?: string; timeZone?: unknown };
  return { plan: storedPlan(plan), timeZone: isTimeZone(timeZone) ? timeZone : 'UTC' };
}

/** Every zone's offset today is a whole number of quarter hours, so its days start on these UTC boundaries. */
const QUARTER_HOUR_MS = 900_000;
/** Per zone, the last quarter hour asked for and its day: formatting a date costs ~20 µs a request. */
const lastDays = new Map<string, { quarter: number; day: string }>();

/** The calendar day (YYYY-MM-DD) that `nowMs` falls on in `timeZone`. */
export function localDay(nowMs: number, timeZone: string): string {
  const quarter = Math.floor(nowMs / QUARTER_HOUR_MS);
  const last = lastDays.get(timeZone);
  if (last?.quarter === quarter) return last.day;
  const day = (dayFormat(timeZone) ?? dayFormat('UTC')!).format(new Date(nowMs));
  if (last || lastDays.size < 1_000) lastDays.set(timeZone, { quarter, day });
  return day;
}

async function usedOn(db: Db, userId: string, day: string): Promise<number> {
  const [row] = await runPrepared(
    db,
    PREPARED_KEYS.companionUsage,
    (q, v: { userId: string; day: string }) => q.selectFrom('aiUsage').select('used').where('userId', '=', v.userId).where('day', '=', v.day),
    { userId, day },
  );
  return (row as { used?: number } | undefined)?.used ?? 0;
}

export async function readAllowance(db: Db, userId: string, nowMs: number, modelConfigured: boolean): Promise<AiAllowance> {
  const { plan, timeZone } = await allowanceHolder(db, userId);
  const day = localDay(nowMs, timeZone);
  const limit = limitFor(plan, 'aiSuggestionsPerDay');
  const used = await usedOn(db, userId, day);
  return { limit, used, remaining: limit === UNLIMITED ? UNLIMITED : Math.max(0, limit - used), day, timeZone, modelConfigured };
}

/** The 4xx of a used-up allowance: the tier message of the plan that would allow one more today. */
function usedUp(plan: PlanName, used: number): HttpError {
  const gate = gateState({ plan, limit: 'aiSuggestionsPerDay', count: used });
  return new HttpError(403, ERROR_CODES.planLimit, gate.message);
}

/** Refuses early (before a model is asked) when today's allowance is already spent. */
export async function assertAllowanceLeft(db: Db, userId: string, nowMs: number): Promise<void> {
  const { plan, timeZone } = await allowanceHolder(db, userId);
  const limit = limitFor(plan, 'aiSuggestionsPerDay');
  if (limit !== UNLIMITED) {
    const used = await usedOn(db, userId, localDay(nowMs, timeZone));
    if (used >= limit) throw usedUp(plan, used);
  }
}

/**
 * Spends one of today's allowance in `trx`, or throws the 4xx when none is left. The increment and
 * the check are one statement (insert, or add one where still below the limit).
 */
export async function spendAllowance(trx: Transaction<DB>, userId: string, nowMs: number): Promise<void> {
  const { plan, timeZone } = await allowanceHolder(trx, userId);
  const day = localDay(nowMs, timeZone);
  const limit = limitFor(plan, 'aiSuggestionsPerDay');
  if (limit === 0) throw usedUp(plan, 0);
  // Prepared (compiled once): building this upsert through Kysely on every request cost more than
  // the rest of the allowance work (bench/companion.ts). RETURNING gives a row only when it counted.
  const spent =
    limit === UNLIMITED
      ? await runPrepared(
          trx,
          PREPARED_KEYS.companionSpendUnlimited,
          (q, v: { userId: string; day: string }) =>
            q
              .insertInto('aiUsage')
              .values({ userId: v.userId, day: v.day, used: 1 })
              .onConflict((oc) => oc.columns(['userId', 'day']).doUpdateSet((eb) => ({ used: eb('aiUsage.used', '+', 1) })))
              .returning('used'),
          { userId, day },
        )
      : await runPrepared(
          trx,
          PREPARED_KEYS.companionSpendLimited,
          (q, v: { userId: string; day: string; limit: number }) =>
            q
              .insertInto('aiUsage')
              .values({ userId: v.userId, day: v.day, used: 1 })
              .onConflict((oc) =>
                oc
                  .columns(['userId', 'day'])
                  .doUpdateSet((eb) => ({ used: eb('aiUsage.used', '+', 1) }))
                  .where('aiUsage.used', '<', v.limit),
              )
              .returning('used'),
          { userId, day, limit },
        );
  if (spent.length === 0) throw usedUp(plan, await usedOn(trx, userId, day));
}
