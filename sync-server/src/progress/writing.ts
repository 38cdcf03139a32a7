/**
 * Writing statistics on the server (DESIGN.md §4 "Writing statistics"): each chapter save's words
 * are logged once per (author, event id), attributed to the author's writing day of the (clamped)
 * device time, and added to that day's figures. The rules are packages/schema's; this module only
 * reads and writes the rows, stamped with the write's seq like every synced row.
 */
import {
  DEFAULT_DAY_END_HOUR,
  DEFAULT_FREEZES_PER_MONTH,
  DEFAULT_TIME_ZONE,
  type Chapter,
  type UpdateWritingSettingsBody,
  type WritingMark,
  type WritingSettings,
  type WritingStat,
  attributedTime,
  classifyEdit,
  newId,
  writingDay,
} from '@chronicler/schema';
import type { Kysely } from 'kysely';
import { runPrepared } from '../db/prepared.ts';
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
  const [row] = await runPrepared(db, 'progress timeZone', (q: Db, v: { id: string }) => q.selectFrom('users').select('timeZone').where('id', '=', v.id), { id: userId });
  return (row as { timeZone?: string | null } | undefined)?.timeZone ?? DEFAULT_TIME_ZONE;
}

export async function settingsOf(db: Db, userId: string): Promise<WritingSettings> {
  const [row] = await runPrepared(db, 'progress settings', (q: Db, v: { userId: string }) => q.selectFrom('writingSettings').select(SETTINGS_COLUMNS).where('userId', '=', v.userId), { userId });
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

export interface RecordedEdit {
  day: string;
  counted: number;
  attributedAt: string;
}

/**
 * Logs one chapter save for the caller and adds its words to their writing day. A save whose
 * event id was logged already, or that changed no words, records nothing. Answers what was
 * counted (null when nothing was recorded).
 */
export async function recordChapterEdit(ctx: MutationContext, edit: ChapterEdit): Promise<RecordedEdit | null> {
  const kind = edit.mark?.kind ?? 'writing';
  const eventId = edit.mark?.eventId ?? newId();
  const seen = await ctx.trx.selectFrom('writingEvents').select('id').where('userId', '=', ctx.userId).where('id', '=', eventId).executeTakeFirst();
  if (seen) return null;
  const counted = classifyEdit(edit.before.content, edit.after.content, kind);
  if (counted.added === 0 && counted.removed === 0) return null;

  const settings = await settingsOf(ctx.trx, ctx.userId);
  const at = attributedTime(edit.mark?.editedAt, new Date(ctx.now), edit.baseSavedAt === null ? null : new Date(edit.baseSavedAt));
  const day = writingDay(at, await timeZoneOf(ctx.trx, ctx.userId), settings.dayEndHour);
  await ctx.trx
    .insertInto('writingEvents')
    .values({
      userId: ctx.userId,
      id: eventId,
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
    })
    .execute();
  // Only writing moves the day's figures; the other kinds stay in the log.
  if (kind === 'writing') {
    await addToDay(ctx, day, {
      wordsWritten: counted.counted,
      wordsRemoved: counted.removed,
      wordsPasted: counted.pasted ? counted.added : 0,
    });
  }
  return { day, counted: counted.counted, attributedAt: at.toISOString() };
}

async function addToDay(ctx: MutationContext, day: string, add: { wordsWritten: number; wordsRemoved: number; wordsPasted: number }): Promise<void> {
  const row = await ctx.trx.selectFrom('writingStats').select(STAT_COLUMNS).where('userId', '=', ctx.userId).where('day', '=', day).executeTakeFirst();
  if (row) {
    await ctx.trx
      .updateTable('writingStats')
      .set({
        wordsWritten: row.wordsWritten + add.wordsWritten,
        wordsRemoved: row.wordsRemoved + add.wordsRemoved,
        wordsPasted: row.wordsPasted + add.wordsPasted,
        edits: row.edits + 1,
        rev: ctx.seq,
        updatedAt: ctx.now,
      })
      .where('id', '=', row.id)
      .execute();
    ctx.touchUser(ctx.userId);
    return;
  }
  await ctx.trx
    .insertInto('writingStats')
    .values({ id: newId(), rev: ctx.seq, createdAt: ctx.now, updatedAt: ctx.now, deletedAt: null, userId: ctx.userId, day, ...add, edits: 1 })
    .execute();
  ctx.touchUser(ctx.userId);
}

/** The author's daily rows between two days (inclusive), oldest first. */
export async function dailyStats(db: Db, userId: string, from: string | null, to: string | null): Promise<WritingStat[]> {
  let q = db.selectFrom('writingStats').select(STAT_COLUMNS).where('userId', '=', userId).where('deletedAt', 'is', null);
  if (from !== null) q = q.where('day', '>=', from);
  if (to !== null) q = q.where('day', '<=', to);
  return q.orderBy('day').execute();
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
    await addToDay(ctx, edit.day, { wordsWritten: edit.pasted ? 0 : edit.wordsAdded, wordsRemoved: edit.wordsRemoved, wordsPasted: edit.pasted ? edit.wordsAdded : 0 });
  }
}
