/**
 * Restructuring a series on the device (docs/decisions/0014-trash-and-restructure.md): the Trash,
 * a chapter's move to another book, a split at the caret and a merge with the next chapter. Each
 * operation is ONE Dexie transaction (its rows and all its outbox entries, outbox-write.ts), so it
 * works offline and syncs as a whole, and answers its undo: one more local write that puts back
 * what it changed. None of them is writing (writing.ts): text they move carries the `restructure`
 * mark, and a chapter they create carries none.
 *
 * The requests are the ordinary ones, merged by the server with a collaborator's concurrent edits
 * (docs/sync-protocol.md#fields-merge): a trash or restore is a PUT of `trashed`, a move a PUT of
 * `bookId` (both books renumbered by the shared rule, @chronicler/schema restructure.ts), a split
 * a PUT of the head + a POST of the tail + a reorder, a merge a PUT of the joined text + a trash
 * of the next chapter.
 */
import {
  type Book,
  type Chapter,
  RESTRUCTURE_MESSAGES,
  ROLE_MESSAGES,
  RestructureError,
  byPosition,
  chapterWordCount,
  isTrashed,
  mergedChapterText,
  movedChapterOrder,
  newId,
  splitChapterText,
} from '@chronicler/schema';
import { type ChroniclerDb, type Effect, SYNC_TABLES } from './db.ts';
import { NotFoundLocallyError } from './errors.ts';
import { createMutators } from './mutators.ts';
import { commit } from './outbox-write.ts';
import { isLive } from './rebase.ts';
import { canEditWith, seriesRoleOf } from './roles.ts';
import { withWritingMark } from './writing.ts';

export { RestructureError } from '@chronicler/schema';

/** What an operation answers: the step the toast's "Undo" takes (itself one local write). */
export interface Undoable {
  undo(): Promise<void>;
}

const CHAPTER_GONE = 'This chapter is no longer available';
const BOOK_GONE = 'This book is no longer available';
/** An undo refused because the text was changed after the operation (undoing would drop those words). */
export const UNDO_STALE_MESSAGE = 'The chapter was changed since, so this can no longer be undone. Nothing was changed.';

export interface RestructureOptions {
  now?: () => number;
}

