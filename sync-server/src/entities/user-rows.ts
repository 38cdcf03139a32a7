/**
 * User-scoped rows (@chronicler/schema USER_SCOPED_KINDS): rows that belong to one author rather
 * than to a series — the author's own record (`users`), and the kinds that other domains add
 * (writing statistics, achievements, entitlements). Only their owner reads them; the server
 * writes them, inside a write path's transaction (sync/mutation.ts runMutation for a request,
 * runServerWrite for the server's own writes), with writes.ts insertRow/updateRow like any row:
 * stamped with the write's seq, sent by the changes feed to their owner, owner's streams poked.
 */
import type { PlanName, UserScopedKind } from '@chronicler/schema';
import { notFound } from '../http/errors.ts';
import { type Db, findRow } from './queries.ts';
import type { WireRow } from './wire.ts';
import type { WriteContext } from './writes.ts';

/** The row `id` of a user-scoped kind if `userId` owns it (and, unless asked, it is live); else 404. */
export async function loadOwnRow<K extends UserScopedKind>(
  db: Db,
  kind: K,
  id: string,
  userId: string,
  options: { includeDeleted?: boolean } = {},
): Promise<WireRow<K>> {
  const row = await findRow(db, kind, id);
  if (!row || (row as { userId: string }).userId !== userId) throw notFound();
  if (row.deletedAt !== null && !options.includeDeleted) throw notFound();
  return row;
}

/** The fields of the author's own record the server may change (more settings join here). */
export interface UserRecordChange {
  plan?: PlanName;
  timeZone?: string | null;
}

/**
 * Marks the author's own record changed in this write: applies `change`, stamps rev = the write's
 * seq, and pokes the author's streams after commit, so every open app of theirs (plan label,
 * feature gates, limits, time zone) follows within a pull. Call it whenever you change a user's
 * plan or settings. Answers the record as written.
 */
export async function markUserChanged(ctx: WriteContext, userId: string, change: UserRecordChange = {}): Promise<WireRow<'users'>> {
  const set: { plan?: string; timeZone?: string | null } = {};
  if (change.plan !== undefined) set.plan = change.plan;
  if (change.timeZone !== undefined) set.timeZone = change.timeZone;
  await ctx.trx
    .updateTable('users')
    .set({ ...set, rev: ctx.seq, updatedAt: ctx.now, userId })
    .where('id', '=', userId)
    .execute();
  const row = await findRow(ctx.trx, 'users', userId);
  if (!row) throw notFound();
  // The write path pokes the author's streams and forgets their cached sessions after commit.
  ctx.touchUser(userId, 'record');
  return row;
}
