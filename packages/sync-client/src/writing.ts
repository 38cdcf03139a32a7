/**
 * Writing progress on the device (docs/server.md#writing-statistics). Every chapter save that
 * changes the text carries a writing mark: its own event id (the server logs each once), the device
 * time of the edit, and its kind — `writing` unless the caller says otherwise. Restores
 * (`restore`), conflict-copy accepts (`conflict-accept`), imports (`import`) and companion
 * insertions (`companion`) pass `writing: { kind }` to `mutators.chapters.update` and are not
 * counted.
 *
 * The server's figures (user-scoped synced rows `writingStats`, `userAchievements`,
 * `writingSettings`) arrive through the changes feed; the words of saves still in the outbox are
 * added on top with the same counting rule, so Words Today rises while the author types offline.
 */
import {
  type EditKind,
  type UpdateChapterBody,
  type UserAchievement,
  type WritingSettings,
  type WritingStat,
  classifyEdit,
  newId,
  writingDay,
} from '@chronicler/schema';
import type { Table } from 'dexie';
import type { ChroniclerDb, OutboxEntry } from './db.ts';

/** The Dexie tables of writing progress (db.ts version 3). */
export const PROGRESS_TABLES = {
  writingStats: 'id, userId, day',
  userAchievements: 'id, userId, achievementId, earnedAt',
  writingSettings: 'id, userId',
} as const;

export function writingStatsTable(db: ChroniclerDb): Table<WritingStat, string> {
  return db.table('writingStats');
}
export function userAchievementsTable(db: ChroniclerDb): Table<UserAchievement, string> {
  return db.table('userAchievements');
}
export function writingSettingsTable(db: ChroniclerDb): Table<WritingSettings, string> {
  return db.table('writingSettings');
}

/** A chapter update body with its writing mark filled in when it changes the text. */
export function withWritingMark<B extends UpdateChapterBody>(body: B, nowMs: number): B {
  if (body.content === undefined) return body;
  return {
    ...body,
    writing: {
      kind: body.writing?.kind ?? 'writing',
      eventId: newId(nowMs),
      editedAt: body.writing?.editedAt ?? new Date(nowMs).toISOString(),
    },
  };
}

/** Every time zone offset is a multiple of 15 minutes and days end on the hour: a slot never spans two writing days. */
const SLOT_MS = 15 * 60_000;

interface Marked {
  writing?: { kind?: EditKind; editedAt?: string };
}

/**
 * Whether an unsent chapter save may absorb the next one: only saves of the same kind (a restore
 * never turns into writing) within one quarter hour (so no entry spans two writing days).
 */
export function writingMarksCoalesce(pendingBody: unknown, nextBody: unknown): boolean {
  const a = (pendingBody as Marked | null)?.writing;
  const b = (nextBody as Marked | null)?.writing;
  if (!a || !b) return true;
  if ((a.kind ?? 'writing') !== (b.kind ?? 'writing')) return false;
  const slot = (iso: string | undefined) => Math.floor(new Date(iso ?? 0).getTime() / SLOT_MS);
  return slot(a.editedAt) === slot(b.editedAt);
}

/** Counted words of the chapter saves still in the outbox, per writing day. */
export function pendingWordsByDay(entries: readonly OutboxEntry[], timeZone: string, dayEndHour: number): Map<string, number> {
  const byDay = new Map<string, number>();
  for (const entry of entries) {
    if (entry.entity !== 'chapters' || (entry.kind !== 'update' && entry.kind !== 'create')) continue;
    const body = entry.body as UpdateChapterBody | null;
    if (typeof body?.content !== 'string') continue;
    // A create counts only the text typed into it before it was sent (folded updates carry a mark).
    if (entry.kind === 'create' && !body.writing) continue;
    const before =
      entry.kind === 'create'
        ? null
        : (entry.before.find((b) => b.entity === 'chapters' && b.id === entry.entityId)?.row as { content?: string } | null | undefined);
    const { counted } = classifyEdit(before?.content ?? '', body.content, body.writing?.kind ?? 'writing');
    if (counted === 0) continue;
    const day = writingDay(body.writing?.editedAt ?? entry.createdAt, timeZone, dayEndHour);
    byDay.set(day, (byDay.get(day) ?? 0) + counted);
  }
  return byDay;
}

export interface ProgressSnapshot {
  settings: WritingSettings | null;
  /** The zone the days are counted in: the author's record's, else the caller's default (the browser's). */
  timeZone: string;
  /** The author's daily rows (synced) with the outbox's words added, by day. */
  dailyWords: Map<string, number>;
  /** Synced daily rows only. */
  stats: WritingStat[];
  earned: UserAchievement[];
}

/** The dashboard's progress data in one read transaction. */
export async function readProgress(db: ChroniclerDb, defaults: { timeZone: string; dayEndHour: number }): Promise<ProgressSnapshot> {
  return db.transaction('r', [writingStatsTable(db), userAchievementsTable(db), writingSettingsTable(db), db.outbox, db.table('users')], async () => {
    const [user, settingsRows, stats, earned, pending] = await Promise.all([
      db.table('users').get(db.userId) as Promise<{ timeZone?: string | null } | undefined>,
      writingSettingsTable(db).where('userId').equals(db.userId).toArray(),
      writingStatsTable(db).where('userId').equals(db.userId).toArray(),
      userAchievementsTable(db).where('userId').equals(db.userId).toArray(),
      db.outbox.filter((e) => e.entity === 'chapters' && (e.kind === 'update' || e.kind === 'create')).toArray(),
    ]);
    const settings = settingsRows.find((s) => !s.deletedAt) ?? null;
    const timeZone = user?.timeZone ?? defaults.timeZone;
    const dayEndHour = settings?.dayEndHour ?? defaults.dayEndHour;
    const dailyWords = new Map<string, number>();
    for (const s of stats) if (!s.deletedAt) dailyWords.set(s.day, (dailyWords.get(s.day) ?? 0) + s.wordsWritten);
    for (const [day, words] of pendingWordsByDay(pending, timeZone, dayEndHour)) dailyWords.set(day, (dailyWords.get(day) ?? 0) + words);
    return { settings, timeZone, dailyWords, stats: stats.filter((s) => !s.deletedAt), earned: earned.filter((e) => !e.deletedAt) };
  });
}


/**
 * Keeps user-scoped rows the server answered with (a check's earned achievements, saved settings)
 * as a pull would: a row replaces the local one only when its rev is not older.
 */
export async function keepServerRows<T extends { id: string; rev: number }>(table: Table<T, string>, rows: readonly T[]): Promise<void> {
  await table.db.transaction('rw', table, async () => {
    for (const row of rows) {
      const local = await table.get(row.id);
      if (!local || local.rev <= row.rev) await table.put(row);
    }
  });
}
