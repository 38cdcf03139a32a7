/**
 * The series' Trash and a chapter's move between books (docs/decisions/0014-trash-and-restructure.md,
 * @chronicler/schema restructure.ts). Both ride on the ordinary update (PUT) of a book or chapter,
 * so they merge field by field with a collaborator's concurrent edits: `trashed` becomes the
 * stored `trashedAt` (this write's time, or null), `bookId` a move placed by the shared rule.
 * Trashed rows stay live rows; the purge deletes them for good once TRASH_RETENTION_DAYS have passed.
 */
import {
  ERROR_CODES,
  RESTRUCTURE_MESSAGES,
  type UpdateBookBody,
  type UpdateChapterBody,
  isTrashed,
  movedChapterOrder,
  purgeCutoff,
  purgeDueAt,
} from '@chronicler/schema';
import type { Kysely } from 'kysely';
import type { OpenedDatabase } from '../db/database.ts';
import type { DB } from '../db/tables.ts';
import { purgeWithDependants } from '../entities/delete.ts';
import { findRow, loadAccessible } from '../entities/queries.ts';
import type { RowPatch, WireRow } from '../entities/wire.ts';
import { type MutationContext, type WriteContext, updateRow } from '../entities/writes.ts';
import { HttpError } from '../http/errors.ts';
import type { ChangeHub } from '../sync/hub.ts';
import { runServerWrite } from '../sync/mutation.ts';
import { type UpdateAnswer, applyUpdate, saveChapter, updateAccess } from '../sync/update.ts';
import { assertGoalFeature, assertGoalValues } from './book-goal.ts';
import { chaptersOf, renumber } from './chapter-order.ts';

const refused = (message: string, field: string) => new HttpError(422, ERROR_CODES.validation, message, { [field]: message });

/** `trashed` as the stored field: this write's time into the Trash, null out of it. */
function trashedAtOf(trashed: boolean | undefined, now: string): { trashedAt?: string | null } {
  return trashed === undefined ? {} : { trashedAt: trashed ? now : null };
}

/**
 * PUT /api/books/{id}: the update path, with `trashed` stored as `trashedAt`, and a goal gated and
 * checked (book-goal.ts).
 */
export function updateBook(ctx: MutationContext, id: string, body: UpdateBookBody, baseRev: number | null): Promise<UpdateAnswer<'books'>> {
  const { trashed, ...fields } = body;
  return applyUpdate(ctx, 'books', id, { ...fields, ...trashedAtOf(trashed, ctx.now) } as RowPatch<'books'>, baseRev, {
    validate: async (current) => {
      await assertGoalFeature(ctx.trx, current.seriesId, body);
      await assertGoalValues(ctx, current, body);
    },
  });
}

/**
 * The book a chapter moves into: one the caller may edit (404 for an unknown or foreign one, as
 * every id; 403 for a viewer), of the chapter's series, not in the Trash (422 with a message).
 */
async function targetBook(ctx: MutationContext, chapter: WireRow<'chapters'>, bookId: string): Promise<WireRow<'books'>> {
  const book = await loadAccessible(ctx.trx, 'books', bookId, ctx.userId, { level: 'edit' });
  if (book.seriesId !== chapter.seriesId) throw refused(RESTRUCTURE_MESSAGES.moveOtherSeries, 'bookId');
  if (isTrashed(book)) throw refused(RESTRUCTURE_MESSAGES.moveIntoTrashedBook, 'bookId');
  return book;
}

/**
 * PUT /api/chapters/{id}: a save (sync/update.ts saveChapter), a move when `bookId` names another
 * book (both books renumbered in the same write), and the Trash by `trashed`. A restore into a book
 * that is itself in the Trash is refused, so nothing comes back where the author cannot see it.
 */
