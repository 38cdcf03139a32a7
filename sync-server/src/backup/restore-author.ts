/**
 * Restores the author's own rows (kinds.ts AuthorRows) into the restoring account, merged so that
 * nothing counts twice: the edit log by event id (an event the account has logged already is left
 * alone; each new one is credited to its day as when it was first logged — the statistics are the
 * log's sums, so restoring twice adds nothing and restoring into another account credits it),
 * earned achievements by achievement (one earned already stays as earned), the writing settings
 * only when the account has none (its own settings win).
 */
import { type RestoreKindCount, newId } from '@chronicler/schema';
import { creditLoggedEdits } from '../progress/writing.ts';
import type { MutationContext } from '../entities/writes.ts';
import { insertRow } from '../entities/writes.ts';
import type { AuthorRows, WritingEventEntry } from './kinds.ts';
import { derivedId } from './derived-id.ts';

/** Rows per INSERT: well under SQLite's bound-parameter limit (12 columns each). */
const CHUNK = 500;

/** Ids a restore gave the archive's rows, per kind (original → here). */
export type RestoredIds = ReadonlyMap<string, ReadonlyMap<string, string>>;

const count = (restored: number, alreadyPresent: number, remapped = 0): RestoreKindCount => ({ restored, alreadyPresent, remapped });

export async function restoreAuthorRows(ctx: MutationContext, author: AuthorRows, ids: RestoredIds): Promise<Record<keyof AuthorRows, RestoreKindCount>> {
  const events = await restoreEditLog(ctx, author, ids);
  const creditedDays = new Set(events.filter((e) => e.kind === 'writing').map((e) => e.day));
  return {
    writingEvents: count(events.length, author.writingEvents.length - events.length),
    writingStats: count(creditedDays.size, author.writingStats.filter((s) => !creditedDays.has(s.day)).length),
    userAchievements: await restoreAchievements(ctx, author.userAchievements),
    writingSettings: await restoreSettings(ctx, author.writingSettings),
  };
}

/** Logs the events the account has not logged yet and credits them to their days; answers them. */
async function restoreEditLog(ctx: MutationContext, { writingEvents: events, writingStats }: AuthorRows, ids: RestoredIds): Promise<WritingEventEntry[]> {
  const logged = new Set<string>();
  for (let i = 0; i < events.length; i += CHUNK) {
    const found = await ctx.trx
      .selectFrom('writingEvents')
      .select('id')
      .where('userId', '=', ctx.userId)
      .where('id', 'in', events.slice(i, i + CHUNK).map((e) => e.id))
      .execute();
    for (const r of found) logged.add(r.id);
  }
  const fresh = events.filter((e) => !logged.has(e.id));
  for (let i = 0; i < fresh.length; i += CHUNK) {
    await ctx.trx
      .insertInto('writingEvents')
      .values(
        fresh.slice(i, i + CHUNK).map((e) => ({
          ...e,
          userId: ctx.userId,
          // The chapter and series as restored here (one not in the archive keeps its id: the log only remembers it).
          chapterId: ids.get('chapters')?.get(e.chapterId) ?? e.chapterId,
          seriesId: ids.get('series')?.get(e.seriesId) ?? e.seriesId,
          pasted: e.pasted ? 1 : 0,
          rev: ctx.seq,
        })),
      )
      .execute();
  }
  await openDays(ctx, writingStats, new Set(fresh.filter((e) => e.kind === 'writing').map((e) => e.day)));
  await creditLoggedEdits(ctx, fresh);
  return fresh;
}

/**
 * A day new to this account starts as the archive's row (its id when free, its creation time)
 * with zero figures: the credits of its events then make its figures.
 */
async function openDays(ctx: MutationContext, archived: AuthorRows['writingStats'], days: ReadonlySet<string>): Promise<void> {
  const rows = archived.filter((s) => days.has(s.day));
  if (rows.length === 0) return;
  const takenIds = new Set<string>();
  const ownDays = new Set<string>();
  for (let i = 0; i < rows.length; i += CHUNK) {
    const slice = rows.slice(i, i + CHUNK);
    const found = await ctx.trx
      .selectFrom('writingStats')
      .select(['id', 'userId', 'day'])
      .where((eb) => eb.or([eb('id', 'in', slice.map((s) => s.id)), eb.and([eb('userId', '=', ctx.userId), eb('day', 'in', slice.map((s) => s.day))])]))
      .execute();
    for (const r of found) {
      takenIds.add(r.id);
      if (r.userId === ctx.userId) ownDays.add(r.day);
    }
  }
  const open = rows
    .filter((s) => !ownDays.has(s.day))
    .map((s) => ({ id: takenIds.has(s.id) ? newId() : s.id, rev: ctx.seq, createdAt: s.createdAt, updatedAt: ctx.now, deletedAt: null, userId: ctx.userId, day: s.day, wordsWritten: 0, wordsRemoved: 0, wordsPasted: 0, edits: 0 }));
  for (let i = 0; i < open.length; i += CHUNK) await ctx.trx.insertInto('writingStats').values(open.slice(i, i + CHUNK)).execute();
}

async function restoreAchievements(ctx: MutationContext, earned: AuthorRows['userAchievements']): Promise<RestoreKindCount> {
  // Every row of the account counts, a deleted one too: (author, achievement) is unique.
  const have = new Set((await ctx.trx.selectFrom('userAchievements').select('achievementId').where('userId', '=', ctx.userId).execute()).map((r) => r.achievementId));
  const missing = earned.filter((a) => !have.has(a.achievementId));
  const candidates = missing.flatMap((a) => [a.id, derivedId(ctx.userId, 'userAchievements', a.id)]);
  const taken = new Set<string>();
  for (let i = 0; i < candidates.length; i += CHUNK) {
    for (const r of await ctx.trx.selectFrom('userAchievements').select('id').where('id', 'in', candidates.slice(i, i + CHUNK)).execute()) taken.add(r.id);
  }
  let remapped = 0;
  for (const a of missing) {
    const id = [a.id, derivedId(ctx.userId, 'userAchievements', a.id)].find((candidate) => !taken.has(candidate)) ?? newId();
    if (id !== a.id) remapped += 1;
    await insertRow(ctx, 'userAchievements', { id, userId: ctx.userId, achievementId: a.achievementId, earnedAt: a.earnedAt }, a.createdAt);
  }
  return count(missing.length, earned.length - missing.length, remapped);
}

async function restoreSettings(ctx: MutationContext, settings: AuthorRows['writingSettings']): Promise<RestoreKindCount> {
  const [saved] = settings;
  if (!saved) return count(0, 0);
  const own = await ctx.trx.selectFrom('writingSettings').select('id').where('userId', '=', ctx.userId).executeTakeFirst();
  if (own) return count(0, 1);
  // The settings row's id is its author's (progress/writing.ts defaultSettings).
  const { rev: _rev, createdAt, updatedAt: _updated, deletedAt: _deleted, ...values } = saved;
  await insertRow(ctx, 'writingSettings', { ...values, id: ctx.userId, userId: ctx.userId }, createdAt);
  return count(1, 0, saved.id === ctx.userId ? 0 : 1);
}
