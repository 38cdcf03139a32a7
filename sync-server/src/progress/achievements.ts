/**
 * Achievement evaluation on the server: the author's progress per type from their rows, the shared
 * rule (packages/schema newlyEarned) and idempotent earning — the unique (user, achievement) pair
 * makes concurrent checks and retries earn each achievement once, at the write whose state first
 * met its condition.
 */
import {
  ACHIEVEMENTS_BY_ID,
  type Achievement,
  type AchievementProgress,
  type AchievementType,
  type PlanName,
  type UserAchievement,
  type UserAchievementAnswer,
  type WritingSettings,
  achievementsForPlan,
  newId,
  newlyEarned,
  streakSummary,
  writingDay,
  hasFeature,
} from '@chronicler/schema';
import type { Kysely } from 'kysely';
import { setBounded } from '../db/bounded-map.ts';
import { runPrepared } from '../db/prepared.ts';
import { PREPARED_FAMILIES, PREPARED_KEYS } from '../db/prepared-keys.ts';
import type { DB } from '../db/tables.ts';
import { userPlan } from '../entities/queries.ts';
import type { MutationContext } from '../entities/writes.ts';
import { type RecordedEdit, settingsOf, timeZoneOf } from './writing.ts';

type Db = Kysely<DB>;

const EARNED_COLUMNS = ['id', 'rev', 'createdAt', 'updatedAt', 'deletedAt', 'userId', 'achievementId', 'earnedAt'] as const;

export async function earnedRows(db: Db, userId: string): Promise<UserAchievement[]> {
  return db.selectFrom('userAchievements').select(EARNED_COLUMNS).where('userId', '=', userId).where('deletedAt', 'is', null).orderBy('earnedAt', 'desc').orderBy('id').execute();
}

/** Earned rows with their achievement, newest first (rows of achievements no longer in the catalogue are left out). */
export function withAchievements(rows: readonly UserAchievement[]): UserAchievementAnswer[] {
  return rows.flatMap((row) => {
    const achievement = ACHIEVEMENTS_BY_ID.get(row.achievementId);
    return achievement ? [{ ...row, achievement }] : [];
  });
}

/** Live rows of a series-scoped table in the series the author owns (collaborators' series are not theirs). */
async function ownedCount(db: Db, table: 'chapters' | 'characters' | 'locations' | 'books', userId: string, completedOnly = false): Promise<number> {
  const [row] = await runPrepared(
    db,
    PREPARED_FAMILIES.progressOwnedCount(table, completedOnly),
    (q: Db, v: { userId: string; status: string }) => {
      let query = q
        .selectFrom(table)
        .innerJoin('series', 'series.id', `${table}.seriesId`)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('series.ownerId', '=', v.userId)
        .where('series.deletedAt', 'is', null)
        .where(`${table}.deletedAt`, 'is', null);
      if (completedOnly) query = query.where('books.status' as never, '=', v.status as never);
      return query;
    },
    { userId, status: 'completed' },
  );
  return Number((row as { n?: number } | undefined)?.n ?? 0);
}

/** Per author: lifetime words and longest streak, valid while the key (stats' top rev, settings, plan goal, day) holds. */
const dayFigures = new Map<string, { key: string; words: number; longest: number }>();
const MAX_CACHED_AUTHORS = 10_000;

/** Counted words a day needs to count toward a streak: the Wordsmith daily goal, else any word. */
function streakGoal(settings: WritingSettings, plan: PlanName): number {
  return settings.dailyGoal !== null && hasFeature(plan, 'writingChallenges') ? settings.dailyGoal : 1;
}

/** The author's live daily rows: counted words by day. */
async function dailyWordsOf(db: Db, userId: string): Promise<{ day: string; wordsWritten: number }[]> {
  return runPrepared(
    db,
    PREPARED_KEYS.progressDailyWords,
    (q: Db, v: { userId: string }) => q.selectFrom('writingStats').select(['day', 'wordsWritten']).where('userId', '=', v.userId).where('deletedAt', 'is', null),
    { userId },
  );
}

function longestStreak(days: readonly { day: string; wordsWritten: number }[], today: string, settings: WritingSettings, goal: number): number {
  return streakSummary(new Map(days.map((d) => [d.day, d.wordsWritten])), today, { ...settings, goal }).longest;
}

