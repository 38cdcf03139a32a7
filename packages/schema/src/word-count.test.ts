import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countWordsEditor } from './rules.ts';
import { chapterWordCount } from './word-count.ts';

describe('chapterWordCount', () => {
  it('equals the editor count of the whole text, for any text, remembered lines or not', () => {
    const piece = fc.constantFrom('word', 'don’t', 'well-known', '—', ' ', '\n', '\n\n', '\r\n', '…', 'Ünïcödé', '日本語', '😀', '  ', '.', "it's", '\t');
    const text = fc.array(piece, { maxLength: 200 }).map((parts) => parts.join(''));
    const long = fc.array(fc.constantFrom('A long paragraph, with words — and punctuation: many of them! ', '\n'), { maxLength: 40 }).map((p) => p.join(''));
    fc.assert(
      fc.property(fc.oneof(text, long), (t) => {
        expect(chapterWordCount(t)).toBe(countWordsEditor(t));
        expect(chapterWordCount(t)).toBe(countWordsEditor(t)); // again, from remembered lines
      }),
      { numRuns: 500 },
    );
  });
});
