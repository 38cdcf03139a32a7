/**
 * Book appearances of characters and locations (docs/spec-differences.md: the spec's fixed books
 * 1 to 5 widened to the series' own books). They are stored as book numbers — a book's position in
 * its series, the "Book N" the screens show — so the rows written against the spec's five
 * checkboxes keep their meaning, and the companion's spoiler rule reads them unchanged.
 */
import type { Book } from './entities.ts';

/** The spec's five books: numbers the series always accepts, so no row written before the change is refused. */
export const SPEC_BOOK_NUMBERS = 5;

export interface BookAppearanceChoice {
  /** The book number stored in `bookAppearances`. */
  number: number;
  /** 'Book 2: The Two Towers'; 'Book 6' for a stored number with no book of the series. */
  label: string;
  /** No book of the series has this number: shown so the author can untick it, never offered otherwise. */
  orphan: boolean;
}

/**
 * The checkboxes of a character's or location's form: the series' live books by position, then
 * any stored number no book has (an earlier series shape, a deleted book).
 */
export function bookAppearanceChoices(books: readonly Pick<Book, 'position' | 'title'>[], stored: readonly number[] = []): BookAppearanceChoice[] {
  const byNumber = new Map<number, BookAppearanceChoice>();
  for (const book of [...books].sort((a, b) => a.position - b.position)) {
    if (book.position < 1 || byNumber.has(book.position)) continue;
    byNumber.set(book.position, { number: book.position, label: `Book ${book.position}: ${book.title}`, orphan: false });
  }
  const orphans = [...new Set(stored)].filter((n) => !byNumber.has(n)).sort((a, b) => a - b);
  return [...byNumber.values(), ...orphans.map((number) => ({ number, label: `Book ${number}`, orphan: true }))];
}

/**
 * The first number of `numbers` the series cannot take, or null: a number must be one of the
 * series' books, or one of the spec's five (so the rows written before stay valid).
 */
export function bookAppearanceOutsideSeries(numbers: readonly number[], bookNumbers: readonly number[]): number | null {
  const known = new Set(bookNumbers);
  return numbers.find((n) => n > SPEC_BOOK_NUMBERS && !known.has(n)) ?? null;
}

/** The server's answer to a number no book of the series has. */
export function bookAppearanceMessage(number: number): string {
  return `Book appearances can only name books of this series: there is no Book ${number}`;
}