/**
 * Lifetime counted words and the longest streak. Checks run after every counted save: the year of
 * daily rows is read and scanned again only when a stats row, the settings or the day changed
 * (the key is read from the database, so it holds across server processes too).
 */
async function wordsAndStreak(db: Db, userId: string, now: Date): Promise<{ words: number; longest: number }> {
  const settings = await settingsOf(db, userId);
  const plan = await userPlan(db, userId);
  const goal = streakGoal(settings, plan);
  const timeZone = await timeZoneOf(db, userId);
  const today = writingDay(now, timeZone, settings.dayEndHour);
  const [top] = await runPrepared(
    db,
    PREPARED_KEYS.progressStatsTop,
    (q: Db, v: { userId: string }) =>
      q.selectFrom('writingStats').select((eb) => [eb.fn.max('rev').as('rev'), eb.fn.countAll().as('n')]).where('userId', '=', v.userId),
    { userId },
  );
  const key = `${String((top as { rev?: unknown } | undefined)?.rev)}:${String((top as { n?: unknown } | undefined)?.n)}:${settings.rev}:${settings.updatedAt}:${goal}:${timeZone}:${today}`;
  const hit = dayFigures.get(userId);
  if (hit?.key === key) return hit;
  const days = await dailyWordsOf(db, userId);
  const figures = { key, words: days.reduce((sum, d) => sum + d.wordsWritten, 0), longest: longestStreak(days, today, settings, goal) };
  setBounded(dayFigures, userId, figures, MAX_CACHED_AUTHORS);
  return figures;
}

async function progressOf(db: Db, userId: string, types: ReadonlySet<AchievementType>, now: Date): Promise<AchievementProgress> {
  const progress: AchievementProgress = { streak: 0, words: 0, chapters: 0, characters: 0, locations: 0, books: 0 };
  if (types.has('words') || types.has('streak')) {
    const { words, longest } = await wordsAndStreak(db, userId, now);
    progress.words = words;
    progress.streak = longest;
  }
  if (types.has('chapters')) progress.chapters = await ownedCount(db, 'chapters', userId);
  if (types.has('characters')) progress.characters = await ownedCount(db, 'characters', userId);
  if (types.has('locations')) progress.locations = await ownedCount(db, 'locations', userId);
  if (types.has('books')) progress.books = await ownedCount(db, 'books', userId, true);
  return progress;
}

/** The ids of the achievements the author has earned (every row of theirs, deleted ones too). */
async function earnedIdsOf(db: Db, userId: string): Promise<Set<string>> {
  const rows = await runPrepared(db, PREPARED_KEYS.progressEarnedIds, (q: Db, v: { userId: string }) => q.selectFrom('userAchievements').select('achievementId').where('userId', '=', v.userId), { userId });
  return new Set(rows.map((r) => r.achievementId));
}

export function catalogueFor(plan: PlanName): readonly Achievement[] {
  return achievementsForPlan(plan);
}

/** What evaluation would earn now, read-only: the achievements of the plan (of `only` types) whose condition holds and that are not earned. */
export async function dueAchievements(db: Db, userId: string, now: Date, only?: readonly AchievementType[]): Promise<Achievement[]> {
  const catalogue = catalogueFor(await userPlan(db, userId)).filter((a) => !only || only.includes(a.type));
  const earnedIds = await earnedIdsOf(db, userId);
  const open = new Set(catalogue.filter((a) => !earnedIds.has(a.id)).map((a) => a.type));
  if (open.size === 0) return [];
  return newlyEarned(catalogue, await progressOf(db, userId, open, now), earnedIds);
}

