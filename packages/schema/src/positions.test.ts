import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byPosition, nextPosition, renumbered, requestedOrder } from './positions.ts';

const row = (id: string, position: number, createdAt = '2026-01-01T00:00:00Z') => ({ id, position, createdAt });

describe('positions', () => {
  it('a new row goes after the live ones', () => {
    expect(nextPosition(0)).toBe(1);
    expect(nextPosition(3)).toBe(4);
  });

  it('list order is position, then creation, then id', () => {
    const rows = [row('b', 2), row('z', 1, '2026-01-02T00:00:00Z'), row('a', 1, '2026-01-02T00:00:00Z'), row('c', 1)];
    expect([...rows].sort(byPosition).map((r) => r.id)).toEqual(['c', 'a', 'z', 'b']);
  });

  it('a reorder puts the named rows by sent position (ties in request order), then the unnamed, and drops unknown ids', () => {
    const live = [row('a', 1), row('b', 2), row('c', 3), row('d', 4)];
    const items = [{ id: 'c', position: 1 }, { id: 'gone', position: 2 }, { id: 'a', position: 2 }, { id: 'b', position: 2 }];
    expect(requestedOrder(live, items).map((r) => r.id)).toEqual(['c', 'a', 'b', 'd']);
    expect(requestedOrder(live, [{ id: 'd', position: 1 }, { id: 'd', position: 9 }]).map((r) => r.id)).toEqual(['d', 'a', 'b', 'c']);
  });

  it('renumbering gives 1..n and marks only the rows that move', () => {
    const out = renumbered([row('a', 1), row('c', 3), row('d', 4)]);
    expect(out.map((r) => [r.row.id, r.position, r.changed])).toEqual([
      ['a', 1, false],
      ['c', 2, true],
      ['d', 3, true],
    ]);
  });

  it('any reorder of a group keeps every live row once, at positions 1..n', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 3 }), { maxLength: 12 }),
        fc.array(fc.record({ id: fc.string({ minLength: 1, maxLength: 3 }), position: fc.integer({ min: -3, max: 20 }) }), { maxLength: 12 }),
        (ids, items) => {
          const live = ids.map((id, i) => row(id, i + 1));
          const out = renumbered(requestedOrder(live, items));
          expect(out.map((r) => r.row.id).sort()).toEqual([...ids].sort());
          expect(out.map((r) => r.position)).toEqual(ids.map((_, i) => i + 1));
        },
      ),
      { numRuns: 300 },
    );
  });
});
