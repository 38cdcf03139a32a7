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
  countWords,
  listWords,
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
  it('counts words as word processors do: contractions and compounds are one word, punctuation alone none', () => {
    expect(countWords('')).toBe(0);
    expect(countWords('   \n\t ')).toBe(0);
    expect(countWords('one')).toBe(1);
    expect(countWords("The keeper's lamp")).toBe(3);
    expect(countWords('don’t')).toBe(1);
    expect(countWords('a well-known road')).toBe(3);
    expect(countWords('  The dragon   woke.\nIt was hungry. ')).toBe(6);
    // Dashes between words separate them; a dash alone is no word.
    expect(countWords('wait—what?')).toBe(2);
    expect(countWords("don't stop — now")).toBe(3);
    expect(countWords('1914–1918')).toBe(2);
    expect(countWords('... — !!! *** 🙂')).toBe(0);
    expect(countWords('It cost $5 + tax, 1,000.50 in all')).toBe(7);
    expect(listWords('“Dark,” she said (quietly).')).toEqual(['Dark', 'she', 'said', 'quietly']);
    expect(listWords('e.g. the U.S.A.')).toEqual(['e.g', 'the', 'U.S.A']);
  });

  it('counts each Chinese character and kana as a word, and Korean by its spaced words', () => {
    expect(countWords('我们走吧。')).toBe(4);
    expect(countWords('猫が好きです')).toBe(6);
    expect(countWords('カタカナー')).toBe(5);
    expect(countWords('나는 학생입니다.')).toBe(2);
    expect(listWords('Tokyo東京drift')).toEqual(['Tokyo', '東', '京', 'drift']);
    expect(countWords('السلام عليكم')).toBe(2);
    expect(countWords('Привет, мир!')).toBe(2);
  });

  it('the chapter dialog counts by the same rule', () => {
    for (const text of ["don't stop — now", '我们走吧。', '... !!!', 'a  b\nc']) expect(countWordsDialog(text)).toBe(countWords(text));
  });

  it('finds the words a plain reading of the rule finds, in any text', () => {
    // The rule as regexes, the oracle for the one-scan implementation.
    const ideograph = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30FC]/u;
    const wordCharacter = /[\p{L}\p{N}\p{M}\p{Pc}]/u;
    const oracle = (text: string) =>
      text
        .split(/[\s\u2013\u2014\u2015]+/u)
        .flatMap((piece) => [...piece].reduce<string[]>((parts, c) => (ideograph.test(c) ? [...parts, c, ''] : [...parts.slice(0, -1), (parts.at(-1) ?? '') + c]), ['']))
        .map((piece) => (ideograph.test(piece) ? piece : piece.replace(/^[^\p{L}\p{N}\p{M}\p{Pc}]+|[^\p{L}\p{N}\p{M}\p{Pc}]+$/gu, '')))
        .filter((piece) => piece !== '' && (ideograph.test(piece) || wordCharacter.test(piece)));
    const mixed = fc
      .array(fc.oneof(wordArb, spaceArb, punctArb, fc.constantFrom('東', 'が', 'カ', 'ー', '학', '🙂', '$'), fc.string({ unit: 'binary', maxLength: 6 }), fc.string({ unit: 'grapheme', maxLength: 6 })), { maxLength: 30 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(mixed, anyTextArb), (text) => {
        expect(listWords(text)).toEqual(oracle(text));
        expect(countWords(text)).toBe(oracle(text).length);
      }),
      { numRuns: 3000 },
    );
  });

  it('counts the words joined by whitespace', () => {
    fc.assert(
      fc.property(fc.array(wordArb), spaceArb, (words, sep) => countWords(words.join(sep)) === words.length),
    );
  });

  it('adds up across a whitespace boundary', () => {
    fc.assert(
      fc.property(anyTextArb, anyTextArb, spaceArb, (a, b, s) => countWords(a + s + b) === countWords(a) + countWords(b)),
    );
  });

  it('counts words joined by inner punctuation (not a dash) as one', () => {
    const joiner = fc.constantFrom('.', ',', "'", '’', '-', ':', '/', '…');
    fc.assert(
      fc.property(fc.array(wordArb, { minLength: 1, maxLength: 6 }), joiner, (words, p) => countWords(words.join(p)) === 1 && countWords(words.join('—')) === words.length),
    );
  });

  it('never counts more words than non-space characters', () => {
    fc.assert(
      fc.property(fc.oneof(textArb, anyTextArb), (t) => {
        const visible = t.replace(/\s/gu, '').length;
        return countWords(t) <= visible;
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
