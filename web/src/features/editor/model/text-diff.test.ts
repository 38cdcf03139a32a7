import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compareTexts, threeWayMerge, unionMerge } from './text-diff';
import { mergeChapterText } from '@chronicler/schema';
import { MERGE_PROPERTY, mergeCaseArb } from '@chronicler/schema/testing';

const lines = (...xs: string[]) => xs.join('\n');

describe('compareTexts', () => {
  it('says identical texts are identical', () => {
    const c = compareTexts('One.\nTwo.', 'One.\nTwo.');
    expect(c.identical).toBe(true);
    expect(c.changes).toBe(0);
  });

  it('marks the changed words inside a changed paragraph, keeping the rest as context', () => {
    const left = lines('Intro.', '', 'The cat sat on the mat.', '', 'Outro.');
    const right = lines('Intro.', '', 'The dog sat on the mat.', '', 'Outro.');
    const c = compareTexts(left, right);
    expect(c.changes).toBe(1);
    const changed = c.rows.find((r) => r.type === 'changed');
    expect(changed?.type).toBe('changed');
    if (changed?.type !== 'changed') return;
    expect(changed.left.filter((p) => p.kind === 'removed').map((p) => p.text.trim())).toEqual(['cat']);
    expect(changed.right.filter((p) => p.kind === 'added').map((p) => p.text.trim())).toEqual(['dog']);
    expect(changed.left.map((p) => p.text).join('')).toBe('The cat sat on the mat.');
  });

  it('folds long unchanged runs and counts the written paragraphs in them', () => {
    const body = Array.from({ length: 20 }, (_, i) => `Paragraph ${i}.`);
    const left = lines(...body, 'The end.');
    const right = lines(...body, 'The very end.');
    const c = compareTexts(left, right);
    const fold = c.rows.find((r) => r.type === 'fold');
    expect(fold).toEqual({ type: 'fold', count: 19 });
    // The paragraph right before the change stays visible.
    expect(c.rows.some((r) => r.type === 'same' && r.paragraphs.includes('Paragraph 19.'))).toBe(true);
  });
});

