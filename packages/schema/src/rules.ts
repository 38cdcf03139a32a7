/**
 * Pure rules shared by the web app and the server: word counting, progress, labels and the
 * editor's last-saved text. Sources: spec 001 §4, §5, §9 and 000 §2.
 */

// ---------------------------------------------------------------------------------------------
// Word and character counts (001 §5)

const WHITESPACE = /\s+/u;

/**
 * What separates the editor's words: whitespace or any Unicode punctuation (apostrophes, hyphens
 * and dashes included: "don't" is two words).
 */
const SEPARATOR = /^[\s\p{P}]$/u;
const ASCII_SEPARATOR = Uint8Array.from({ length: 128 }, (_, unit) => (SEPARATOR.test(String.fromCharCode(unit)) ? 1 : 0));
/** Non-ASCII code points looked up so far: a text uses few distinct ones. */
const wideSeparator = new Map<number, boolean>();
const MAX_WIDE_REMEMBERED = 4096;

function separates(codePoint: number): boolean {
  let separator = wideSeparator.get(codePoint);
  if (separator === undefined) {
    separator = SEPARATOR.test(String.fromCodePoint(codePoint));
    if (wideSeparator.size < MAX_WIDE_REMEMBERED) wideSeparator.set(codePoint, separator);
  }
  return separator;
}

/** Chapter dialog count: the number of whitespace-separated words, 0 when empty or blank. */
export function countWordsDialog(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(WHITESPACE).length;
}

/**
 * Editor count: punctuation replaced by spaces, the text split on whitespace and empty pieces
 * dropped. "Well-known don't" counts 4; a lone "—" counts 0.
 */
export function countWordsEditor(text: string): number {
  let count = 0;
  forEachEditorWord(text, () => count++);
  return count;
}

/** The words of a text on the editor's rule (countWordsEditor): what writing statistics compare. */
export function editorWords(text: string): string[] {
  const words: string[] = [];
  forEachEditorWord(text, (start, end) => words.push(text.slice(start, end)));
  return words;
}

/**
 * Calls `word(start, end, hash)` for each word of `text` on the editor's rule (countWordsEditor),
 * in order, without making the words: one scan with a table for ASCII, the same words as the spec's
 * replace-and-split (a property test holds them equal) at ~4× less cost. `hash` is the 32-bit
 * FNV-1a hash of the word's UTF-16 code units (progress/word-balance.ts keys its table by it). The
 * server counts every save with it, the editor every change.
 */
export function forEachEditorWord(text: string, word: (start: number, end: number, hash: number) => void): void {
  let start = -1;
  let hash = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    let separator: boolean;
    let width = 1;
    if (unit < 128) separator = ASCII_SEPARATOR[unit] === 1;
    else {
      const codePoint = text.codePointAt(i)!;
      if (codePoint > 0xffff) width = 2;
      separator = separates(codePoint);
    }
    if (separator) {
      if (start >= 0) word(start, i, hash);
      start = -1;
    } else {
      if (start < 0) {
        start = i;
        hash = FNV_OFFSET;
      }
      hash = Math.imul(hash ^ unit, FNV_PRIME);
      if (width === 2) hash = Math.imul(hash ^ text.charCodeAt(i + 1), FNV_PRIME);
    }
    i += width - 1;
  }
  if (start >= 0) word(start, text.length, hash);
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** The editor's character count: the raw text length. */
export function characterCount(text: string): number {
  return text.length;
}

/** Words changed since the last save: total minus previous, or the total when previous is 0. */
export function wordChange(total: number, previous: number): number {
  return previous === 0 ? total : total - previous;
}

/** A word change for a badge: "+12", "-3", "0". */
export function formatWordChange(change: number): string {
  return change > 0 ? `+${change}` : String(change);
}

// ---------------------------------------------------------------------------------------------
// Progress (001 §4, §9; 000 §2)

function clampPercent(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, Math.round(value)));
}

/** Percent of a book's chapters with status completed, rounded; 0 when it has no chapters. */
export function bookProgress(chapters: readonly { status: string }[]): number {
  if (chapters.length === 0) return 0;
  const done = chapters.filter((c) => c.status === 'completed').length;
  return clampPercent((done / chapters.length) * 100);
}

/**
 * The progress an author has made on a series (docs/spec-differences.md, in place of the spec's
 * currentBook ÷ totalBooks, which showed 25% with no words written): each planned book counts
 * equally, and a book's share is its completed chapters (a book marked Completed counts whole).
 * Books planned but not yet created count as 0; more books than planned widen the whole. A rounded
 * percent, 0–100.
 */
