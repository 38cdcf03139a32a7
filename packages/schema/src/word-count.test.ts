import v8 from 'node:v8';
import vm from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countWords } from './rules.ts';
import { chapterWordCount } from './word-count.ts';

describe('chapterWordCount', () => {
  it('equals the editor count of the whole text, for any text, remembered lines or not', () => {
    const piece = fc.constantFrom('word', 'don’t', 'well-known', '—', ' ', '\n', '\n\n', '\r\n', '…', 'Ünïcödé', '日本語', '😀', '  ', '.', "it's", '\t');
    const text = fc.array(piece, { maxLength: 200 }).map((parts) => parts.join(''));
    const long = fc.array(fc.constantFrom('A long paragraph, with words — and punctuation: many of them! ', '\n'), { maxLength: 40 }).map((p) => p.join(''));
    fc.assert(
      fc.property(fc.oneof(text, long), (t) => {
        expect(chapterWordCount(t)).toBe(countWords(t));
        expect(chapterWordCount(t)).toBe(countWords(t)); // again, from remembered lines
      }),
      { numRuns: 500 },
    );
  });
});

describe('chapterWordCount memory', () => {
  it('remembers lines without keeping the texts they came from alive', () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const paragraph = (save: number, line: number) => `Paragraph ${save}-${line}, with enough words in it to be one of the remembered lines.`;
    // 600 saves of a ~75 KB chapter, each with one new paragraph: the old code kept every one of
    // those texts alive through its remembered line (~20 MB here).
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let save = 0; save < 600; save++) {
      const text = Array.from({ length: 400 }, (_, line) => paragraph(line === 0 ? save : 0, line)).join('\n\n');
      expect(chapterWordCount(text)).toBe(400 * 14); // "${save}-${line}" is one word
    }
    gc();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(5_000_000);
  });
});