export async function updateChapter(
  ctx: MutationContext,
  id: string,
  body: Omit<UpdateChapterBody, 'wordCount'>,
  baseRev: number | null,
): Promise<UpdateAnswer<'chapters'>> {
  const { trashed, bookId, ...fields } = body;
  const patch = { ...fields, ...trashedAtOf(trashed, ctx.now) };
  if (bookId === undefined && trashed !== false) return saveChapter(ctx, id, patch, baseRev);

  const current = await loadAccessible(ctx.trx, 'chapters', id, ctx.userId, updateAccess('chapters'));
  const moving = current.deletedAt === null && bookId !== undefined && bookId !== current.bookId;
  const target = moving ? await targetBook(ctx, current, bookId) : null;
  if (trashed === false && current.deletedAt === null && !target) {
    const book = await loadAccessible(ctx.trx, 'books', current.bookId, ctx.userId, { level: 'edit' });
    if (isTrashed(book)) throw refused(RESTRUCTURE_MESSAGES.restoreIntoTrashedBook, 'trashed');
  }
  if (!target) return saveChapter(ctx, id, patch, baseRev);

  // The text and fields merge as any save; the positions of both books follow the shared rule.
  const { position, ...rest } = patch;
  const saved = await saveChapter(ctx, id, { ...rest, bookId: target.id } as typeof patch, baseRev);
  const order = movedChapterOrder(await chaptersOf(ctx, current.bookId), await chaptersOf(ctx, target.id), saved, position);
  let moved: WireRow<'chapters'> = saved;
  for (const { row, position: at, changed } of [...order.source, ...order.target]) {
    if (!changed) continue;
    const written = await updateRow(ctx, 'chapters', row.id, { position: at }, row);
    if (row.id === id) moved = written;
  }
  const { mergeStatus, conflictId } = saved;
  return { ...moved, mergeStatus, ...(conflictId === undefined ? {} : { conflictId }) };
}

/** One entry of a series' Trash, as GET /api/series/{id}/trash lists it (the text stays out). */
export interface TrashEntry {
  kind: 'books' | 'chapters';
  id: string;
  title: string;
  /** A chapter's book (for a book: itself). */
  bookId: string;
  wordCount: number;
  trashedAt: string;
  /** When the purge deletes it for good. */
  purgeAt: string;
}

/** A series' Trash, newest first: its trashed books and chapters that are not purged yet. */
export async function trashOfSeries(db: Kysely<DB>, seriesId: string): Promise<TrashEntry[]> {
  const [books, chapters] = await Promise.all([
    db.selectFrom('books').select(['id', 'title', 'wordCount', 'trashedAt']).where('seriesId', '=', seriesId).where('deletedAt', 'is', null).where('trashedAt', 'is not', null).execute(),
    db
      .selectFrom('chapters')
      .select(['id', 'title', 'bookId', 'wordCount', 'trashedAt'])
      .where('seriesId', '=', seriesId)
      .where('deletedAt', 'is', null)
      .where('trashedAt', 'is not', null)
      .execute(),
  ]);
  const entry = (kind: TrashEntry['kind'], row: { id: string; title: string; wordCount: number; trashedAt: string | null }, bookId: string): TrashEntry => ({
    kind,
    id: row.id,
    title: row.title,
    bookId,
    wordCount: Number(row.wordCount),
    trashedAt: row.trashedAt!,
    purgeAt: purgeDueAt(row.trashedAt!).toISOString(),
  });
  return [...books.map((b) => entry('books', b, b.id)), ...chapters.map((c) => entry('chapters', c, c.bookId))].sort(
    (a, b) => b.trashedAt.localeCompare(a.trashedAt) || a.id.localeCompare(b.id),
  );
}

/** Rows purged per write, so one purge never holds the writer long. */
const PURGE_SLICE = 50;

/**
 * Deletes for good (a tombstone and its cascade, as a DELETE) every book and chapter trashed
 * before the retention, as the server's own writes; a purged chapter's book closes the gap.
 * Answers how many rows it purged. Run by the periodic job (story/plugin.ts) and by tests.
 */
export async function purgeDueTrash(deps: { database: OpenedDatabase; hub: ChangeHub | null }, nowMs: number): Promise<number> {
  const cutoff = purgeCutoff(nowMs);
  let purged = 0;
  for (const kind of ['books', 'chapters'] as const) {
    for (;;) {
      const due = await deps.database.db
        .selectFrom(kind)
        .select('id')
        .where('deletedAt', 'is', null)
        .where('trashedAt', 'is not', null)
        .where('trashedAt', '<', cutoff)
        .orderBy('trashedAt')
        .limit(PURGE_SLICE)
        .execute();
      if (due.length === 0) break;
      purged += await runServerWrite(deps, async (ctx) => {
        let n = 0;
        for (const { id } of due) n += (await purgeOne(ctx, kind, id, cutoff)) ? 1 : 0;
        return n;
      });
      if (due.length < PURGE_SLICE) break;
    }
  }
  return purged;
}

/** Purges one row if it is still live and due (a restore may have come in between). */
async function purgeOne(ctx: WriteContext, kind: 'books' | 'chapters', id: string, cutoff: string): Promise<boolean> {
  const row = await findRow(ctx.trx, kind, id);
  if (!row || row.deletedAt !== null || !row.trashedAt || row.trashedAt >= cutoff) return false;
  const tombstone = await purgeWithDependants(ctx, kind, row);
  if (kind === 'chapters') await renumber(ctx, await chaptersOf(ctx, (tombstone as WireRow<'chapters'>).bookId));
  return true;
}
