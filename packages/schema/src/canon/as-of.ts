/**
 * The state behind the "As of" control (docs/decisions/0017-canon-changes.md): the choices
 * ("Series end", each book's end, each chapter, in reading order) and the point a screen shows
 * when the chosen one has changed under it. Pure: the screens keep the chosen point and ask here.
 */
import type { Book, Chapter } from '../entities.ts';
import { SERIES_END, type StoryOrder, type StoryPoint, cursorOf } from './story-order.ts';

export const SERIES_END_LABEL = 'Series end';

export interface AsOfOption {
  /** A stable string for a select's value: `end`, `book:<id>` or `chapter:<id>`. */
  readonly value: string;
  readonly label: string;
  readonly point: StoryPoint;
  /** The book the option belongs to (null for "Series end"), for grouping. */
  readonly bookId: string | null;
}

/** The value of a point in the control. */
export function asOfValue(point: StoryPoint): string {
  if (point === 'end') return 'end';
  return point.chapterId ? `chapter:${point.chapterId}` : `book:${point.bookId}`;
}

/** The choices in reading order: "Series end" first, then per book its end and its chapters. */
export function asOfOptions(order: StoryOrder, books: readonly Pick<Book, 'id' | 'title'>[], chapters: readonly Pick<Chapter, 'id' | 'title'>[]): AsOfOption[] {
  const bookTitles = new Map(books.map((b) => [b.id, b.title]));
  const chapterTitles = new Map(chapters.map((c) => [c.id, c.title]));
  const options: AsOfOption[] = [{ value: 'end', label: SERIES_END_LABEL, point: 'end', bookId: null }];
  order.bookIds.forEach((bookId, b) => {
    const bookLabel = `Book ${b + 1}: ${bookTitles.get(bookId) ?? ''}`;
    options.push({ value: `book:${bookId}`, label: `End of ${bookLabel}`, point: { bookId }, bookId });
    const { first, end } = order.bookRange.get(bookId)!;
    for (let index = first; index < end; index += 1) {
      const chapterId = order.chapterIds[index]!;
      options.push({
        value: `chapter:${chapterId}`,
        label: `Book ${b + 1}, chapter ${index - first + 1}: ${chapterTitles.get(chapterId) ?? ''}`,
        point: { bookId, chapterId },
        bookId,
      });
    }
  });
  return options;
}

/** The point a control value names, or null when it names nothing in the story. */
export function pointOfValue(order: StoryOrder, value: string): StoryPoint | null {
  if (value === 'end') return 'end';
  const [kind, id] = [value.slice(0, value.indexOf(':')), value.slice(value.indexOf(':') + 1)];
  if (kind === 'book') return order.bookRange.has(id) ? { bookId: id } : null;
  if (kind === 'chapter') {
    const bookId = order.bookOfChapter.get(id);
    return bookId ? { bookId, chapterId: id } : null;
  }
  return null;
}

/**
 * The point to show for a chosen one, and its cursor. A chapter that moved to another book is
 * followed there. A chapter no longer in the story (deleted, in the Trash) falls back to the end of
 * its book, a book no longer in it to the series end; `fellBack` says so, for the screen to tell.
 */
export function settleAsOf(order: StoryOrder, chosen: StoryPoint): { point: StoryPoint; cursor: number; fellBack: boolean } {
  if (chosen === 'end') return { point: 'end', cursor: SERIES_END, fellBack: false };
  if (chosen.chapterId) {
    const bookId = order.bookOfChapter.get(chosen.chapterId);
    if (bookId) {
      const point = { bookId, chapterId: chosen.chapterId };
      return { point, cursor: cursorOf(order, point)!, fellBack: false };
    }
  }
  const bookEnd = cursorOf(order, { bookId: chosen.bookId });
  if (bookEnd !== null) return { point: { bookId: chosen.bookId }, cursor: bookEnd, fellBack: Boolean(chosen.chapterId) };
  return { point: 'end', cursor: SERIES_END, fellBack: true };
}
