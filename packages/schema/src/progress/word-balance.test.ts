import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listWords } from '../rules.ts';
import { wordBalance } from './word-balance.ts';

/** The plain definition: a Map of the words themselves (what wordBalance replaced). */
function mapBalance(before: string[], after: string[]): { added: number; removed: number } {
  const balance = new Map<string, number>();
  for (const word of listWords(before.join('\n'))) balance.set(word, (balance.get(word) ?? 0) - 1);
  for (const word of listWords(after.join('\n'))) balance.set(word, (balance.get(word) ?? 0) + 1);
  let added = 0;
  let removed = 0;
  for (const n of balance.values()) {
    if (n > 0) added += n;
    else removed -= n;
  }
  return { added, removed };
}

describe('wordBalance', () => {
  it('counts words the second run has more of as added and fewer of as removed', () => {
    expect(wordBalance(['The cat sat.'], ['The black cat', 'sat down.'])).toEqual({ added: 2, removed: 0 });
    expect(wordBalance(['a a a b'], ['a b b'])).toEqual({ added: 1, removed: 2 });
    expect(wordBalance([], [])).toEqual({ added: 0, removed: 0 });
    expect(wordBalance(['', '  —  '], ['…'])).toEqual({ added: 0, removed: 0 });
  });

  it('tells words apart by every character, whatever their hashes (case, accents, astral letters)', () => {
    expect(wordBalance(['Word word WORD'], ['word word word'])).toEqual({ added: 2, removed: 2 });
    expect(wordBalance(['café cafe'], ['cafe cafe'])).toEqual({ added: 1, removed: 1 });
    expect(wordBalance(['𝒜b'], ['𝒜c 𝒜b'])).toEqual({ added: 1, removed: 0 });
    // Words with the same 32-bit FNV-1a hash are still different words.
    expect(wordBalance(['costarring declinate'], ['liquid macallums'])).toEqual({ added: 2, removed: 2 });
  });

  it('answers what a Map of the words answers, for any lines (and after any earlier, larger call)', () => {
    const word = fc.constantFrom('a', 'b', 'ab', 'ba', 'dog', 'Dog', "it's", 'é', 'e', '𝒜', 'x1', 'longerword', 'longerwore');
    const line = fc.array(fc.oneof(word, fc.constantFrom(' ', '—', '.', ', ')), { maxLength: 30 }).map((p) => p.join(' '));
    const lines = fc.array(line, { maxLength: 8 });
    fc.assert(
      fc.property(lines, lines, fc.boolean(), (before, after, bigFirst) => {
        // A large call first grows the tables; a later small one must not see its leftovers.
        if (bigFirst) wordBalance([Array.from({ length: 3000 }, (_, i) => `w${i}`).join(' ')], []);
        expect(wordBalance(before, after)).toEqual(mapBalance(before, after));
      }),
      { numRuns: 1000 },
    );
  });

  it('counts a long edit exactly (many distinct words, tables grown)', () => {
    const before = Array.from({ length: 200 }, (_, p) => Array.from({ length: 60 }, (_, w) => `w${(p * 60 + w) % 9000}`).join(' '));
    const after = before.map((l, i) => (i % 3 === 0 ? `${l} extra${i}` : l.replace(/w1\d\b/g, 'replaced')));
    expect(wordBalance(before, after)).toEqual(mapBalance(before, after));
    // The grown tables are given back, and a small edit after it is still counted right.
    expect(wordBalance(['a b'], ['a c c'])).toEqual({ added: 2, removed: 1 });
  });
});
