/**
 * Pure rules shared by the web app and the server: word counting, progress, labels and the
 * editor's last-saved text. Sources: spec 001 §4, §5, §9 and 000 §2.
 */

// ---------------------------------------------------------------------------------------------
// Word and character counts (001 §5)

/**
 * The one word rule (docs/spec-differences.md: the spec counted the dialog's words by whitespace
 * and the editor's by splitting at every punctuation mark, so "keeper's" was two words in one and
 * one in the other, and a Japanese sentence one word). Words as word processors and publishers
 * count them (docs/decisions/0016-one-word-rule.md):
 * - text splits at whitespace and at em and en dashes ("paused—then" is two words);
 * - a piece is a word when it holds a letter, a digit or a mark; the punctuation around it is not
 *   part of it ("“Dark,”" is the word "Dark"), the punctuation inside it is ("keeper's",
 *   "well-known", "1,000", "e.g" are one word each);
 * - each Chinese character, hiragana and katakana is a word of its own (Korean words are spaced);
 * - a piece of punctuation or symbols alone ("—", "…", "***", an emoji) is no word;
 * - markup is never a word: callers count the visible text (word-count.ts, markup/).
 * A word never spans a line break, so a text's count is the sum of its lines'.
 */
export const WORD_RULE_VERSION = 2;

/** What a code point is to the word rule. */
const enum WordClass {
  /** Whitespace, em and en dashes: words end here. */
  Separator = 0,
  /** A letter, digit, mark or connector: a piece holding one is a word. */
  Word = 1,
  /** Punctuation and symbols: inside a word they belong to it, around it they do not. */
  Other = 2,
  /** A Chinese character, hiragana or katakana: a word by itself. */
  Ideograph = 3,
}

const SEPARATOR = /^[\s\u2013\u2014\u2015]$/u;
const WORD_CHARACTER = /^[\p{L}\p{N}\p{M}\p{Pc}]$/u;
const IDEOGRAPH = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30FC]$/u;

function classify(character: string): WordClass {
  if (SEPARATOR.test(character)) return WordClass.Separator;
  if (IDEOGRAPH.test(character)) return WordClass.Ideograph;
  return WORD_CHARACTER.test(character) ? WordClass.Word : WordClass.Other;
}

const ASCII_CLASS = Uint8Array.from({ length: 128 }, (_, unit) => classify(String.fromCharCode(unit)));
/** Non-ASCII code points looked up so far: a text uses few distinct ones. */
const wideClass = new Map<number, WordClass>();
const MAX_WIDE_REMEMBERED = 4096;

function classOf(codePoint: number): WordClass {
  let found = wideClass.get(codePoint);
  if (found === undefined) {
    found = classify(String.fromCodePoint(codePoint));
    if (wideClass.size < MAX_WIDE_REMEMBERED) wideClass.set(codePoint, found);
  }
  return found;
}

/** The chapter dialog's count: the same rule as everywhere (no markup is typed there). */
export function countWordsDialog(text: string): number {
  return countWords(text);
}

/** The number of words in `text` on the word rule (markup counted as written: see word-count.ts for chapter text). */
export function countWords(text: string): number {
  let count = 0;
  forEachWord(text, () => count++);
  return count;
}

/** The words of a text on the word rule: what writing statistics compare. */
export function listWords(text: string): string[] {
  const words: string[] = [];
  forEachWord(text, (start, end) => words.push(text.slice(start, end)));
  return words;
}

function hashOf(text: string, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  return hash;
}

/**
 * Calls `word(start, end, hash)` for each word of `text` on the word rule, in order, without
 * making the words: one scan with a table for ASCII. `hash` is the 32-bit FNV-1a hash of the
 * word's UTF-16 code units (progress/word-balance.ts keys its table by it). The server counts every
 * save with it, the editor every changed line.
 */
export function forEachWord(text: string, word: (start: number, end: number, hash: number) => void): void {
  // The current word: from its first word character to just after its last one so far.
  let start = -1;
  let end = -1;
  const finish = () => {
    if (start >= 0) word(start, end, hashOf(text, start, end));
    start = -1;
  };
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    let kind: WordClass;
    let width = 1;
    if (unit < 128) kind = ASCII_CLASS[unit] as WordClass;
    else {
      const codePoint = text.codePointAt(i)!;
      if (codePoint > 0xffff) width = 2;
      kind = classOf(codePoint);
    }
    if (kind === WordClass.Word) {
      if (start < 0) start = i;
      end = i + width;
    } else if (kind === WordClass.Ideograph) {
      finish();
      word(i, i + width, hashOf(text, i, i + width));
    } else if (kind === WordClass.Separator) {
      finish();
    }
    // Other: inside a word if a word character follows before a separator, else trailing.
    i += width - 1;
  }
  finish();
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

const WHITESPACE = /\s+/u;

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
