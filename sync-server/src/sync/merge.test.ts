import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changedFields, mergeText, paragraphTokens, planUpdate, sameValue } from './merge.ts';

describe('paragraphTokens', () => {
  it('splits paragraphs from runs of line breaks and round-trips any text', () => {
    expect(paragraphTokens('One.\n\nTwo.\nThree.')).toEqual(['One.', '\n\n', 'Two.', '\n', 'Three.']);
    expect(paragraphTokens('')).toEqual([]);
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '\n', '\r', 'é', '—') }), (text) => paragraphTokens(text).join('') === text));
  });
});

describe('field merge', () => {
  it('counts a field as changed only when it differs from the base; arrays by content', () => {
    const base = { name: 'Ann', bookAppearances: [1, 2], age: '30' };
    expect(changedFields({ name: 'Ann', bookAppearances: [1, 2], age: '31' }, base)).toEqual(['age']);
    expect(changedFields({ name: 'Ann' }, null)).toEqual(['name']);
    expect(sameValue([1, 2], [1, 2])).toBe(true);
    expect(sameValue(null, '')).toBe(false);
  });

  it('keeps the server value of fields the client did not change', () => {
    const base = { rev: 1, deletedAt: null, title: 'T', description: 'D' };
    const current = { ...base, rev: 2, description: 'D (other client)' };
    const plan = planUpdate({ current, baseRev: 1, base, incoming: { title: 'T2', description: 'D' } });
    expect(plan).toEqual({ status: 'merged', patch: { title: 'T2' }, conflictCopy: null });
  });

  it('applies the body as is without a base, and fast-forwards when the base is current', () => {
    const current = { rev: 5, deletedAt: null, title: 'T' };
    expect(planUpdate({ current, baseRev: null, base: null, incoming: { title: 'X' } }).status).toBe('applied');
    expect(planUpdate({ current, baseRev: 5, base: null, incoming: { title: 'X' } })).toEqual({
      status: 'fast-forward',
      patch: { title: 'X' },
      conflictCopy: null,
    });
  });

  it('changes nothing on a deleted row; changed text becomes an edited-after-delete copy', () => {
    const current = { rev: 5, deletedAt: '2026-01-01T00:00:00.000Z', title: 'T', content: 'old' };
    const base = { ...current, rev: 4, deletedAt: null };
    expect(planUpdate({ current, baseRev: 4, base, incoming: { title: 'X' }, textField: 'content' })).toEqual({
      status: 'deleted',
      patch: {},
      conflictCopy: null,
    });
    expect(planUpdate({ current, baseRev: 4, base, incoming: { content: 'new words' }, textField: 'content' }).conflictCopy).toEqual({
      reason: 'edited-after-delete',
    });
    expect(planUpdate({ current, baseRev: 4, base, incoming: { content: 'old' }, textField: 'content' }).conflictCopy).toBeNull();
  });
});

describe('mergeText', () => {
  const base = 'The ship left at dawn.\n\nRain fell on the deck.\n\nShe said nothing.';

  it('merges edits of different paragraphs cleanly', () => {
    const current = base.replace('dawn', 'first light');
    const incoming = base.replace('nothing', 'everything');
    expect(mergeText(base, current, incoming)).toEqual({
      text: 'The ship left at first light.\n\nRain fell on the deck.\n\nShe said everything.',
      conflict: false,
    });
  });

  it('merges edits of adjacent lines cleanly', () => {
    expect(mergeText('A\nB', "A'\nB", "A\nB'")).toEqual({ text: "A'\nB'", conflict: false });
  });

  it('keeps the current text where both changed the same paragraph', () => {
    const current = base.replace('Rain fell', 'Snow fell');
    const incoming = base.replace('Rain fell', 'Hail fell').replace('dawn', 'noon');
    const merged = mergeText(base, current, incoming);
    expect(merged.conflict).toBe(true);
    expect(merged.text).toBe('The ship left at noon.\n\nSnow fell on the deck.\n\nShe said nothing.');
  });

  it('treats an unknown base as a conflict unless the texts agree', () => {
    expect(mergeText(null, 'a', 'b')).toEqual({ text: 'a', conflict: true });
    expect(mergeText(null, 'a', 'a')).toEqual({ text: 'a', conflict: false });
  });

  it('never loses a paragraph either side wrote (property)', () => {
    const paragraph = fc
      .array(fc.constantFrom('sea', 'ship', 'rain', 'she', 'said', 'dawn', 'deck', 'old', 'new', 'light'), { minLength: 1, maxLength: 4 })
      .map((words) => words.join(' '));
    const separator = fc.constantFrom('\n', '\n\n', '\r\n\r\n');
    const text = fc
      .array(fc.tuple(paragraph, separator), { maxLength: 8 })
      .map((parts) => parts.map(([p, s], i) => (i === parts.length - 1 ? p : p + s)).join(''));
    const paragraphsOf = (t: string) => paragraphTokens(t).filter((tok) => tok.trim() !== '');

    fc.assert(
      fc.property(text, text, text, (base, current, incoming) => {
        const merged = mergeText(base, current, incoming);
        // What the author reads afterwards: the saved text plus, on conflict, the copy (the full incoming text).
        const kept = new Set([...paragraphsOf(merged.text), ...(merged.conflict ? paragraphsOf(incoming) : [])]);
        const inBase = new Set(paragraphsOf(base));
        for (const p of [...paragraphsOf(current), ...paragraphsOf(incoming)]) {
          if (!inBase.has(p) && !kept.has(p)) return false;
        }
        // A clean merge that only one side changed is that side's text exactly.
        if (current === base && merged.text !== incoming) return false;
        if (incoming === base && merged.text !== current) return false;
        return true;
      }),
      { numRuns: 2000 },
    );
  });
});