/** Earns `achievements` for the caller (each once: the unique pair makes a concurrent or repeated earn a no-op); answers the ones this write earned. */
async function earn(ctx: MutationContext, achievements: readonly Achievement[], heldSince: string): Promise<UserAchievementAnswer[]> {
  const earned: UserAchievementAnswer[] = [];
  for (const achievement of achievements) {
    const row: UserAchievement = {
      id: newId(),
      rev: ctx.seq,
      createdAt: ctx.now,
      updatedAt: ctx.now,
      deletedAt: null,
      userId: ctx.userId,
      achievementId: achievement.id,
      earnedAt: heldSince,
    };
    const inserted = await runPrepared(
      ctx.trx,
      PREPARED_KEYS.progressEarn,
      (q: Db, v: UserAchievement) =>
        q
          .insertInto('userAchievements')
          .values({ ...v })
          .onConflict((oc) => oc.columns(['userId', 'achievementId']).doNothing())
          .returning('id'),
      row,
    );
    if (inserted.length > 0) earned.push({ ...row, achievement });
  }
  if (earned.length > 0) ctx.touchUser(ctx.userId);
  return earned;
}

/**
 * Earns every achievement of the caller's plan (of the `only` types, after a write that can only
 * move those) whose condition now holds; answers the ones this call earned (empty when another
 * write earned them first). Types with nothing left to earn are not even counted. `heldSince`:
 * when the condition first held (the device time of the words that met it; else this write).
 */
export async function evaluateAchievements(ctx: MutationContext, only?: readonly AchievementType[], heldSince: string = ctx.now): Promise<UserAchievementAnswer[]> {
  return earn(ctx, await dueAchievements(ctx.trx, ctx.userId, new Date(ctx.now), only), heldSince);
}

/**
 * Per author: the settings, plan, zone and day (a key) under which a full streak evaluation last
 * committed. Under the same key, a save that leaves every day on the same side of the goal cannot
 * change the longest streak (a day counts for a streak by reaching the goal; words below it or
 * beyond it change nothing), so its streak achievements need no evaluation.
 */
const streakEvaluated = new Map<string, string>();

/** The author's lifetime counted words (their live daily rows). */
async function lifetimeWords(db: Db, userId: string): Promise<number> {
  const [row] = await runPrepared(
    db,
    PREPARED_KEYS.progressLifetimeWords,
    (q: Db, v: { userId: string }) =>
      q.selectFrom('writingStats').select((eb) => eb.fn.sum<number>('wordsWritten').as('words')).where('userId', '=', v.userId).where('deletedAt', 'is', null),
    { userId },
  );
  return Number((row as { words?: number | null } | undefined)?.words ?? 0);
}

/**
 * After a chapter save counted words (`recorded`): the word and streak achievements they may have
 * earned, earned when the words were written — what evaluateAchievements(['words', 'streak'])
 * would earn, with less reading: the words ladder from the lifetime sum, the streak ladder only
 * when this save took its day to the goal or the streak's inputs changed since it was last
 * evaluated (streakEvaluated).
 */
export async function evaluateAfterWords(ctx: MutationContext, recorded: RecordedEdit): Promise<void> {
  const { plan, settings, timeZone } = recorded.rules;
  const catalogue = catalogueFor(plan);
  const earnedIds = await earnedIdsOf(ctx.trx, ctx.userId);
  const open = (type: AchievementType) => catalogue.some((a) => a.type === type && !earnedIds.has(a.id));
  const goal = streakGoal(settings, plan);
  const today = writingDay(new Date(ctx.now), timeZone, settings.dayEndHour);
  const key = `${plan}:${settings.rev}:${settings.updatedAt}:${goal}:${timeZone}:${today}`;
  const reachedGoal = recorded.dayWords - recorded.counted < goal && recorded.dayWords >= goal;
  const types = new Set<AchievementType>();
  const progress: AchievementProgress = { streak: 0, words: 0, chapters: 0, characters: 0, locations: 0, books: 0 };
  if (open('words')) {
    types.add('words');
    progress.words = await lifetimeWords(ctx.trx, ctx.userId);
  }
  if (open('streak') && (reachedGoal || streakEvaluated.get(ctx.userId) !== key)) {
    types.add('streak');
    progress.streak = longestStreak(await dailyWordsOf(ctx.trx, ctx.userId), today, settings, goal);
    ctx.onCommit?.(() => setBounded(streakEvaluated, ctx.userId, key, MAX_CACHED_AUTHORS));
  }
  if (types.size === 0) return;
  await earn(ctx, newlyEarned(catalogue.filter((a) => types.has(a.type)), progress, earnedIds), recorded.attributedAt);
}
