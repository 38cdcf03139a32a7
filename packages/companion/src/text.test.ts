import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paragraphsOf, sentencesOf, wordsOf } from './text.ts';

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
