/**
 * A book's goal on the server (docs/decisions/0018-pace-predictions.md, @chronicler/schema
 * progress/book-goal.ts): a write that names a goal field needs `pacePredictions` on the series
 * owner's plan (as every gate: docs/server.md#plan-limits-and-feature-gates), and a new target or
 * deadline is checked against the book as stored. Only a changed value is checked, so a replay of
 * the same write, or a write of other fields, is never refused for a deadline that has since passed.
 */
import {
  BOOK_GOAL_MESSAGES,
  DEFAULT_DAY_END_HOUR,
  DEFAULT_TIME_ZONE,
  ERROR_CODES,
  type UpdateBookBody,
  addDays,
  deadlineProblem,
  gateState,
  touchesBookGoal,
  writingDay,
} from '@chronicler/schema';
import { type Db, findRow, ownerPlan } from '../entities/queries.ts';
import type { WireRow } from '../entities/wire.ts';
import type { MutationContext } from '../entities/writes.ts';
import { HttpError } from '../http/errors.ts';
import { invalid } from './common.ts';

/** The gate: before anything of the body is looked at, so a locked plan hears about the plan. */
export async function assertGoalFeature(db: Db, seriesId: string, body: UpdateBookBody): Promise<void> {
  if (!touchesBookGoal(body)) return;
  const gate = gateState({ plan: await ownerPlan(db, seriesId), feature: 'pacePredictions' });
  if (gate.locked) throw new HttpError(403, ERROR_CODES.featureLocked, gate.message);
}

/** The caller's writing day today (their zone and day end, as the statistics count it). */
async function callersToday(ctx: MutationContext): Promise<string> {
  const user = await findRow(ctx.trx, 'users', ctx.userId);
  const settings = await ctx.trx.selectFrom('writingSettings').select('dayEndHour').where('userId', '=', ctx.userId).executeTakeFirst();
  return writingDay(new Date(ctx.now), user?.timeZone ?? DEFAULT_TIME_ZONE, settings?.dayEndHour ?? DEFAULT_DAY_END_HOUR);
}

/** The words a book has: its live chapters' outside the Trash (what the author sees counted). */
async function wordsOfBook(db: Db, bookId: string): Promise<number> {
  const row = await db
    .selectFrom('chapters')
    .select((eb) => eb.fn.sum<number | string | null>('wordCount').as('words'))
    .where('bookId', '=', bookId)
    .where('deletedAt', 'is', null)
    .where('trashedAt', 'is', null)
    .executeTakeFirst();
  return Number(row?.words ?? 0);
}

/** The checks of a new target and deadline against the stored book (a 422 with the field's message). */
export async function assertGoalValues(ctx: MutationContext, current: WireRow<'books'>, body: UpdateBookBody): Promise<void> {
  if (body.deadline != null && body.deadline !== current.deadline) {
    // A day of grace: the device checked against its own today, and an offline write may arrive
    // after midnight or from an editor in another zone.
    if (deadlineProblem(body.deadline, addDays(await callersToday(ctx), -1)) === 'past') throw invalid(BOOK_GOAL_MESSAGES.deadlinePast, 'deadline');
  }
  if (body.targetWords != null && body.targetWords !== current.targetWords) {
    const written = await wordsOfBook(ctx.trx, current.id);
    if (body.targetWords < written) throw invalid(BOOK_GOAL_MESSAGES.targetBelowWritten(written), 'targetWords');
  }
}
