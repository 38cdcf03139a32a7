/**
 * The series' narrative order: its live books by position, each book's live chapters by position,
 * numbered 0, 1, 2… across the whole series. A story point ("as of Book 2, chapter 14") is a
 * cursor into it: everything anchored at or before the cursor has happened
 * (docs/decisions/0017-canon-changes.md). Trashed books and chapters are out of the story.
 */
import type { Book, Chapter } from '../entities.ts';
import { byPosition } from '../positions.ts';

type OrderedBook = Pick<Book, 'id' | 'position' | 'createdAt' | 'deletedAt' | 'trashedAt'>;
type OrderedChapter = Pick<Chapter, 'id' | 'bookId' | 'position' | 'createdAt' | 'deletedAt' | 'trashedAt'>;

export interface StoryOrder {
  /** Chapter ids in reading order. */
  readonly chapterIds: readonly string[];
  /** Each live chapter's place in `chapterIds`. */
  readonly chapterIndex: ReadonlyMap<string, number>;
  /** Each live chapter's book. */
  readonly bookOfChapter: ReadonlyMap<string, string>;
  /** Live book ids in reading order. */
  readonly bookIds: readonly string[];
  /** Each live book's chapters: `first` index, `end` one past its last (first === end: no chapters). */
  readonly bookRange: ReadonlyMap<string, { readonly first: number; readonly end: number }>;
}

/** The cursor of "Series end": every anchored change has happened. */
export const SERIES_END = Number.POSITIVE_INFINITY;
/** The cursor before the first chapter: only the entities' own rows hold. */
export const BEFORE_THE_STORY = -1;

const live = (row: { deletedAt: string | null; trashedAt?: string | null | undefined }) => row.deletedAt === null && !row.trashedAt;

export function storyOrder(books: readonly OrderedBook[], chapters: readonly OrderedChapter[]): StoryOrder {
  const liveBooks = books.filter(live).sort(byPosition);
  const byBook = new Map<string, OrderedChapter[]>(liveBooks.map((b) => [b.id, []]));
  for (const chapter of chapters) if (live(chapter)) byBook.get(chapter.bookId)?.push(chapter);
  const chapterIds: string[] = [];
  const chapterIndex = new Map<string, number>();
  const bookOfChapter = new Map<string, string>();
  const bookRange = new Map<string, { first: number; end: number }>();
  for (const book of liveBooks) {
    const first = chapterIds.length;
    for (const chapter of byBook.get(book.id)!.sort(byPosition)) {
      chapterIndex.set(chapter.id, chapterIds.length);
      bookOfChapter.set(chapter.id, book.id);
      chapterIds.push(chapter.id);
    }
    bookRange.set(book.id, { first, end: chapterIds.length });
  }
  return { chapterIds, chapterIndex, bookOfChapter, bookIds: liveBooks.map((b) => b.id), bookRange };
}

/**
 * A point of the story as a screen names it: "Series end", a book (its end: everything told in it
 * has happened), or a chapter of a book (through that chapter, its own changes included).
 */
export type StoryPoint = 'end' | { bookId: string; chapterId?: string | null };

/**
 * The cursor of a point, or null when the point names a book or chapter that is not (or no longer)
 * in the story — a deleted or trashed one, or a chapter that moved to another book.
 */
export function cursorOf(order: StoryOrder, point: StoryPoint): number | null {
  if (point === 'end') return SERIES_END;
  const range = order.bookRange.get(point.bookId);
  if (!range) return null;
  if (point.chapterId === undefined || point.chapterId === null) return range.end - 1;
  const index = order.chapterIndex.get(point.chapterId);
  return index !== undefined && index >= range.first && index < range.end ? index : null;
}