export function seriesProgress(
  series: { totalBooks: number },
  books: readonly { id: string; status: string }[],
  chapters: readonly { bookId: string; status: string }[],
): number {
  const whole = Math.max(series.totalBooks, books.length);
  if (!(whole > 0)) return 0;
  let done = 0;
  for (const book of books) {
    if (book.status === 'completed') done += 1;
    else done += bookProgress(chapters.filter((c) => c.bookId === book.id)) / 100;
  }
  return clampPercent((done / whole) * 100);
}

/** Chapter progress bar: 100 when completed, 75 when it has words, otherwise 10. */
export function chapterProgressBar(chapter: { status: string; wordCount: number }): number {
  if (chapter.status === 'completed') return 100;
  return chapter.wordCount > 0 ? 75 : 10;
}

// ---------------------------------------------------------------------------------------------
// Labels (001 §2, §9; 000 §2)

function sortedUnique(nums: readonly number[]): number[] {
  return [...new Set(nums.filter((n) => Number.isInteger(n)))].sort((a, b) => a - b);
}

/**
 * A character's book appearances: 'None', 'Book N', 'Books N and M', or 'Books min-max' for three
 * or more (001 §9). Numbers are sorted and repeats dropped first.
 */
export function characterAppearanceLabel(nums: readonly number[]): string {
  const books = sortedUnique(nums);
  const [first, second] = books;
  const last = books[books.length - 1];
  if (first === undefined || last === undefined) return 'None';
  if (second === undefined) return `Book ${first}`;
  if (books.length === 2) return `Books ${first} and ${second}`;
  return `Books ${first}-${last}`;
}

/** A location's book appearances, comma-separated ("1, 3, 5"); 'None' when there are none. */
export function locationAppearanceLabel(nums: readonly number[]): string {
  const books = sortedUnique(nums);
  return books.length === 0 ? 'None' : books.join(', ');
}

/** The label of each book status, as the author chose it. */
export const BOOK_STATUS_LABELS = {
  in_progress: 'In Progress',
  completed: 'Completed',
  planning: 'Planning',
  revision: 'Revision',
} as const;
export type BookStatusLabel = (typeof BOOK_STATUS_LABELS)[keyof typeof BOOK_STATUS_LABELS];

/**
 * Book status display: the status the author chose (docs/spec-differences.md; the spec's 001 §9
 * showed every status but Completed as 'In Progress', which reads as a bug for Planning). Unknown →
 * 'In Progress'.
 */
export function bookStatusDisplay(status: string): BookStatusLabel {
  return (BOOK_STATUS_LABELS as Record<string, BookStatusLabel>)[status] ?? 'In Progress';
}

/** The editor's status badge: Completed, Draft, or In Progress (in_progress and revision). */
export function chapterStatusLabel(status: string): 'Completed' | 'Draft' | 'In Progress' {
  if (status === 'completed') return 'Completed';
  if (status === 'draft') return 'Draft';
  return 'In Progress';
}

/** First word of the display name, or 'Author' when there is none (000 §2). */
export function firstName(displayName: string | null | undefined): string {
  const first = (displayName ?? '').trim().split(WHITESPACE)[0];
  return first ? first : 'Author';
}

/** The dashboard greeting: "Welcome back, {first name or Author}". */
export function welcomeBack(displayName: string | null | undefined): string {
  return `Welcome back, ${firstName(displayName)}`;
}

// ---------------------------------------------------------------------------------------------
// Last saved (001 §2)

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The editor's last-saved text: 'Never saved', 'Just now' (under a minute, or a clock that runs
 * behind), '1 minute ago', 'N minutes ago', '1 hour ago', 'N hours ago', and from 24 hours on the
 * full date and time in `locale` (and `timeZone`, the device's when omitted).
 */
export function lastSavedText(savedAt: Date | null, now: Date, locale = 'en-US', timeZone?: string): string {
  if (savedAt === null) return 'Never saved';
  const elapsed = now.getTime() - savedAt.getTime();
  if (elapsed < MINUTE) return 'Just now';
  if (elapsed < HOUR) {
    const minutes = Math.floor(elapsed / MINUTE);
    return minutes === 1 ? '1 minute ago' : `${minutes} minutes ago`;
  }
  if (elapsed < DAY) {
    const hours = Math.floor(elapsed / HOUR);
    return hours === 1 ? '1 hour ago' : `${hours} hours ago`;
  }
  return savedAt.toLocaleString(locale, {
    dateStyle: 'long',
    timeStyle: 'short',
    ...(timeZone === undefined ? {} : { timeZone }),
  });
}
