import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CascadeReader, type CascadeRow, type CascadeWrite, ENTITY_REFERENCES, planDeleteCascade } from './delete-cascade.ts';
import type { EntityKind } from './entities.ts';

type World = Map<EntityKind, CascadeRow[]>;

/** An in-memory store: the cascade's reader over plain rows, counting its lookups. */
function store(world: World): CascadeReader & { lookups: number } {
  const reader = {
    lookups: 0,
    async liveWhere(kind: EntityKind, field: string, value: string) {
      reader.lookups += 1;
      return (world.get(kind) ?? []).filter((r) => r.deletedAt == null && r[field] === value);
    },
  };
  return reader;
}

function worldOf(rows: Array<[EntityKind, CascadeRow]>): World {
  const world: World = new Map();
  for (const [kind, row] of rows) world.set(kind, [...(world.get(kind) ?? []), { deletedAt: null, ...row }]);
  return world;
}

const S = 's1';
const sample = () =>
  worldOf([
    ['series', { id: S }],
    ['books', { id: 'b1', seriesId: S }],
    ['books', { id: 'b2', seriesId: S }],
    ['chapters', { id: 'c1', seriesId: S, bookId: 'b1' }],
    ['chapters', { id: 'c2', seriesId: S, bookId: 'b1' }],
    ['chapters', { id: 'c3', seriesId: S, bookId: 'b2' }],
    ['chapters', { id: 'c0', seriesId: S, bookId: 'b1', deletedAt: '2026-01-01T00:00:00Z' }],
    ['chapterConflicts', { id: 'x1', seriesId: S, chapterId: 'c1' }],
    ['characters', { id: 'ada', seriesId: S }],
    ['characters', { id: 'bo', seriesId: S }],
    ['characterRelationships', { id: 'r1', seriesId: S, sourceCharacterId: 'ada', targetCharacterId: 'bo' }],
    ['characterRelationships', { id: 'r2', seriesId: S, sourceCharacterId: 'bo', targetCharacterId: 'ada' }],
    ['characterRelationships', { id: 'r3', seriesId: S, sourceCharacterId: 'ada', targetCharacterId: 'ada' }],
    ['locations', { id: 'l1', seriesId: S }],
    ['timelineEvents', { id: 'e1', seriesId: S, bookId: 'b1', chapterId: 'c1', locationId: 'l1', characterIds: ['ada', 'bo'] }],
    ['timelineEvents', { id: 'e2', seriesId: S, bookId: 'b2', chapterId: 'c3', locationId: null, characterIds: ['bo'] }],
    ['timelineEvents', { id: 'e3', seriesId: S, bookId: null, chapterId: 'c2', locationId: 'l1', characterIds: [] }],
    ['canonChanges', { id: 'k1', seriesId: S, entityId: 'ada', bookId: 'b1', chapterId: 'c1', locationId: 'l1', timelineEventId: 'e1' }],
    ['canonChanges', { id: 'k2', seriesId: S, entityId: 'r2', bookId: 'b2', chapterId: 'c3', locationId: null, timelineEventId: null }],
    ['canonChanges', { id: 'k3', seriesId: S, entityId: 'l1', bookId: 'b1', chapterId: 'c2', locationId: null, timelineEventId: 'e3' }],
  ]);

const find = (world: World, kind: EntityKind, id: string) => world.get(kind)!.find((r) => r.id === id)!;

