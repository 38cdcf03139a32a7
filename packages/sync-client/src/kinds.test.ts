import { SERIES_SCOPED_KINDS, newId } from '@chronicler/schema';
import { describe, expect, it } from 'vitest';
import { WRITABLE, WRITABLE_KINDS, isWritableKind } from './kinds.ts';

describe('the per-kind table of what the device writes', () => {
  it('has an entry for every series-scoped kind but the two the server writes, each under its own kind', () => {
    expect(WRITABLE_KINDS).toEqual(SERIES_SCOPED_KINDS.filter((kind) => kind !== 'chapterConflicts' && kind !== 'aiSuggestions'));
    for (const kind of WRITABLE_KINDS) expect(WRITABLE[kind].kind).toBe(kind);
    expect(isWritableKind('users')).toBe(false);
    expect(isWritableKind('chapterConflicts')).toBe(false);
  });

  it('names each reorder body list the reorder schema parses', () => {
    const id = newId();
    for (const kind of WRITABLE_KINDS) {
      const reorder = WRITABLE[kind].reorder;
      if (!reorder) continue;
      const parsed = reorder.body.safeParse({ [reorder.list]: [{ id, position: 1 }] });
      expect(parsed.success, kind).toBe(true);
    }
    expect(WRITABLE_KINDS.filter((kind) => WRITABLE[kind].reorder)).toEqual(['chapters', 'timelineEvents']);
  });
});
