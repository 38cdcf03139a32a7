import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bookProgress,
  bookStatusDisplay,
  chapterProgressBar,
  chapterStatusLabel,
  characterAppearanceLabel,
  characterCount,
  countWordsDialog,
  countWordsEditor,
  editorWords,
  firstName,
  formatWordChange,
  lastSavedText,
  locationAppearanceLabel,
  seriesProgress,
  welcomeBack,
  wordChange,
} from './rules.ts';

const letters = 'abcdefghijklmnopqrstuvwxyzéßЖ'.split('');
const wordArb = fc.array(fc.constantFrom(...letters), { minLength: 1, maxLength: 8 }).map((cs) => cs.join(''));
const spaceArb = fc.array(fc.constantFrom(' ', '\n', '\t', '\u00a0', '\r\n'), { minLength: 1, maxLength: 3 }).map((s) => s.join(''));
const punctArb = fc.constantFrom('.', ',', '!', '?', "'", '’', '-', '—', '–', '"', '“', '(', ')', ':', ';', '…', '«', '»');
/** Words joined by runs of whitespace, with optional whitespace around. */
const textArb = fc
  .tuple(fc.array(fc.tuple(wordArb, spaceArb)), fc.option(spaceArb, { nil: '' }))
  .map(([parts, lead]) => lead + parts.map(([w, s]) => w + s).join(''));
const anyTextArb = fc.string({ unit: 'grapheme', maxLength: 60 });

describe('word counts (001 §5)', () => {
  it('counts whitespace-separated words in the chapter dialog', () => {
    expect(countWordsDialog('')).toBe(0);
    expect(countWordsDialog('   \n\t ')).toBe(0);
    expect(countWordsDialog('one')).toBe(1);
    expect(countWordsDialog('  The dragon   woke.\nIt was hungry. ')).toBe(6);
    expect(countWordsDialog("don't stop — now")).toBe(4);
  });

  it('treats punctuation as spaces in the editor, apostrophes and dashes included', () => {
    expect(countWordsEditor('')).toBe(0);
    expect(countWordsEditor("don't")).toBe(2);
    expect(countWordsEditor('don’t')).toBe(2);
    expect(countWordsEditor('well-known')).toBe(2);
    expect(countWordsEditor('wait—what?')).toBe(2);
    expect(countWordsEditor("don't stop — now")).toBe(4);
    expect(countWordsEditor('... — !!!')).toBe(0);
    expect(countWordsEditor('Hello,world')).toBe(2);
    // Symbols are not punctuation: "$5" stays one word.
    expect(countWordsEditor('It cost $5 + tax')).toBe(5);
  });

  it("finds the spec's editor words: punctuation replaced by spaces, split on whitespace, empties dropped", () => {
    // The spec's wording, literally, as the oracle for the one-scan rule.
    const specWords = (text: string) => text.replace(/\p{P}/gu, ' ').split(/\s+/u).filter((w) => w !== '');
    const mixed = fc
      .array(fc.oneof(wordArb, spaceArb, punctArb, fc.string({ unit: 'binary', maxLength: 6 }), fc.string({ unit: 'grapheme', maxLength: 6 })), { maxLength: 30 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(mixed, anyTextArb), (text) => {
        expect(editorWords(text)).toEqual(specWords(text));
        expect(countWordsEditor(text)).toBe(specWords(text).length);
      }),
      { numRuns: 3000 },
    );
  });

  it('counts the words joined by whitespace, in both counters', () => {
    fc.assert(
      fc.property(fc.array(wordArb), spaceArb, (words, sep) => {
        const text = words.join(sep);
        return countWordsDialog(text) === words.length && countWordsEditor(text) === words.length;
      }),
    );
  });

  it('adds up across a whitespace boundary', () => {
    fc.assert(
      fc.property(anyTextArb, anyTextArb, spaceArb, (a, b, s) => {
        const joined = a + s + b;
        return (
          countWordsDialog(joined) === countWordsDialog(a) + countWordsDialog(b) &&
          countWordsEditor(joined) === countWordsEditor(a) + countWordsEditor(b)
        );
      }),
    );
  });

  it('counts each punctuation-joined word in the editor, the dialog sees one word per run', () => {
    fc.assert(
      fc.property(fc.array(wordArb, { minLength: 1, maxLength: 6 }), punctArb, (words, p) => {
        const text = words.join(p);
        return countWordsEditor(text) === words.length && countWordsDialog(text) === 1;
      }),
    );
  });

  it('is the dialog count of the text with punctuation turned into spaces', () => {
    fc.assert(
      fc.property(anyTextArb, (t) => countWordsEditor(t) === countWordsDialog(t.replace(/\p{P}/gu, ' '))),
    );
  });

  it('never counts more words than non-space characters', () => {
    fc.assert(
      fc.property(fc.oneof(textArb, anyTextArb), (t) => {
        const visible = t.replace(/\s/gu, '').length;
        return countWordsDialog(t) <= visible && countWordsEditor(t) <= visible;
      }),
    );
  });

  it('counts characters as the raw length', () => {
    expect(characterCount('')).toBe(0);
    expect(characterCount(' a b ')).toBe(5);
    expect(characterCount('line\nbreak')).toBe(10);
  });

  it('reports the word change since the last save', () => {
    expect(wordChange(120, 100)).toBe(20);
    expect(wordChange(80, 100)).toBe(-20);
    expect(wordChange(120, 0)).toBe(120);
    expect(formatWordChange(20)).toBe('+20');
    expect(formatWordChange(-20)).toBe('-20');
    expect(formatWordChange(0)).toBe('0');
  });
});

