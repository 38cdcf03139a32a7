import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WORD_PATTERN, paragraphsOf, sentencesOf, wordsOf } from './text.ts';

/** Prose-like text: words, apostrophes, quotes, sentence marks, abbreviations and line breaks. */
const prose = fc
  .array(
    fc.oneof(
      fc.constantFrom('the', 'keeper', 'don’t', "it's", 'Mr.', 'e.g.', 'sea', '42', 'Ωmega', 'naïve'),
      fc.constantFrom(' ', ' ', '  ', '\n', '\n\n', '. ', '! ', '? ', '… ', '," ', ' “', '” ', "'", '’', '-', '—', '.\n', '(', ') '),
    ),
    { maxLength: 80 },
  )
  .map((parts) => parts.join(''));

describe('sentences and paragraphs', () => {
  it('count the words a scan of their own text finds, from one scan of the whole text', () => {
    fc.assert(
      fc.property(prose, (text) => {
        for (const s of sentencesOf(text)) expect(s.words).toBe(wordsOf(text.slice(s.start, s.end)).length);
        for (const p of paragraphsOf(text)) expect(p.words).toBe(wordsOf(text.slice(p.start, p.end)).length);
        // No words are lost between the spans: every word lies in a paragraph.
        expect(paragraphsOf(text).reduce((n, p) => n + p.words, 0)).toBe(wordsOf(text).length);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('words', () => {
  /** The pattern's own matches: the scanner's oracle. */
  const byPattern = (text: string) => [...text.matchAll(new RegExp(WORD_PATTERN))].map((m) => ({ word: m[0], start: m.index, end: m.index + m[0].length }));
  const scanned = (text: string) =>
    wordsOf(text).map(({ word, key, start, end }) => {
      expect(key).toBe(word.toLowerCase());
      return { word, start, end };
    });

  it('are the matches of the word pattern, in prose and in any Unicode at all', () => {
    const pieces = fc.oneof(
      fc.constantFrom("'", '’', "''", "'’", 'a', 'É', 'ß', '9', '٣', 'Ⅻ', '\u0301', '😀', '𝒜', '\ud800', '\udc00', ' ', '-', '_'),
      fc.string({ unit: 'grapheme', maxLength: 3 }),
      fc.string({ unit: 'binary', maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.oneof(prose, fc.array(pieces, { maxLength: 40 }).map((p) => p.join(''))), (text) => {
        expect(scanned(text)).toEqual(byPattern(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('keep their place in a larger text and their lower case', () => {
    expect(wordsOf("Don't STOP", 10)).toEqual([
      { word: "Don't", key: "don't", start: 10, end: 15 },
      { word: 'STOP', key: 'stop', start: 16, end: 20 },
    ]);
  });
});