describe('the delete cascade table', () => {
  it('a series takes everything under it, kind by kind, and patches nothing (no one is left to patch)', async () => {
    const world = sample();
    const reader = store(world);
    const writes = await planDeleteCascade(reader, 'series', find(world, 'series', S));
    expect(writes.every((w) => w.op === 'delete')).toBe(true);
    expect(writes.map((w) => `${w.kind}:${w.id}`)).toEqual([
      'books:b1', 'books:b2',
      'chapters:c1', 'chapters:c2', 'chapters:c3',
      'characters:ada', 'characters:bo',
      'characterRelationships:r1', 'characterRelationships:r2', 'characterRelationships:r3',
      'locations:l1',
      'timelineEvents:e1', 'timelineEvents:e2', 'timelineEvents:e3',
      'chapterConflicts:x1',
      'canonChanges:k1', 'canonChanges:k2', 'canonChanges:k3',
    ]);
    // One lookup per kind by series (companion suggestions too): everything is gone, so nothing is looked up twice.
    expect(reader.lookups).toBe(10);
  });

  it('a book takes its live chapters, clears its id and theirs from events; conflict copies stay', async () => {
    const world = sample();
    expect(await planDeleteCascade(store(world), 'books', find(world, 'books', 'b1'))).toEqual<CascadeWrite[]>([
      { op: 'delete', kind: 'chapters', id: 'c1' },
      { op: 'delete', kind: 'chapters', id: 'c2' },
      { op: 'patch', kind: 'timelineEvents', id: 'e1', fields: { bookId: null } },
      { op: 'patch', kind: 'timelineEvents', id: 'e1', fields: { chapterId: null } },
      { op: 'patch', kind: 'timelineEvents', id: 'e3', fields: { chapterId: null } },
    ]);
  });

  it('a chapter or a book keeps the canon changes anchored there (they show as unanchored)', async () => {
    const world = sample();
    const writes = await planDeleteCascade(store(world), 'books', find(world, 'books', 'b2'));
    expect(writes.filter((w) => w.kind === 'canonChanges')).toEqual([]);
    expect(writes).toContainEqual({ op: 'delete', kind: 'chapters', id: 'c3' });
  });

  it('a chapter clears itself from events and keeps its conflict copies', async () => {
    const world = sample();
    expect(await planDeleteCascade(store(world), 'chapters', find(world, 'chapters', 'c3'))).toEqual<CascadeWrite[]>([
      { op: 'patch', kind: 'timelineEvents', id: 'e2', fields: { chapterId: null } },
    ]);
    expect(await planDeleteCascade(store(world), 'chapters', find(world, 'chapters', 'c1'))).toEqual<CascadeWrite[]>([
      { op: 'patch', kind: 'timelineEvents', id: 'e1', fields: { chapterId: null } },
    ]);
  });

  it('a location takes its canon changes and is cleared from events and from whereabouts', async () => {
    const world = sample();
    expect(await planDeleteCascade(store(world), 'locations', find(world, 'locations', 'l1'))).toEqual<CascadeWrite[]>([
      { op: 'delete', kind: 'canonChanges', id: 'k3' },
      { op: 'patch', kind: 'timelineEvents', id: 'e1', fields: { locationId: null } },
      { op: 'patch', kind: 'timelineEvents', id: 'e3', fields: { locationId: null } },
      { op: 'patch', kind: 'canonChanges', id: 'k1', fields: { locationId: null } },
    ]);
  });

  it('an event is cleared from the canon changes it records', async () => {
    const world = sample();
    expect(await planDeleteCascade(store(world), 'timelineEvents', find(world, 'timelineEvents', 'e1'))).toEqual<CascadeWrite[]>([
      { op: 'patch', kind: 'canonChanges', id: 'k1', fields: { timelineEventId: null } },
    ]);
  });

  it('a character takes its relationships either way (a self-relationship once), their canon changes and its own, and leaves the events it was in', async () => {
    const world = sample();
    expect(await planDeleteCascade(store(world), 'characters', find(world, 'characters', 'ada'))).toEqual<CascadeWrite[]>([
      { op: 'delete', kind: 'characterRelationships', id: 'r1' },
      { op: 'delete', kind: 'characterRelationships', id: 'r3' },
      { op: 'delete', kind: 'characterRelationships', id: 'r2' },
      { op: 'delete', kind: 'canonChanges', id: 'k1' },
      { op: 'delete', kind: 'canonChanges', id: 'k2' },
      { op: 'patch', kind: 'timelineEvents', id: 'e1', fields: { characterIds: ['bo'] } },
    ]);
  });

  it('relationships without changes, conflict copies and canon changes take nothing with them', async () => {
    const world = sample();
    for (const [kind, id] of [['characterRelationships', 'r1'], ['chapterConflicts', 'x1'], ['canonChanges', 'k1']] as const) {
      expect(await planDeleteCascade(store(world), kind, find(world, kind, id))).toEqual([]);
    }
  });

  it('every kind but the series hangs off a series and goes with it', () => {
    const seriesChildren = ENTITY_REFERENCES.filter((r) => r.to === 'series').map((r) => r.from);
    expect(seriesChildren).toEqual(['books', 'chapters', 'characters', 'characterRelationships', 'locations', 'timelineEvents', 'chapterConflicts', 'aiSuggestions', 'canonChanges', 'worldEntries']);
    expect(ENTITY_REFERENCES.filter((r) => r.to === 'series').every((r) => r.onDelete === 'delete' && r.field === 'seriesId')).toBe(true);
  });
});

// ---- property: after the writes, no live row refers to a deleted one, and nothing more went ----

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