describe('progress (001 §4, §9)', () => {
  it('is the rounded percent of completed chapters, 0 with none', () => {
    expect(bookProgress([])).toBe(0);
    expect(bookProgress([{ status: 'completed' }, { status: 'draft' }, { status: 'revision' }])).toBe(33);
    expect(bookProgress([{ status: 'completed' }, { status: 'completed' }, { status: 'in_progress' }])).toBe(67);
    expect(bookProgress([{ status: 'completed' }])).toBe(100);
  });

  it('stays within 0–100 for any chapters', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ status: fc.constantFrom('in_progress', 'draft', 'revision', 'completed') })), (cs) => {
        const p = bookProgress(cs);
        return Number.isInteger(p) && p >= 0 && p <= 100;
      }),
    );
  });

  it('shows series progress as the work done, not the current book (a new series is at 0%)', () => {
    const b = (id: string, status = 'in_progress') => ({ id, status });
    const c = (bookId: string, status: string) => ({ bookId, status });
    expect(seriesProgress({ totalBooks: 4 }, [], [])).toBe(0);
    expect(seriesProgress({ totalBooks: 4 }, [b('a')], [c('a', 'draft')])).toBe(0);
    // Half of book a of 4 planned books.
    expect(seriesProgress({ totalBooks: 4 }, [b('a')], [c('a', 'completed'), c('a', 'draft')])).toBe(13);
    // A book marked Completed counts whole; a book with no chapters counts 0.
    expect(seriesProgress({ totalBooks: 2 }, [b('a', 'completed'), b('b')], [])).toBe(50);
    // More books than planned widen the whole.
    expect(seriesProgress({ totalBooks: 1 }, [b('a', 'completed'), b('b')], [])).toBe(50);
    expect(seriesProgress({ totalBooks: 0 }, [], [])).toBe(0);
  });

  it('fills the chapter bar to 100, 75 or 10', () => {
    expect(chapterProgressBar({ status: 'completed', wordCount: 0 })).toBe(100);
    expect(chapterProgressBar({ status: 'in_progress', wordCount: 1 })).toBe(75);
    expect(chapterProgressBar({ status: 'draft', wordCount: 0 })).toBe(10);
  });
});

