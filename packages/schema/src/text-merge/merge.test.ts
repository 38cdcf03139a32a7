import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chapterArb, mergeCaseArb } from '../testing/merge-arbitraries.ts';
import { WorkMeter, readLines } from './line-diff.ts';
import { TEXT_MERGE_BUDGET, mergeChapterText } from './merge.ts';

/** Written paragraphs of a text (line ends and blank lines are not paragraphs). */
const paragraphsOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line.trim() !== '');

describe('lines as tokens', () => {
  it('round-trips any text, line ends and blank lines included', () => {
    const meter = new WorkMeter(Infinity);
    expect(readLines('One.\n\nTwo.\nThree.', meter)).toEqual(['One.', '', 'Two.', 'Three.']);
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '\n', '\r', 'é', '—') }), (text) => readLines(text, meter).join('\n') === text));
  });
});

describe('mergeChapterText', () => {
  const base = 'The ship left at dawn.\n\nRain fell on the deck.\n\nShe said nothing.';

  it('merges edits of different paragraphs cleanly', () => {
    const current = base.replace('dawn', 'first light');
    const incoming = base.replace('nothing', 'everything');
    expect(mergeChapterText(base, current, incoming)).toMatchObject({
      text: 'The ship left at first light.\n\nRain fell on the deck.\n\nShe said everything.',
      conflict: null,
    });
  });

  it('merges edits of adjacent lines cleanly, and a paragraph added next to one the other edited', () => {
    expect(mergeChapterText('A\nB', "A'\nB", "A\nB'")).toMatchObject({ text: "A'\nB'", conflict: null });
    expect(mergeChapterText('A\n\nB', 'A\n\nNew\n\nB', "A\n\nB'")).toMatchObject({ text: "A\n\nNew\n\nB'", conflict: null });
    expect(mergeChapterText('A\n\nB', 'New\n\nA\n\nB', "A'\n\nB")).toMatchObject({ text: "New\n\nA'\n\nB", conflict: null });
  });

  it('keeps the current text where both changed the same paragraph, and merges the rest', () => {
    const current = base.replace('Rain fell', 'Snow fell');
    const incoming = base.replace('Rain fell', 'Hail fell').replace('dawn', 'noon');
    expect(mergeChapterText(base, current, incoming)).toMatchObject({
      conflict: 'overlap',
      text: 'The ship left at noon.\n\nSnow fell on the deck.\n\nShe said nothing.',
    });
  });

  it('conflicts when both insert different paragraphs at the same place; the same paragraph is taken once', () => {
    expect(mergeChapterText('A\nB', 'A\nX\nB', 'A\nY\nB')).toMatchObject({ conflict: 'overlap', text: 'A\nX\nB' });
    expect(mergeChapterText('A\nB\nC', 'A\nX\nB\nC!', 'A\nX\nB\nC')).toMatchObject({ conflict: null, text: 'A\nX\nB\nC!' });
  });

  it('past its work budget reports a conflict and keeps the current text as it is', () => {
    const lines = Array.from({ length: 400 }, (_, i) => `line ${i}`);
    const current = lines.map((l, i) => (i % 2 ? l : `${l}!`)).join('\n');
    const incoming = lines.map((l, i) => (i % 3 ? l : `${l}?`)).join('\n');
    expect(mergeChapterText(lines.join('\n'), current, incoming, 1_000)).toEqual({ text: current, conflict: 'over-budget', work: 1_000 });
    // A huge text is refused before it is even split (characters are charged first).
    const huge = 'x'.repeat(TEXT_MERGE_BUDGET * 40);
    expect(mergeChapterText(huge, `${huge}a`, `b${huge}`).conflict).toBe('over-budget');
  });

  it('costs near-linear work in the text: 1,000 and 3,000 paragraphs, edits scattered on both sides', () => {
    for (const count of [1_000, 3_000]) {
      const paragraphs = Array.from({ length: count }, (_, i) => `Paragraph ${i} of the chapter, twenty words or so.`);
      const current = paragraphs.map((p, i) => (i % 50 === 0 ? `${p} (mine)` : p)).join('\n\n');
      const incoming = paragraphs.map((p, i) => (i % 50 === 25 ? `${p} (theirs)` : p)).join('\n\n');
      const merged = mergeChapterText(paragraphs.join('\n\n'), current, incoming);
      expect(merged.conflict).toBeNull();
      expect(merged.text.split('(mine)')).toHaveLength(count / 50 + 1);
      expect(merged.text.split('(theirs)')).toHaveLength(count / 50 + 1);
      // 3 texts of 2 lines per paragraph: a few tens of units per paragraph, linear in the count.
      expect(merged.work).toBeLessThan(60 * count);
    }
  });

  it('merges 2,000 identical lines edited at both ends, within the budget', () => {
    const same = Array.from({ length: 2_000 }, () => 'word');
    const merged = mergeChapterText(same.join('\n'), ['top', ...same.slice(1)].join('\n'), [...same.slice(0, -1), 'end'].join('\n'));
    expect(merged).toMatchObject({ conflict: null, text: ['top', ...same.slice(1, -1), 'end'].join('\n') });
    expect(merged.work).toBeLessThan(TEXT_MERGE_BUDGET / 4);
  });
});

