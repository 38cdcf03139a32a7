/**
 * Writing statistics on the server (docs/server.md#writing-statistics): each chapter save's words
 * are logged once per (author, event id), attributed to the author's writing day of the (clamped)
 * device time, and added to that day's figures. The rules are packages/schema's; this module only
 * reads and writes the rows, stamped with the write's seq like every synced row.
 */
import {
  DEFAULT_DAY_END_HOUR,
  DEFAULT_FREEZES_PER_MONTH,
  DEFAULT_TIME_ZONE,
  type Chapter,
  type PlanName,
  type UpdateWritingSettingsBody,
  type WritingMark,
  type WritingSettings,
  type WritingActivity,
  type WritingStat,
  attributedTime,
  classifyEdit,
  newId,
  storedPlan,
  writingDay,
} from '@chronicler/schema';
import type { Kysely } from 'kysely';
import { addToWritingDay } from '../db/dialect.ts';
import { runPrepared } from '../db/prepared.ts';
import { PREPARED_KEYS } from '../db/prepared-keys.ts';
import type { DB } from '../db/tables.ts';
import type { MutationContext } from '../entities/writes.ts';

type Db = Kysely<DB>;

const SETTINGS_COLUMNS = ['id', 'rev', 'createdAt', 'updatedAt', 'deletedAt', 'userId', 'dayEndHour', 'restDays', 'freezesPerMonth', 'dailyGoal'] as const;
const STAT_COLUMNS = ['id', 'rev', 'createdAt', 'updatedAt', 'deletedAt', 'userId', 'day', 'wordsWritten', 'wordsRemoved', 'wordsPasted', 'edits'] as const;

/** The defaults an author has before saving settings (the settings row is then made with them). */
export function defaultSettings(userId: string, now: string): WritingSettings {
  return {
    id: userId,
    rev: 0,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
    userId,
    dayEndHour: DEFAULT_DAY_END_HOUR,
    restDays: [],
    freezesPerMonth: DEFAULT_FREEZES_PER_MONTH,
    dailyGoal: null,
  };
}

/** The zone the author's days are counted in: their record's (set from the browser, changeable), UTC until set. */
export async function timeZoneOf(db: Db, userId: string): Promise<string> {
  const [row] = await runPrepared(db, PREPARED_KEYS.progressTimeZone, (q: Db, v: { id: string }) => q.selectFrom('users').select('timeZone').where('id', '=', v.id), { id: userId });
  return (row as { timeZone?: string | null } | undefined)?.timeZone ?? DEFAULT_TIME_ZONE;
}

export async function settingsOf(db: Db, userId: string): Promise<WritingSettings> {
  const [row] = await runPrepared(db, PREPARED_KEYS.progressSettings, (q: Db, v: { userId: string }) => q.selectFrom('writingSettings').select(SETTINGS_COLUMNS).where('userId', '=', v.userId), { userId });
  if (!row) return defaultSettings(userId, new Date(0).toISOString());
  return { ...row, restDays: JSON.parse(row.restDays) as number[] };
}

/** Saves the author's settings (creating the row on first use); answers the row as stored. */
export async function saveSettings(ctx: MutationContext, body: Omit<UpdateWritingSettingsBody, 'restDays'> & { restDays?: number[] }): Promise<WritingSettings> {
  const current = await ctx.trx.selectFrom('writingSettings').select('id').where('userId', '=', ctx.userId).executeTakeFirst();
  const base = current ? await settingsOf(ctx.trx, ctx.userId) : defaultSettings(ctx.userId, ctx.now);
  const defined = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as Partial<WritingSettings>;
  const next: WritingSettings = { ...base, ...defined, rev: ctx.seq, updatedAt: ctx.now };
  const columns = { ...next, restDays: JSON.stringify(next.restDays) };
  if (current) {
    const { id: _id, createdAt: _c, ...changed } = columns;
    await ctx.trx.updateTable('writingSettings').set(changed).where('userId', '=', ctx.userId).execute();
  } else {
    await ctx.trx.insertInto('writingSettings').values(columns).execute();
  }
  ctx.touchUser(ctx.userId);
  return next;
}

export interface ChapterEdit {
  before: Pick<Chapter, 'id' | 'seriesId' | 'content' | 'deletedAt'>;
  after: Pick<Chapter, 'content'>;
  mark: WritingMark | undefined;
  /** When the revision the client edited was saved (null: the client had none acknowledged). */
  baseSavedAt: string | null;
}

/** What an author's writing days and goal are decided by: their plan, zone and settings, read in one statement. */
export interface WritingRules {
  plan: PlanName;
  timeZone: string;
  settings: WritingSettings;
}

/** The author's plan, time zone and writing settings (defaults until saved). */
export async function writingRulesOf(db: Db, userId: string): Promise<WritingRules> {
  const [row] = await runPrepared(
    db,
    PREPARED_KEYS.progressWritingRules,
    (q: Db, v: { userId: string }) =>
      q
        .selectFrom('users')
        .leftJoin('writingSettings', 'writingSettings.userId', 'users.id')
        .select(['users.plan', 'users.timeZone', ...SETTINGS_COLUMNS.map((c) => `writingSettings.${c} as settings_${c}` as const)])
        .where('users.id', '=', v.userId),
    { userId },
  );
  const stored = row as Record<string, unknown> | undefined;
  const settings: WritingSettings =
    stored?.settingsId === null || stored?.settingsId === undefined
      ? defaultSettings(userId, new Date(0).toISOString())
      : ({
          ...Object.fromEntries(SETTINGS_COLUMNS.map((c) => [c, stored[`settings${c[0]!.toUpperCase()}${c.slice(1)}`]])),
          restDays: JSON.parse(String(stored.settingsRestDays)) as number[],
        } as WritingSettings);
  return { plan: storedPlan(stored?.plan), timeZone: (stored?.timeZone as string | null | undefined) ?? DEFAULT_TIME_ZONE, settings };
}

