import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeChapterText } from '@chronicler/schema';
import { MERGE_PROPERTY, mergeCaseArb } from '@chronicler/schema/testing';
import { changedFields, mergeText, planUpdate, sameValue } from '../../src/sync/merge.ts';

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

// The merge itself (tokens, cases, properties) is tested where it lives:
// packages/schema/src/text-merge/merge.test.ts. Here: the server's use of it.
describe('mergeText', () => {
  it('treats an unknown base as a conflict unless the texts agree', () => {
    expect(mergeText(null, 'a', 'b')).toEqual({ text: 'a', conflict: true });
    expect(mergeText(null, 'a', 'a')).toEqual({ text: 'a', conflict: false });
  });

  it("planUpdate saves the shared merge's text and keeps a copy exactly when it conflicts (same cases as the editor's test)", () => {
    fc.assert(
      fc.property(mergeCaseArb(), ({ base, current, incoming }) => {
        const shared = mergeChapterText(base, current, incoming);
        const plan = planUpdate({
          current: { rev: 7, deletedAt: null, content: current },
          baseRev: 6,
          base: { rev: 6, deletedAt: null, content: base },
          incoming: { content: incoming },
          textField: 'content',
        });
        // Unchanged text is not part of the patch: the stored text stays, as the shared merge says.
        expect(plan.patch.content ?? current).toBe(shared.text);
        expect(plan.status).toBe(shared.conflict === null ? 'merged' : 'conflict');
        expect(plan.conflictCopy).toEqual(shared.conflict === null ? null : { reason: 'conflict' });
      }),
      MERGE_PROPERTY,
    );
  });
});
