import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wordsOf } from './text.ts';
import { scanWords } from './tokens.ts';

/** scanWords as a list of words, to hold against wordsOf. */
function scanned(text: string) {
  const t = scanWords(text);
  const out = [];
  for (let i = 0; i < t.count; i++) out.push({ word: text.slice(t.starts[i], t.ends[i]), key: t.keys[t.ids[i]!]!, start: t.starts[i]!, end: t.ends[i]! });
  // One id per distinct lower case.
  expect(new Set(t.keys).size).toBe(t.keys.length);
  return out;
}

describe('the analysis word table (scanWords)', () => {
  it('has the words of wordsOf, with the ids of their lower case, in any Unicode at all', () => {
    const pieces = fc.oneof(
      fc.constantFrom("'", '’', "''", "'’", 'a', 'A', 'É', 'é', 'ß', 'İ', 'K', 'k', 'Ǆ', 'ǅ', '9', '٣', 'Ⅻ', '\u0301', '😀', '𝒜', '\ud800', '\udc00', ' ', '-', '_', 'Was', 'was', 'WAS', "don't", 'DON’T'),
      fc.string({ unit: 'grapheme', maxLength: 3 }),
      fc.string({ unit: 'binary', maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 60 }).map((p) => p.join('')), (text) => {
        expect(scanned(text)).toEqual(wordsOf(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('grows past its first guess of the number of words and of distinct words', () => {
    // 2,000 distinct words, then 20,000 one-letter ones: more words than a quarter of the characters.
    const distinct = Array.from({ length: 2000 }, (_, i) => (i % 2 ? `W${i}` : `w${i}`));
    const text = [...distinct, ...Array.from({ length: 20_000 }, (_, i) => String.fromCharCode(97 + (i % 26)))].join(' ');
    expect(text.length / 4 + 16).toBeLessThan(22_000);
    const words = scanned(text);
    expect(words).toEqual(wordsOf(text));
    expect(new Set(words.map((w) => w.key)).size).toBe(2026);
  });
});