export interface RecordedEdit {
  day: string;
  counted: number;
  attributedAt: string;
  /** The words written on `day` with this edit's (its row's wordsWritten afterwards). */
  dayWords: number;
  rules: WritingRules;
}

/**
 * Logs one chapter save for the caller and adds its words to their writing day. A save whose
 * event id was logged already, or that changed no words, records nothing. Answers what was
 * counted (null when nothing was recorded). Three statements: the author's rules, the log entry
 * (kept only if its id is new), the day's row (one upsert).
 */
export async function recordChapterEdit(ctx: MutationContext, edit: ChapterEdit): Promise<RecordedEdit | null> {
  const kind = edit.mark?.kind ?? 'writing';
  const counted = classifyEdit(edit.before.content, edit.after.content, kind);
  if (counted.added === 0 && counted.removed === 0) return null;

  const rules = await writingRulesOf(ctx.trx, ctx.userId);
  const at = attributedTime(edit.mark?.editedAt, new Date(ctx.now), edit.baseSavedAt === null ? null : new Date(edit.baseSavedAt));
  const day = writingDay(at, rules.timeZone, rules.settings.dayEndHour);
  const event = {
    userId: ctx.userId,
    id: edit.mark?.eventId ?? newId(),
    chapterId: edit.before.id,
    seriesId: edit.before.seriesId,
    kind,
    editedAt: at.toISOString(),
    recordedAt: ctx.now,
    day,
    wordsAdded: counted.added,
    wordsRemoved: counted.removed,
    pasted: counted.pasted ? 1 : 0,
    rev: ctx.seq,
  };
  // An event id logged before (a replay without its request key) is not counted again.
  const logged = await runPrepared(
    ctx.trx,
    PREPARED_KEYS.progressLogEdit,
    (q: Db, v: typeof event) =>
      q
        .insertInto('writingEvents')
        .values({ ...v })
        .onConflict((oc) => oc.columns(['userId', 'id']).doNothing())
        .returning('id'),
    event,
  );
  if (logged.length === 0) return null;
  // Only writing moves the day's figures; the other kinds stay in the log.
  if (kind !== 'writing') return { day, counted: 0, attributedAt: event.editedAt, dayWords: 0, rules };
  const dayWords = await addToWritingDay(ctx.trx, {
    id: newId(),
    rev: ctx.seq,
    now: ctx.now,
    userId: ctx.userId,
    day,
    wordsWritten: counted.counted,
    wordsRemoved: counted.removed,
    wordsPasted: counted.pasted ? counted.added : 0,
  });
  ctx.touchUser(ctx.userId);
  return { day, counted: counted.counted, attributedAt: event.editedAt, dayWords, rules };
}

/** The author's daily rows between two days (inclusive), oldest first. */
export async function dailyStats(db: Db, userId: string, from: string | null, to: string | null): Promise<WritingStat[]> {
  let q = db.selectFrom('writingStats').select(STAT_COLUMNS).where('userId', '=', userId).where('deletedAt', 'is', null);
  if (from !== null) q = q.where('day', '>=', from);
  if (to !== null) q = q.where('day', '<=', to);
  return q.orderBy('day').execute();
}

/** The author's counted saves (writing, not pastes) from the edit log, oldest first. */
export async function countedSaves(db: Db, userId: string): Promise<WritingActivity[]> {
  const rows = await db
    .selectFrom('writingEvents')
    .select(['editedAt', 'chapterId', 'seriesId', 'wordsAdded'])
    .where('userId', '=', userId)
    .where('kind', '=', 'writing')
    .where('pasted', '=', 0)
    .where('wordsAdded', '>', 0)
    .orderBy('editedAt')
    .execute();
  return rows.map((r) => ({ at: r.editedAt, chapterId: r.chapterId, seriesId: r.seriesId, words: r.wordsAdded }));
}

/** A logged save as the edit log keeps it (`writingEvents`). */
export interface LoggedEdit {
  kind: string;
  day: string;
  wordsAdded: number;
  wordsRemoved: number;
  pasted: boolean;
}

/**
 * Adds logged saves that reached the log without a save — a restored backup's (backup/restore-author.ts) —
 * to their days' figures, as recordChapterEdit added each when it was logged.
 */
export async function creditLoggedEdits(ctx: MutationContext, edits: readonly LoggedEdit[]): Promise<void> {
  for (const edit of edits) {
    if (edit.kind !== 'writing') continue;
    await addToWritingDay(ctx.trx, {
      id: newId(),
      rev: ctx.seq,
      now: ctx.now,
      userId: ctx.userId,
      day: edit.day,
      wordsWritten: edit.pasted ? 0 : edit.wordsAdded,
      wordsRemoved: edit.wordsRemoved,
      wordsPasted: edit.pasted ? edit.wordsAdded : 0,
    });
  }
  if (edits.some((edit) => edit.kind === 'writing')) ctx.touchUser(ctx.userId);
}