export function createRestructure(db: ChroniclerDb, options: RestructureOptions = {}) {
  const now = options.now ?? (() => Date.now());
  const nowIso = () => new Date(now()).toISOString();

  const mutators = createMutators(db, { now });
  /** One operation: every write in one transaction over the sync tables (and the roles it checks). */
  const atomically = <T>(work: () => Promise<T>): Promise<T> => db.transaction('rw', [...SYNC_TABLES, 'seriesRoles'], work);

  async function chapter(id: string): Promise<Chapter> {
    const row = await db.chapters.get(id);
    if (!isLive(row)) throw new NotFoundLocallyError(CHAPTER_GONE);
    return row as Chapter;
  }
  async function book(id: string): Promise<Book> {
    const row = await db.books.get(id);
    if (!isLive(row)) throw new NotFoundLocallyError(BOOK_GONE);
    return row as Book;
  }
  async function mayEdit(seriesId: string): Promise<void> {
    if (!canEditWith(await seriesRoleOf(db, seriesId))) throw new RestructureError(ROLE_MESSAGES.readOnly);
  }
  /** A book's live chapters (trashed ones included: they keep their place), in list order. */
  async function chaptersIn(bookId: string): Promise<Chapter[]> {
    return ((await db.chapters.where('bookId').equals(bookId).toArray()) as Chapter[]).filter((c) => isLive(c)).sort(byPosition);
  }

  /** A PUT of `fields` on one row, its local effect `patch` (the row's own fields). */
  function put(kind: 'books' | 'chapters', row: Book | Chapter, body: Record<string, unknown>, patch: Record<string, unknown>, more: Effect[] = []) {
    return commit(db, now, async () => ({
      kind: 'update',
      method: 'PUT',
      path: `/api/${kind}/${row.id}`,
      body,
      entity: kind,
      entityId: row.id,
      seriesId: row.seriesId,
      effects: [{ op: 'patch', entity: kind, id: row.id, fields: { ...patch, updatedAt: nowIso() } }, ...more],
      current: row,
    }));
  }

  /** A chapter's text set by a restructure (not writing), with its word count as the server will count it. */
  function putText(row: Chapter, content: string) {
    const body = withWritingMark({ content, writing: { kind: 'restructure' } }, now());
    return put('chapters', row, body, { content, wordCount: chapterWordCount(content) });
  }

  function setTrashed(kind: 'books' | 'chapters', row: Book | Chapter, trashed: boolean) {
    return put(kind, row, { trashed }, { trashedAt: trashed ? nowIso() : null });
  }

  async function trashChapter(id: string): Promise<Undoable> {
    await atomically(async () => {
      const row = await chapter(id);
      await mayEdit(row.seriesId);
      if (isTrashed(row)) throw new RestructureError(RESTRUCTURE_MESSAGES.alreadyInTrash);
      await setTrashed('chapters', row, true);
    });
    return { undo: () => restoreChapter(id).then(() => undefined) };
  }

  /** Out of the Trash into its book, in its place; refused while the book is in the Trash (restore it, or move the chapter). */
  async function restoreChapter(id: string): Promise<Undoable> {
    await atomically(async () => {
      const row = await chapter(id);
      await mayEdit(row.seriesId);
      if (!isTrashed(row)) throw new RestructureError(RESTRUCTURE_MESSAGES.notInTrash);
      if (isTrashed(await book(row.bookId))) throw new RestructureError(RESTRUCTURE_MESSAGES.restoreIntoTrashedBook);
      await setTrashed('chapters', row, false);
    });
    return { undo: () => trashChapter(id).then(() => undefined) };
  }

  async function trashBook(id: string): Promise<Undoable> {
    await atomically(async () => {
      const row = await book(id);
      await mayEdit(row.seriesId);
      if (isTrashed(row)) throw new RestructureError(RESTRUCTURE_MESSAGES.alreadyInTrash);
      await setTrashed('books', row, true);
    });
    return { undo: () => restoreBook(id).then(() => undefined) };
  }

  async function restoreBook(id: string): Promise<Undoable> {
    await atomically(async () => {
      const row = await book(id);
      await mayEdit(row.seriesId);
      if (!isTrashed(row)) throw new RestructureError(RESTRUCTURE_MESSAGES.notInTrash);
      await setTrashed('books', row, false);
    });
    return { undo: () => trashBook(id).then(() => undefined) };
  }

  /**
   * Moves a chapter to another book of its series, at `position` (1-based) or last. It keeps its id,
   * so its revisions, conflict copies, statistics and timeline anchors stay with it. A trashed
   * chapter moved into a book comes out of the Trash there ("choose another book" on a restore).
   */
  async function moveChapter(id: string, bookId: string, position?: number): Promise<Undoable> {
    let from = { bookId: '', position: 0 };
    await atomically(async () => {
      const row = await chapter(id);
      await mayEdit(row.seriesId);
      if (row.bookId === bookId) throw new RestructureError(RESTRUCTURE_MESSAGES.moveSameBook);
      const target = await book(bookId).catch(() => {
        throw new RestructureError(RESTRUCTURE_MESSAGES.moveOtherSeries);
      });
      if (target.seriesId !== row.seriesId) throw new RestructureError(RESTRUCTURE_MESSAGES.moveOtherSeries);
      if (isTrashed(target)) throw new RestructureError(RESTRUCTURE_MESSAGES.moveIntoTrashedBook);
      from = { bookId: row.bookId, position: row.position };
      const order = movedChapterOrder(await chaptersIn(row.bookId), await chaptersIn(bookId), row, position);
      const placed = order.target.find((r) => r.row.id === id)!.position;
      const at = new Date(now()).toISOString();
      const others: Effect[] = [...order.source, ...order.target]
        .filter((r) => r.changed && r.row.id !== id)
        .map((r) => ({ op: 'patch', entity: 'chapters', id: r.row.id, fields: { position: r.position, updatedAt: at } }));
      const body: Record<string, unknown> = { bookId, ...(position === undefined ? {} : { position: placed }) };
      const patch: Record<string, unknown> = { bookId, position: placed };
      if (isTrashed(row)) {
        body.trashed = false;
        patch.trashedAt = null;
      }
      await put('chapters', row, body, patch, others);
    });
    return { undo: () => moveChapter(id, from.bookId, from.position).then(() => undefined) };
  }

  /**
   * Splits a chapter at `offset` in its text: the head stays, the tail becomes a new chapter right
   * after it (titled `title`, by default the chapter's with "(continued)"). Answers the new
   * chapter's id with the undo, which joins the two texts as they are then and deletes the new one.
   */
  async function splitChapter(id: string, offset: number, title?: string): Promise<Undoable & { newChapterId: string }> {
    const newChapterId = newId(now());
    await atomically(async () => {
      const row = await chapter(id);
      await mayEdit(row.seriesId);
      const { head, tail } = splitChapterText(row.content, offset);
      const siblings = await chaptersIn(row.bookId);
      await putText(row, head);
      const at = nowIso();
      const made: Chapter = {
        id: newChapterId,
        rev: 0,
        createdAt: at,
        updatedAt: at,
        deletedAt: null,
        seriesId: row.seriesId,
        bookId: row.bookId,
        title: title?.trim() || `${row.title} (continued)`,
        content: tail,
        position: row.position + 1,
        wordCount: chapterWordCount(tail),
        status: row.status,
        synopsis: '',
        notes: '',
        trashedAt: null,
      };
      const { id: _id, rev: _rev, createdAt: _c, updatedAt: _u, deletedAt: _d, seriesId: _s, wordCount: _w, trashedAt: _t, ...sent } = made;
      await commit(db, now, async () => ({
        kind: 'create',
        method: 'POST',
        path: '/api/chapters',
        body: { id: newChapterId, ...sent },
        entity: 'chapters',
        entityId: newChapterId,
        seriesId: row.seriesId,
        effects: [{ op: 'put', entity: 'chapters', id: newChapterId, row: made }],
        current: null,
      }));
      // The new chapter goes right after the split one; the later ones move down by one.
      const index = siblings.findIndex((c) => c.id === id);
      const ordered = [...siblings.slice(0, index + 1), made, ...siblings.slice(index + 1)];
      const items = ordered.map((c, i) => ({ id: c.id, position: i + 1 }));
      await commit(db, now, async () => ({
        kind: 'reorder',
        method: 'POST',
        path: '/api/chapters/reorder',
        body: { chapters: items },
        entity: 'chapters',
        entityId: row.bookId,
        seriesId: row.seriesId,
        effects: ordered
          .map((c, i) => ({ c, position: i + 1 }))
          .filter(({ c, position }) => c.position !== position)
          .map(({ c, position }): Effect => ({ op: 'patch', entity: 'chapters', id: c.id, fields: { position, updatedAt: at } })),
      }));
    });
    return {
      newChapterId,
      undo: async () => {
        await atomically(async () => {
          const [first, second] = [await chapter(id), await chapter(newChapterId)];
          await putText(first, mergedChapterText(first.content, second.content));
          // The ordinary delete: its later chapters move up, as the server's does.
          await mutators.chapters.delete(second.id);
        });
      },
    };
  }

  /**
   * Appends the next chapter of the same book (the next one not in the Trash) to this one, and
   * puts that one in the Trash, where its own text stays restorable. Refused for the last chapter
   * of a book: chapters of two books are never merged.
   */
  async function mergeWithNext(id: string): Promise<Undoable> {
    let merged = { text: '', before: '', nextId: '' };
    await atomically(async () => {
      const row = await chapter(id);
      await mayEdit(row.seriesId);
      const visible = (await chaptersIn(row.bookId)).filter((c) => !isTrashed(c));
      const next = visible[visible.findIndex((c) => c.id === id) + 1];
      if (!next) {
        const laterBook = ((await db.books.where('seriesId').equals(row.seriesId).toArray()) as Book[]).some(
          (b) => isLive(b) && !isTrashed(b) && b.id !== row.bookId,
        );
        throw new RestructureError(laterBook ? RESTRUCTURE_MESSAGES.mergeAcrossBooks : RESTRUCTURE_MESSAGES.mergeNoNext);
      }
      merged = { text: mergedChapterText(row.content, next.content), before: row.content, nextId: next.id };
      await putText(row, merged.text);
      await setTrashed('chapters', next, true);
    });
    return {
      undo: async () => {
        await atomically(async () => {
          const row = await chapter(id);
          if (row.content !== merged.text) throw new RestructureError(UNDO_STALE_MESSAGE);
          await putText(row, merged.before);
          const next = await chapter(merged.nextId);
          if (isTrashed(next)) await setTrashed('chapters', next, false);
        });
      },
    };
  }

  /** Deletes a trashed chapter or book for good now (the screen asks once more first): the ordinary DELETE and its cascade. */
  async function deleteForever(kind: 'books' | 'chapters', id: string): Promise<void> {
    await atomically(async () => {
      const row = kind === 'chapters' ? await chapter(id) : await book(id);
      await mayEdit(row.seriesId);
      if (!isTrashed(row)) throw new RestructureError(RESTRUCTURE_MESSAGES.notInTrash);
      await mutators[kind].delete(id);
    });
  }

  return { trashChapter, restoreChapter, trashBook, restoreBook, moveChapter, splitChapter, mergeWithNext, deleteForever };
}

export type Restructure = ReturnType<typeof createRestructure>;
