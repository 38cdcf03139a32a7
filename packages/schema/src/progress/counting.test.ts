import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countWords } from '../rules.ts';
import { PASTE_THRESHOLD_WORDS, classifyEdit, editedWordCount, wordDelta } from './counting.ts';

const words = (n: number, w = 'word') => Array.from({ length: n }, (_, i) => `${w}${i}`).join(' ');

describe('wordDelta', () => {
  it('counts typed words as added and deleted words as removed (gross and net)', () => {
    expect(wordDelta('The cat sat.', 'The black cat sat down.')).toEqual({ added: 2, removed: 0 });
    expect(wordDelta('The black cat sat down.', 'The cat sat.')).toEqual({ added: 0, removed: 2 });
    // Rewriting a word is one removed and one added: written 1, net 0.
    expect(wordDelta('The cat sat.', 'The dog sat.')).toEqual({ added: 1, removed: 1 });
  });

  it('uses the word rule (a contraction is one word, a dash none)', () => {
    expect(wordDelta('', "don't stop")).toEqual({ added: 2, removed: 0 });
    expect(wordDelta('Hello', 'Hello — world!')).toEqual({ added: 1, removed: 0 });
  });

  it('added − removed is always the change of the word count', () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'c', 'dog', "it's", '—', ' ', '\n', '.', 'x y'), { maxLength: 40 }).map((p) => p.join(' '));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const d = wordDelta(before, after);
        expect(d.added).toBeGreaterThanOrEqual(0);
        expect(d.removed).toBeGreaterThanOrEqual(0);
        expect(d.added - d.removed).toBe(countWords(after) - countWords(before));
      }),
      { numRuns: 300 },
    );
  });

  it('two paragraphs changed far apart count only those paragraphs, whatever lies between', () => {
    const paragraphs = Array.from({ length: 40 }, (_, i) => Array.from({ length: 25 }, () => `word${i}`).join(' '));
    const before = paragraphs.map((p, i) => (i === 3 ? 'alpha beta gamma' : p)).join('\n\n');
    const after = paragraphs.map((p, i) => (i === 30 ? 'delta epsilon' : p)).join('\n\n');
    expect(wordDelta(before, after)).toEqual({ added: 27, removed: 28 });
  });

  it('typing in the middle of a long chapter counts only the typed words', () => {
    const head = words(5000, 'h');
    const tail = words(5000, 't');
    expect(wordDelta(`${head}\n${tail}`, `${head} and then it rained\n${tail}`)).toEqual({ added: 4, removed: 0 });
  });
});

describe('classifyEdit', () => {
  it('counts writing; restore, conflict accepts, imports and companion insertions are recorded but not counted', () => {
    expect(classifyEdit('a', 'a b c', 'writing')).toMatchObject({ added: 2, counted: 2, pasted: false });
    for (const kind of ['restore', 'conflict-accept', 'import', 'companion'] as const) {
      expect(classifyEdit('a', 'a b c', kind)).toMatchObject({ added: 2, removed: 0, counted: 0, pasted: false, kind });
    }
  });

  it('flags a paste above the threshold and does not count it', () => {
    expect(classifyEdit('', words(PASTE_THRESHOLD_WORDS), 'writing')).toMatchObject({ pasted: false, counted: PASTE_THRESHOLD_WORDS });
    expect(classifyEdit('', words(PASTE_THRESHOLD_WORDS + 1), 'writing')).toMatchObject({ pasted: true, counted: 0, added: PASTE_THRESHOLD_WORDS + 1 });
  });
});

describe('editedWordCount', () => {
  it('is the editor count of the edited text, from the previous count and the edit (and classifyEdit agrees after it)', () => {
    const piece = fc.constantFrom('word', 'don’t', 'well-known', '—', ' ', '\n', '\n\n', '…', 'Ünïcödé', '😀', '.', 'a', 'b', 'dog');
    const text = fc.array(piece, { maxLength: 120 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const previous = { content: before, wordCount: countWords(before) };
        expect(editedWordCount(previous, after)).toBe(countWords(after));
        // The save's second comparison of the same texts answers the same delta.
        const edit = classifyEdit(before, after, 'writing');
        expect(edit.added - edit.removed).toBe(countWords(after) - countWords(before));
        expect(wordDelta(before, after)).toEqual({ added: edit.added, removed: edit.removed });
      }),
      { numRuns: 500 },
    );
  });

  it('a title-only update keeps the stored count without comparing', () => {
    expect(editedWordCount({ content: 'one two three', wordCount: 3 }, 'one two three')).toBe(3);
  });
});
