/**
 * Emphasis is not writing (docs/decisions/0009-chapter-markup.md): toggling italic or bold changes
 * the text's markers, never its visible words, so a save of only that records no words added or
 * removed and the stored count stays chapterWordCount.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toggleEmphasis } from '../markup/toggle.ts';
import { chapterWordCount } from '../word-count.ts';
import { classifyEdit, editedWordCount } from './counting.ts';

function toggled(text: string, from: number, to: number, mark: 'italic' | 'bold'): string {
  const edit = toggleEmphasis(text, from, to, mark);
  return text.slice(0, edit.from) + edit.insert + text.slice(edit.to);
}

describe('emphasis and writing statistics', () => {
  it('counts italicising a word, part of a word or a whole paragraph as no words written or removed', () => {
    const text = 'She was unbelievable, and the ship Argo left.\n\nA second paragraph.';
    const italicWord = toggled(text, text.indexOf('Argo') + 1, text.indexOf('Argo') + 1, 'italic');
    expect(italicWord).toContain('*Argo*');
    expect(classifyEdit(text, italicWord, 'writing')).toMatchObject({ added: 0, removed: 0, counted: 0 });

    const start = text.indexOf('believ');
    const inside = toggled(text, start, start + 'believ'.length, 'bold');
    expect(inside).toContain('un**believ**able');
    expect(classifyEdit(text, inside, 'writing')).toMatchObject({ added: 0, removed: 0, counted: 0 });

    const whole = toggled(inside, 0, inside.length, 'italic');
    expect(classifyEdit(inside, whole, 'writing')).toMatchObject({ added: 0, removed: 0 });
    expect(classifyEdit(whole, text, 'writing')).toMatchObject({ added: 0, removed: 0 });
  });

  it('still counts words typed inside emphasis', () => {
    expect(classifyEdit('The *ship* left.', 'The *silver ship* left.', 'writing')).toMatchObject({ added: 1, removed: 0, counted: 1 });
  });

  it('keeps the edited count equal to chapterWordCount through any toggles', () => {
    const word = fc.constantFrom('un', 'believ', 'able', 'ship', 'a*b', 'x', '\\*', 'Go!');
    const line = fc.array(word, { minLength: 1, maxLength: 8 }).map((w) => w.join(' '));
    const text = fc.array(line, { minLength: 1, maxLength: 4 }).map((l) => l.join('\n'));
    const toggle = fc.tuple(fc.nat(), fc.nat(), fc.constantFrom('italic' as const, 'bold' as const));
    fc.assert(
      fc.property(text, fc.array(toggle, { maxLength: 5 }), (start, toggles) => {
        let current = start;
        let count = chapterWordCount(current);
        for (const [a, b, mark] of toggles) {
          const next = toggled(current, a % (current.length + 1), b % (current.length + 1), mark);
          count = editedWordCount({ content: current, wordCount: count }, next);
          expect(count).toBe(chapterWordCount(next));
          current = next;
        }
        expect(count).toBe(chapterWordCount(start));
      }),
      { numRuns: 300 },
    );
  });
});
