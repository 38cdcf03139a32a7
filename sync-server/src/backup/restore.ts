/**
 * Restores a checked archive (archive.ts readArchive) into an author's account without holding the
 * server: first the plan, with reads only (restore-plan.ts: where every row goes, the plan's limits
 * — a refused restore writes nothing); then the writes in slices, each its own write (its own seq
 * and transaction through the group commit, its SSE pokes after its commit) that ends after
 * RESTORE_SLICE_MS, the next one starting after the event loop had a turn — so another author's
 * request waits at most about one slice (no request may hold the event loop for more than ~100 ms),
 * as sync/batch.ts does.
 *
 * Parents first (series, books, chapters, …, kinds.ts order; the author's own rows last), so every
 * committed slice is consistent and syncs to devices like any write. A restore stopped part-way (a
 * crash) is completed by restoring the same archive again: the rows already written are found
 * under the same ids and left alone. A chapter is written with its history (as revisions older
 * than the chapter) in one slice; the author's statistics, achievements and settings in the last
 * (restore-author.ts), so nothing counts twice.
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { BACKUP_MESSAGES, ERROR_CODES, type EntityKind, type RestoreResult } from '@chronicler/schema';
import { upsertRevision } from '../db/dialect.ts';
import type { OpenedDatabase } from '../db/database.ts';
import type { NewRow } from '../entities/wire.ts';
import { type MutationContext, insertRow } from '../entities/writes.ts';
import { HttpError } from '../http/errors.ts';
import type { ChangeHub } from '../sync/hub.ts';
import { nextSeq, runServerWrite } from '../sync/mutation.ts';
import type { BackupData, ChapterHistoryEntry } from './kinds.ts';
import { type PlannedRow, isSameRow, planRestore, storedRows } from './restore-plan.ts';
import { restoreAuthorRows } from './restore-author.ts';
import { restorePictures } from './restore-media.ts';

/** A slice of a restore holds the database at most about this long before others get a turn. */
export const RESTORE_SLICE_MS = 50;

/** Rows of a kind whose planned ids are checked in one query (a few chapters: well within a slice). */
const ROWS_PER_LOOKUP = 8;

export interface RestoreDeps {
  database: OpenedDatabase;
  hub: ChangeHub | null;
}

export interface RestoreOptions {
  sliceMs?: number;
  /** Called after each committed slice with their count so far (tests stop a restore part-way by throwing). */
  afterSlice?: (slices: number) => void;
}

/** One unit of the write phase: a row (a chapter with its history), or the author's rows. */
type Unit = { kind: EntityKind; row: PlannedRow } | { kind: 'author' };

export async function restoreBackup(deps: RestoreDeps, userId: string, data: BackupData, options: RestoreOptions = {}): Promise<RestoreResult> {
  const plan = await planRestore(deps.database.db, userId, data);
  const { counts, ids } = plan;
  const historyOf = new Map<string, ChapterHistoryEntry[]>();
  for (const h of data.chapterHistory) {
    const list = historyOf.get(h.chapterId);
    if (list) list.push(h);
    else historyOf.set(h.chapterId, [h]);
  }
  const units: Unit[] = plan.inserts.flatMap(({ kind, rows }) => rows.map((row) => ({ kind, row })));
  if (data.author) units.push({ kind: 'author' });

  const sliceMs = options.sliceMs ?? RESTORE_SLICE_MS;
  let next = 0;
  let slices = 0;
  /** One slice: units until `sliceMs` has passed, as one write. */
  const slice = (ctx: MutationContext) => async () => {
    const started = performance.now();
    do {
      const unit = units[next]!;
      // Rows of one kind are written a few at a time: their ids looked up in one query.
      let end = next + 1;
      while (end < units.length && units[end]!.kind === unit.kind && unit.kind !== 'author' && end - next < ROWS_PER_LOOKUP) end += 1;
      if (unit.kind === 'author') Object.assign(counts, await restoreAuthorRows(ctx, data.author!, ids));
      else await writeRows(ctx, unit.kind, units.slice(next, end).map((u) => (u as { row: PlannedRow }).row), historyOf, counts[unit.kind]!);
      next = end;
    } while (next < units.length && performance.now() - started < sliceMs);
  };
  try {
    while (next < units.length) {
      if (slices > 0) await nextTurn(); // requests queued behind the last slice run now
      await runServerWrite(deps, (server) => slice({ ...server, userId })());
      slices += 1;
      options.afterSlice?.(slices);
    }
  } catch (error) {
    // Once a slice has committed, say how to finish: the same archive again completes it.
    if (slices > 0 && !(error instanceof HttpError)) throw new HttpError(503, ERROR_CODES.internal, BACKUP_MESSAGES.interrupted);
    throw error;
  }
  // The pictures, once their series are there (restore-media.ts).
  if (data.media && data.media.length > 0) counts.media = await restorePictures(deps.database, userId, data, ids.get('series')!);
  return { series: (data.rows.series ?? []).map((s) => String(s.title)), counts };
}

/**
 * Inserts planned rows of one kind. One found under its planned id already (the same archive
 * restored at the same time) is counted as present; one taken by another row since the plan was
 * made stops the restore: restoring again places it afresh.
 */
async function writeRows(ctx: MutationContext, kind: EntityKind, rows: PlannedRow[], historyOf: Map<string, ChapterHistoryEntry[]>, count: RestoreResult['counts'][string]): Promise<void> {
  const stored = await storedRows(ctx.trx, kind, rows.map((r) => String(r.values.id)));
  for (const { values, createdAt, original, remapped } of rows) {
    const found = stored.get(String(values.id));
    if (found) {
      if (!isSameRow(found, kind, ctx.userId, kind === 'series' ? null : String(values.seriesId))) {
        throw new HttpError(409, ERROR_CODES.conflict, BACKUP_MESSAGES.interrupted);
      }
      count.alreadyPresent += 1;
      continue;
    }
    const history = kind === 'chapters' ? (historyOf.get(original) ?? []) : [];
    if (history.length > 0) {
      await writeHistory(ctx, String(values.id), values, createdAt, history);
      // The chapter's own rev comes after its history's, so the history reads as older.
      await insertRow({ ...ctx, seq: await nextSeq(ctx.trx) }, kind, values as unknown as NewRow<typeof kind>, createdAt);
    } else {
      await insertRow(ctx, kind, values as unknown as NewRow<typeof kind>, createdAt);
    }
    count.restored += 1;
    if (remapped) count.remapped += 1;
  }
}

async function writeHistory(ctx: MutationContext, chapterId: string, chapter: Record<string, unknown>, createdAt: string, history: ChapterHistoryEntry[]): Promise<void> {
  for (const h of history) {
    const rev = await nextSeq(ctx.trx);
    const snapshot = {
      ...chapter,
      id: chapterId,
      title: h.title,
      content: h.content,
      position: h.position,
      wordCount: h.wordCount,
      status: h.status,
      rev,
      createdAt,
      updatedAt: h.createdAt,
      deletedAt: null,
    };
    await upsertRevision(ctx.trx, {
      entity: 'chapters',
      entityId: chapterId,
      rev,
      seriesId: String(chapter.seriesId),
      userId: ctx.userId,
      snapshot: JSON.stringify(snapshot),
      createdAt: h.createdAt,
      // A restored history entry is one the author had in History.
      inHistory: 1,
    });
  }
}
