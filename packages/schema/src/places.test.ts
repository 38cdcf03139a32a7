import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CascadeRow, planDeleteCascade } from './delete-cascade.ts';
import {
  PLACE_MESSAGES,
  type PlaceLink,
  buildPlaceTree,
  nearestLivePlace,
  placeAncestors,
  placeDescendants,
  placeMoveProblem,
  placesInTreeOrder,
} from './places.ts';

type Place = { id: string; parentId: string | null; name: string };

const byName = (a: Place, b: Place) => a.name.localeCompare(b.name);
const mapOf = (places: readonly Place[]) => new Map(places.map((p) => [p.id, p]));
const place = (id: string, parentId: string | null = null): Place => ({ id, parentId, name: id });

/** Every place reached once from the roots, and each under the parent its row names when it can be. */
function expectSoundTree(places: readonly Place[]) {
  const tree = buildPlaceTree(places, byName);
  const order = placesInTreeOrder(tree).map((n) => n.place.id);
  expect(order).toHaveLength(places.length);
  expect(new Set(order).size).toBe(places.length);
  return tree;
}

describe('a move', () => {
  // Earthsea > Archipelago > Roke > School; Kargad apart.
  const world = [place('earthsea'), place('archipelago', 'earthsea'), place('roke', 'archipelago'), place('school', 'roke'), place('kargad')];
  const byId = mapOf(world);

  it('into any place but itself and what is inside it is allowed, as is the top level', () => {
    expect(placeMoveProblem(byId, 'roke', 'kargad')).toBeNull();
    expect(placeMoveProblem(byId, 'roke', 'earthsea')).toBeNull();
    expect(placeMoveProblem(byId, 'roke', null)).toBeNull();
    expect(placeMoveProblem(byId, 'kargad', 'school')).toBeNull();
  });

  it('into itself or into a place within it is refused with the cycle message', () => {
    expect(placeMoveProblem(byId, 'roke', 'roke')).toBe(PLACE_MESSAGES.cycle);
    expect(placeMoveProblem(byId, 'roke', 'school')).toBe(PLACE_MESSAGES.cycle);
    expect(placeMoveProblem(byId, 'earthsea', 'school')).toBe(PLACE_MESSAGES.cycle);
  });

  it('into a place whose own ancestry already loops is refused, and the check ends', () => {
    const looping = mapOf([place('a', 'b'), place('b', 'a'), place('c')]);
    expect(placeMoveProblem(looping, 'c', 'a')).toBe(PLACE_MESSAGES.cycle);
  });

  it('any sequence of allowed moves keeps the stored tree free of cycles', () => {
    const ids = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6'];
    const move = fc.record({ id: fc.constantFrom(...ids), parentId: fc.option(fc.constantFrom(...ids), { nil: null }) });
    fc.assert(
      fc.property(fc.array(move, { maxLength: 60 }), (moves) => {
        const stored = new Map(ids.map((id) => [id, place(id)]));
        for (const { id, parentId } of moves) {
          if (placeMoveProblem(stored, id, parentId) === null) stored.set(id, { ...stored.get(id)!, parentId });
          const tree = expectSoundTree([...stored.values()]);
          expect(tree.looped.size).toBe(0);
          expect(tree.orphaned.size).toBe(0);
          // Drawn exactly as stored: no place was lifted to the top.
          for (const p of stored.values()) expect(tree.parentOf.get(p.id)).toBe(p.parentId);
        }
      }),
    );
  });
});

describe('the tree a device draws', () => {
  it('nests places under their parents, siblings in the given order, with breadcrumbs and descendants', () => {
    const world = [place('roke', 'archipelago'), place('earthsea'), place('archipelago', 'earthsea'), place('havnor', 'archipelago'), place('school', 'roke')];
    const tree = expectSoundTree(world);
    const byId = mapOf(world);
    expect(placesInTreeOrder(tree).map((n) => `${'  '.repeat(n.depth)}${n.place.id}`)).toEqual([
      'earthsea',
      '  archipelago',
      '    havnor',
      '    roke',
      '      school',
    ]);
    expect(placeAncestors(tree, byId, 'school').map((p) => p.id)).toEqual(['earthsea', 'archipelago', 'roke']);
    expect(placeAncestors(tree, byId, 'earthsea')).toEqual([]);
    expect([...placeDescendants(tree, 'archipelago')].sort()).toEqual(['havnor', 'roke', 'school']);
  });

  it('draws a place whose parent is not here (deleted, not synced yet) at the top level, marked orphaned', () => {
    const tree = expectSoundTree([place('roke', 'gone'), place('school', 'roke')]);
    expect(tree.roots.map((p) => p.id)).toEqual(['roke']);
    expect([...tree.orphaned]).toEqual(['roke']);
  });

  it('reads a row kept from before the field (no parentId) as top level', () => {
    const tree = buildPlaceTree([{ id: 'old', name: 'old' } as unknown as Place], byName);
    expect(tree.roots.map((p) => p.id)).toEqual(['old']);
    expect(tree.orphaned.size).toBe(0);
  });

  it('draws the places of a cycle (two devices moved them into each other) at the top level, never looping', () => {
    // a in b, b in a (merged moves); c inside a stays inside a.
    const tree = expectSoundTree([place('a', 'b'), place('b', 'a'), place('c', 'a'), place('self', 'self')]);
    expect([...tree.looped].sort()).toEqual(['a', 'b', 'self']);
    expect(tree.roots.map((p) => p.id)).toEqual(['a', 'b', 'self']);
    expect(tree.children.get('a')?.map((p) => p.id)).toEqual(['c']);
  });

  it('whatever the rows hold, every place is drawn exactly once and the walk ends', () => {
    const ids = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'];
    const row = (id: string) => fc.option(fc.constantFrom(...ids, 'missing'), { nil: null }).map((parentId) => place(id, parentId));
    fc.assert(
      fc.property(fc.tuple(...ids.map(row)), (rows) => {
        const tree = expectSoundTree(rows);
        const byId = mapOf(rows);
        for (const p of rows) {
          expect(placeAncestors(tree, byId, p.id).map((a) => a.id)).not.toContain(p.id);
          // A looped place is one whose own chain of parents comes back to it.
          let at: string | null = p.parentId;
          const seen = new Set<string>();
          while (at !== null && at !== p.id && !seen.has(at) && byId.has(at)) {
            seen.add(at);
            at = byId.get(at)!.parentId;
          }
          expect(tree.looped.has(p.id)).toBe(at === p.id);
        }
      }),
    );
  });
});