const worldArb = fc
  .record({ books: fc.integer({ min: 1, max: 3 }), chapters: fc.integer({ min: 0, max: 6 }), characters: fc.integer({ min: 1, max: 4 }), locations: fc.integer({ min: 0, max: 3 }) })
  .chain((n) => {
    const books = ids('b', n.books);
    const chars = ids('p', n.characters);
    const locs = ids('l', n.locations);
    const chaptersArb = fc.array(fc.record({ bookId: fc.constantFrom(...books), dead: fc.boolean() }), { maxLength: n.chapters });
    return chaptersArb.chain((chapters) => {
      const chapterIds = chapters.map((_, i) => `c${i}`);
      const maybe = (xs: string[]) => (xs.length ? fc.option(fc.constantFrom(...xs), { nil: null }) : fc.constant(null));
      return fc.record({
        chapters: fc.constant(chapters),
        relationships: fc.array(fc.tuple(fc.constantFrom(...chars), fc.constantFrom(...chars)), { maxLength: 5 }),
        events: fc.array(
          fc.record({ bookId: maybe(books), chapterId: maybe(chapterIds), locationId: maybe(locs), characterIds: fc.subarray(chars) }),
          { maxLength: 6 },
        ),
        conflicts: fc.array(maybe(chapterIds), { maxLength: 3 }),
        // Canon changes of characters, places or relationships (r0..r4 when they exist).
        canon: fc.array(
          fc.record({ entityId: fc.constantFrom(...chars, ...locs, 'r0', 'r1'), bookId: fc.constantFrom(...books), chapterId: maybe(chapterIds), locationId: maybe(locs), timelineEventId: maybe(['e0', 'e1']) }),
          { maxLength: 4 },
        ),
        books: fc.constant(books),
        chars: fc.constant(chars),
        locs: fc.constant(locs),
      });
    });
  })
  .map((w) =>
    worldOf([
      ['series', { id: S }],
      ...w.books.map((id) => ['books', { id, seriesId: S }] as [EntityKind, CascadeRow]),
      ...w.chapters.map((c, i) => ['chapters', { id: `c${i}`, seriesId: S, bookId: c.bookId, deletedAt: c.dead ? 'then' : null }] as [EntityKind, CascadeRow]),
      ...w.chars.map((id) => ['characters', { id, seriesId: S }] as [EntityKind, CascadeRow]),
      ...w.relationships.map(([a, b], i) => ['characterRelationships', { id: `r${i}`, seriesId: S, sourceCharacterId: a, targetCharacterId: b }] as [EntityKind, CascadeRow]),
      ...w.locs.map((id) => ['locations', { id, seriesId: S }] as [EntityKind, CascadeRow]),
      ...w.events.map((e, i) => ['timelineEvents', { id: `e${i}`, seriesId: S, ...e }] as [EntityKind, CascadeRow]),
      ...w.conflicts.filter((c) => c !== null).map((chapterId, i) => ['chapterConflicts', { id: `x${i}`, seriesId: S, chapterId }] as [EntityKind, CascadeRow]),
      ...w.canon.map((k, i) => ['canonChanges', { id: `k${i}`, seriesId: S, ...k }] as [EntityKind, CascadeRow]),
    ]),
  );

function apply(world: World, root: [EntityKind, string], writes: readonly CascadeWrite[]): World {
  const next: World = new Map([...world].map(([k, rows]) => [k, rows.map((r) => ({ ...r }))]));
  const get = (k: EntityKind, id: string) => next.get(k)!.find((r) => r.id === id) as Record<string, unknown>;
  get(root[0], root[1]).deletedAt = 'now';
  for (const w of writes) {
    const row = get(w.kind, w.id);
    if (w.op === 'delete') {
      expect(row.deletedAt).toBeNull(); // each row is deleted once, and only a live one
      row.deletedAt = 'now';
    } else Object.assign(row, w.fields);
  }
  return next;
}

describe('the delete cascade on random worlds', () => {
  it('leaves no live reference to a deleted row (except kept conflict copies) and deletes only dependants', async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, fc.nat(), async (world, pick) => {
        const candidates = [...world].flatMap(([kind, rows]) => rows.filter((r) => r.deletedAt == null).map((r) => [kind, r] as const));
        const [kind, row] = candidates[pick % candidates.length]!;
        const after = apply(world, [kind, row.id], await planDeleteCascade(store(world), kind, row));
        const isDead = (k: EntityKind, id: unknown) => after.get(k)?.find((r) => r.id === id)?.deletedAt === 'now';
        for (const ref of ENTITY_REFERENCES) {
          for (const r of after.get(ref.from) ?? []) {
            if (r.deletedAt != null) continue;
            const value = r[ref.field];
            const dangling = Array.isArray(value) ? value.some((v) => isDead(ref.to, v)) : isDead(ref.to, value);
            expect(dangling && ref.onDelete !== 'keep').toBe(false);
          }
        }
        // Whatever was deleted is the root or hangs (by a `delete` reference) off something deleted.
        for (const [k, rows] of after) {
          for (const r of rows) {
            if (r.deletedAt !== 'now' || (k === kind && r.id === row.id)) continue;
            const parent = ENTITY_REFERENCES.some((ref) => ref.from === k && ref.onDelete === 'delete' && isDead(ref.to, r[ref.field]));
            expect(parent).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