describe('compareTexts: invisible differences', () => {
  const changedText = (left: string, right: string) =>
    compareTexts(left, right)
      .rows.flatMap((r) => (r.type === 'changed' ? [...r.left, ...r.right] : []))
      .map((p) => p.text)
      .join('');

  it('a paragraph added after one that ended in a space marks only the new paragraph', () => {
    const revision = lines('Intro.', '', 'He left. ');
    const current = lines('Intro.', '', 'He left.', '', 'She stayed.');
    const c = compareTexts(current, revision);
    expect(c.changes).toBe(1);
    expect(changedText(current, revision).trim()).toBe('She stayed.');
    expect(c.rows[0]).toEqual({ type: 'same', paragraphs: ['Intro.', '', 'He left.'] });
  });

  it('the last paragraph with or without its line break is the same paragraph', () => {
    const c = compareTexts(lines('A.', '', 'B.', ''), lines('A.', '', 'B.'));
    expect(c).toMatchObject({ changes: 0, identical: false, spacingOnly: true });
    expect(compareTexts('A.\r\nB.', 'A.\nB.')).toMatchObject({ changes: 0, spacingOnly: true });
  });

  it('appending paragraphs changes one passage holding only them, whatever spaces end the lines (property)', () => {
    const paragraph = fc.constantFrom('Alpha.', 'Beta gamma.', 'Delta', '');
    const ending = fc.constantFrom('', ' ', '  ', '\t');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(paragraph, ending, ending), { minLength: 1, maxLength: 8 }),
        fc.array(fc.constantFrom('New one.', 'And another.'), { minLength: 1, maxLength: 3 }),
        fc.constantFrom('', '\n', '\n\n'),
        (base, added, tail) => {
          fc.pre(base.some(([p]) => p !== ''));
          const before = base.map(([p, end]) => p + end).join('\n');
          const after = [...base.map(([p, , end]) => p + end), '', ...added].join('\n') + tail;
          const c = compareTexts(after, before);
          expect(c.changes).toBe(1);
          expect(changedText(after, before).split('\n').filter((p) => p.trim() !== '')).toEqual(added);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('unionMerge', () => {
  it('keeps shared paragraphs once and both versions of a changed one', () => {
    const mine = lines('A.', 'Mine B.', 'C.');
    const theirs = lines('A.', 'Their B.', 'C.');
    expect(unionMerge(mine, theirs)).toBe(lines('A.', 'Mine B.', 'Their B.', 'C.'));
  });

  it('never loses a paragraph of either version', () => {
    const paragraph = fc.constantFrom('Alpha.', 'Beta.', 'Gamma.', 'Delta.', 'Epsilon.', '');
    fc.assert(
      fc.property(fc.array(paragraph, { maxLength: 12 }), fc.array(paragraph, { maxLength: 12 }), (a, b) => {
        const merged = unionMerge(a.join('\n'), b.join('\n')).split('\n');
        const count = (xs: string[], x: string) => xs.filter((y) => y === x).length;
        for (const p of new Set([...a, ...b])) {
          expect(count(merged, p)).toBeGreaterThanOrEqual(Math.max(count(a, p), count(b, p)));
        }
      }),
    );
  });
});

describe('threeWayMerge', () => {
  const base = lines('One.', 'Two.', 'Three.', 'Four.');

  it('combines edits to different paragraphs', () => {
    const mine = lines('One!', 'Two.', 'Three.', 'Four.');
    const theirs = lines('One.', 'Two.', 'Three.', 'Four!', 'Five.');
    expect(threeWayMerge(base, mine, theirs)).toEqual({ clean: true, text: lines('One!', 'Two.', 'Three.', 'Four!', 'Five.') });
  });

  it('conflicts when both changed the same paragraph differently', () => {
    expect(threeWayMerge(base, lines('One.', 'Two A.', 'Three.', 'Four.'), lines('One.', 'Two B.', 'Three.', 'Four.'))).toEqual({ clean: false });
  });

  it('accepts the same edit made on both sides', () => {
    const both = lines('One.', 'Two!', 'Three.', 'Four.');
    expect(threeWayMerge(base, both, both)).toEqual({ clean: true, text: both });
  });

  it('conflicts when both inserted at the same place', () => {
    expect(threeWayMerge(base, lines('One.', 'X.', 'Two.', 'Three.', 'Four.'), lines('One.', 'Y.', 'Two.', 'Three.', 'Four.'))).toEqual({ clean: false });
  });

  it('a clean merge contains every paragraph either side added', () => {
    const word = fc.constantFrom('a', 'b', 'c', 'd', 'e');
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 8 }), fc.nat(), fc.nat(), (baseWords, i, j) => {
        const b = baseWords.map((w, k) => `${w}${k}`);
        const mine = [...b];
        const theirs = [...b];
        mine.splice(i % (b.length + 1), 0, 'MINE');
        theirs.splice(j % (b.length + 1), 0, 'THEIRS');
        const result = threeWayMerge(b.join('\n'), mine.join('\n'), theirs.join('\n'));
        if (result.clean) {
          const out = result.text.split('\n');
          expect(out).toContain('MINE');
          expect(out).toContain('THEIRS');
          for (const p of b) expect(out).toContain(p);
        } else {
          expect(i % (b.length + 1)).toBe(j % (b.length + 1));
        }
      }),
    );
  });

  it("gives the server's answer: the shared merge with the server's current text as `theirs` (same cases as the server's test)", () => {
    fc.assert(
      fc.property(mergeCaseArb(), ({ base, current, incoming }) => {
        const shared = mergeChapterText(base, current, incoming);
        const editor = threeWayMerge(base, incoming, current);
        expect(editor.clean).toBe(shared.conflict === null);
        if (editor.clean) expect(editor.text).toBe(shared.text);
      }),
      MERGE_PROPERTY,
    );
  });
});