describe('deleting a place', () => {
  const reader = (rows: readonly CascadeRow[]) => ({
    liveWhere: async (_kind: string, field: string, value: string) => rows.filter((r) => r.deletedAt == null && r[field] === value),
  });
  const locations = (places: readonly Place[]) => places.map((p) => ({ ...p, seriesId: 's', deletedAt: null }));

  it('moves the places inside it up to its parent, or to the top level; none is deleted', async () => {
    const rows = locations([place('earthsea'), place('archipelago', 'earthsea'), place('roke', 'archipelago'), place('havnor', 'archipelago'), place('school', 'roke')]);
    const writes = await planDeleteCascade(reader(rows), 'locations', rows[1]!);
    expect(writes).toEqual([
      { op: 'patch', kind: 'locations', id: 'roke', fields: { parentId: 'earthsea' } },
      { op: 'patch', kind: 'locations', id: 'havnor', fields: { parentId: 'earthsea' } },
    ]);
    expect(await planDeleteCascade(reader(rows), 'locations', rows[0]!)).toEqual([
      { op: 'patch', kind: 'locations', id: 'archipelago', fields: { parentId: null } },
    ]);
  });

  it('never makes a place its own parent, even from rows that loop for a moment', async () => {
    const rows = locations([place('a', 'b'), place('b', 'a')]);
    expect(await planDeleteCascade(reader(rows), 'locations', rows[0]!)).toEqual([{ op: 'patch', kind: 'locations', id: 'b', fields: { parentId: null } }]);
  });

  it('any place of any acyclic tree: the rest stay, still acyclic, its children under its parent', async () => {
    const ids = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'];
    // Parents only among earlier places: a forest.
    const forest = fc.tuple(...ids.map((id, i) => (i === 0 ? fc.constant(null) : fc.option(fc.constantFrom(...ids.slice(0, i)), { nil: null })).map((parentId) => place(id, parentId))));
    await fc.assert(
      fc.asyncProperty(forest, fc.constantFrom(...ids), async (places, victim) => {
        const rows = locations(places);
        const deleted = rows.find((r) => r.id === victim)!;
        const writes = await planDeleteCascade(reader(rows), 'locations', deleted);
        expect(writes.every((w) => w.op === 'patch')).toBe(true);
        const after = new Map(places.filter((p) => p.id !== victim).map((p) => [p.id, p]));
        for (const w of writes) if (w.op === 'patch') after.set(w.id, { ...after.get(w.id)!, parentId: w.fields.parentId as string | null });
        for (const p of places) if (p.parentId === victim) expect(after.get(p.id)!.parentId).toBe(deleted.parentId);
        const tree = expectSoundTree([...after.values()]);
        expect(tree.looped.size + tree.orphaned.size).toBe(0);
      }),
    );
  });
});

describe('a parent deleted on another device first', () => {
  const stored = new Map<string, PlaceLink & { deletedAt: string | null }>([
    ['earthsea', { id: 'earthsea', parentId: null, deletedAt: null }],
    ['archipelago', { id: 'archipelago', parentId: 'earthsea', deletedAt: '2026-01-01T00:00:00Z' }],
    ['roke', { id: 'roke', parentId: 'archipelago', deletedAt: '2026-01-02T00:00:00Z' }],
    ['loop', { id: 'loop', parentId: 'loop', deletedAt: '2026-01-02T00:00:00Z' }],
  ]);
  const load = async (id: string) => stored.get(id);

  it('resolves to the nearest live place above it, as its delete moved its children', async () => {
    expect(await nearestLivePlace(load, 'roke')).toBe('earthsea');
    expect(await nearestLivePlace(load, 'earthsea')).toBe('earthsea');
    expect(await nearestLivePlace(load, null)).toBeNull();
    expect(await nearestLivePlace(load, 'unknown')).toBeNull();
    expect(await nearestLivePlace(load, 'loop')).toBeNull();
  });
});
