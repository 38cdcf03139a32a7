import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WORD_PATTERN } from './text.ts';
import { type SpanList, scanWords } from './tokens.ts';

const listed = (text: string, spans: SpanList, keys: readonly string[]) => {
  const out = [];
  for (let i = 0; i < spans.count; i++) out.push({ word: text.slice(spans.starts[i], spans.ends[i]), key: keys[spans.ids[i]!]!, start: spans.starts[i]!, end: spans.ends[i]! });
  return out;
};

/** scanWords's two lists, to hold against the regular expressions they implement. */
function scanned(text: string) {
  const { words, runs, keys } = scanWords(text);
  // One id per distinct lower case.
  expect(new Set(keys).size).toBe(keys.length);
  return { words: listed(text, words, keys), runs: listed(text, runs, keys) };
}

/** The oracle of the words: the word pattern's matches, with their lower case. */
const wordsByPattern = (text: string) =>
  [...text.matchAll(new RegExp(WORD_PATTERN))].map((m) => ({ word: m[0], key: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }));

/** The oracle of the runs: /\w+/g, without the runs of underscores only. */
const runsOf = (text: string) =>
  [...text.matchAll(/\w+/g)].filter((m) => /[^_]/.test(m[0])).map((m) => ({ word: m[0], key: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }));

describe('the analysis word scan (scanWords)', () => {
  it('has the words of the word pattern and the \\w runs, with the ids of their lower case, in any Unicode at all', () => {
    const pieces = fc.oneof(
      fc.constantFrom("'", '’', "''", "'’", 'a', 'A', 'É', 'é', 'ß', 'İ', 'K', 'k', 'Ǆ', 'ǅ', '9', '٣', 'Ⅻ', '\u0301', '😀', '𝒜', '\ud800', '\udc00', ' ', '-', '_', '__', 'Was', 'was', 'WAS', "don't", 'DON’T', 'a_b', 'naïve'),
      fc.string({ unit: 'grapheme', maxLength: 3 }),
      fc.string({ unit: 'binary', maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 60 }).map((p) => p.join('')), (text) => {
        const { words, runs } = scanned(text);
        expect(words).toEqual(wordsByPattern(text));
        expect(runs).toEqual(runsOf(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('grows past its first guess of the number of words and of distinct words', () => {
    // 2,000 distinct words, then 20,000 one-letter ones: more words than a quarter of the characters.
    const distinct = Array.from({ length: 2000 }, (_, i) => (i % 2 ? `W${i}` : `w${i}`));
    const text = [...distinct, ...Array.from({ length: 20_000 }, (_, i) => String.fromCharCode(97 + (i % 26)))].join(' ');
    expect(text.length / 4 + 16).toBeLessThan(22_000);
    const { words, runs } = scanned(text);
    expect(words).toEqual(wordsByPattern(text));
    expect(runs).toEqual(runsOf(text));
    expect(new Set(words.map((w) => w.key)).size).toBe(2026);
  });
});