describe('labels', () => {
  it('labels character appearances None, Book N, Books N and M, or a range', () => {
    expect(characterAppearanceLabel([])).toBe('None');
    expect(characterAppearanceLabel([2])).toBe('Book 2');
    expect(characterAppearanceLabel([3, 1])).toBe('Books 1 and 3');
    expect(characterAppearanceLabel([2, 2])).toBe('Book 2');
    expect(characterAppearanceLabel([4, 2, 3])).toBe('Books 2-4');
    expect(characterAppearanceLabel([5, 1, 3, 1])).toBe('Books 1-5');
  });

  it('lists location appearances comma-separated', () => {
    expect(locationAppearanceLabel([])).toBe('None');
    expect(locationAppearanceLabel([3])).toBe('3');
    expect(locationAppearanceLabel([5, 1, 3, 3])).toBe('1, 3, 5');
  });

  it('shows a book with the status the author chose', () => {
    expect(bookStatusDisplay('completed')).toBe('Completed');
    expect(bookStatusDisplay('in_progress')).toBe('In Progress');
    expect(bookStatusDisplay('planning')).toBe('Planning');
    expect(bookStatusDisplay('revision')).toBe('Revision');
  });

  it('labels the editor status badge Completed, Draft or In Progress', () => {
    expect(chapterStatusLabel('completed')).toBe('Completed');
    expect(chapterStatusLabel('draft')).toBe('Draft');
    expect(chapterStatusLabel('in_progress')).toBe('In Progress');
    expect(chapterStatusLabel('revision')).toBe('In Progress');
  });

  it('greets the author by the first word of the display name, or Author', () => {
    expect(firstName('Ursula K. Le Guin')).toBe('Ursula');
    expect(firstName('  Terry   Pratchett ')).toBe('Terry');
    expect(firstName('')).toBe('Author');
    expect(firstName('   ')).toBe('Author');
    expect(firstName(null)).toBe('Author');
    expect(welcomeBack('Robin Hobb')).toBe('Welcome back, Robin');
    expect(welcomeBack(undefined)).toBe('Welcome back, Author');
  });
});

describe('last saved (001 §2)', () => {
  const now = new Date('2025-03-10T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const S = 1000;
  const M = 60 * S;
  const H = 60 * M;

  it('says Never saved before the first save', () => {
    expect(lastSavedText(null, now)).toBe('Never saved');
  });

  it('says Just now under a minute, and for a clock that runs ahead', () => {
    expect(lastSavedText(ago(0), now)).toBe('Just now');
    expect(lastSavedText(ago(59 * S), now)).toBe('Just now');
    expect(lastSavedText(ago(59_999), now)).toBe('Just now');
    expect(lastSavedText(ago(-5 * S), now)).toBe('Just now');
  });

  it('counts minutes from 1 to 59', () => {
    expect(lastSavedText(ago(M), now)).toBe('1 minute ago');
    expect(lastSavedText(ago(2 * M - 1), now)).toBe('1 minute ago');
    expect(lastSavedText(ago(2 * M), now)).toBe('2 minutes ago');
    expect(lastSavedText(ago(59 * M + 59 * S), now)).toBe('59 minutes ago');
  });

  it('counts hours from 1 to 23', () => {
    expect(lastSavedText(ago(60 * M), now)).toBe('1 hour ago');
    expect(lastSavedText(ago(2 * H - 1), now)).toBe('1 hour ago');
    expect(lastSavedText(ago(2 * H), now)).toBe('2 hours ago');
    expect(lastSavedText(ago(24 * H - 1), now)).toBe('23 hours ago');
  });

  it('shows the full date and time from 24 hours on', () => {
    // ICU versions differ on the space before AM/PM (U+0020 or U+202F), so spaces are normalised.
    const text = (...args: Parameters<typeof lastSavedText>) => lastSavedText(...args).replace(/\s/gu, ' ');
    expect(text(ago(24 * H), now, 'en-US', 'UTC')).toBe('March 9, 2025 at 12:00 PM');
    expect(text(ago(30 * 24 * H), now, 'en-US', 'UTC')).toBe('February 8, 2025 at 12:00 PM');
    expect(text(new Date('2024-12-25T08:05:00Z'), now, 'en-GB', 'UTC')).toBe('25 December 2024 at 08:05');
    expect(text(new Date('2024-12-25T08:05:00Z'), now, 'en-US', 'America/New_York')).toBe('December 25, 2024 at 3:05 AM');
  });
});