describe('mergeChapterText (properties)', () => {
  const cases = fc.oneof(
    mergeCaseArb(),
    fc.record({ base: chapterArb(), current: chapterArb(), incoming: chapterArb() }), // unrelated texts
  );

  it('never loses a paragraph either side wrote: merged text plus, on conflict, the whole incoming text', () => {
    fc.assert(
      fc.property(cases, ({ base, current, incoming }) => {
        const merged = mergeChapterText(base, current, incoming);
        const kept = new Set([...paragraphsOf(merged.text), ...(merged.conflict ? paragraphsOf(incoming) : [])]);
        const inBase = new Set(paragraphsOf(base));
        for (const p of [...paragraphsOf(current), ...paragraphsOf(incoming)]) {
          if (!inBase.has(p) && !kept.has(p)) return false;
        }
        return merged.work <= TEXT_MERGE_BUDGET;
      }),
      { numRuns: 2_000 },
    );
  });

  it('takes one side exactly when the other changed nothing', () => {
    fc.assert(
      fc.property(mergeCaseArb(), ({ base, current }) => {
        expect(mergeChapterText(base, current, base)).toMatchObject({ text: current, conflict: null });
        expect(mergeChapterText(base, base, current)).toMatchObject({ text: current, conflict: null });
      }),
      { numRuns: 1_000 },
    );
  });

  it('merges identical edits cleanly into that text', () => {
    fc.assert(
      fc.property(mergeCaseArb(), ({ base, current }) => {
        expect(mergeChapterText(base, current, current)).toMatchObject({ text: current, conflict: null });
      }),
      { numRuns: 1_000 },
    );
  });

  it('is symmetric: swapping the sides gives the same verdict and, when clean, the same text', () => {
    fc.assert(
      fc.property(mergeCaseArb(), ({ base, current, incoming }) => {
        const one = mergeChapterText(base, current, incoming);
        const other = mergeChapterText(base, incoming, current);
        expect(other.conflict).toBe(one.conflict);
        if (one.conflict === null) expect(other.text).toBe(one.text);
      }),
      { numRuns: 1_000 },
    );
  });

  it('is deterministic in its work: the same inputs count the same units, whatever the budget above them', () => {
    fc.assert(
      fc.property(mergeCaseArb(), ({ base, current, incoming }) => {
        const one = mergeChapterText(base, current, incoming);
        expect(mergeChapterText(base, current, incoming, one.work + 1_000)).toEqual(one);
        if (one.work > 1) expect(mergeChapterText(base, current, incoming, one.work - 1).conflict).toBe('over-budget');
      }),
      { numRuns: 1_000 },
    );
  });
});
