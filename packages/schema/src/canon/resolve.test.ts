import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonSeries } from '../testing/canon-series.ts';
import { characterAsOf, canonTimeline, fieldsAsOf, locationAsOf, relationshipAsOf } from './resolve.ts';
import { BEFORE_THE_STORY, SERIES_END, cursorOf, storyOrder } from './story-order.ts';
import type { CanonChange } from './wire.ts';

/** Two books of three chapters, Mara and Ilse, and the city of Vell. */
function twoBooks() {
  const s = canonSeries();
  const one = s.book('The Salt Road');
  const two = s.book('The Glass Crown');
  const c = [s.chapter(one, 'Arrival'), s.chapter(one, 'The Siege'), s.chapter(one, 'Aftermath'), s.chapter(two, 'Return'), s.chapter(two, 'Council'), s.chapter(two, 'Fire')];
  const mara = s.character('Mara', { aliases: ['The Grey Lady', 'Mara of Vell'], age: '30' });
  const ilse = s.character('Ilse');
  const vell = s.location('Vell', { description: 'A walled city' });
  return { s, one, two, c, mara, ilse, vell };
}
const at = (s: ReturnType<typeof canonSeries>) => {
  const order = storyOrder(s.books, s.chapters);
  return { order, timeline: canonTimeline(order, s.changes) };
};

describe('the state of a character as of a story point', () => {
  it('keeps the row until the first change, then each field holds until the next change of that field', () => {
    const { s, c, mara } = twoBooks();
    const death = s.change(mara, 'character', 'status', 'deceased', c[1]!);
    const turned = s.change(mara, 'character', 'affiliation', 'The Salt Guild', c[2]!);
    const { order, timeline } = at(s);

    const first = characterAsOf(timeline, mara, order.chapterIndex.get(c[0]!.id)!);
    expect(first.status).toEqual({ value: 'alive', source: null });
    expect(first.affiliation).toEqual({ value: '', source: null });
    const siege = characterAsOf(timeline, mara, order.chapterIndex.get(c[1]!.id)!);
    expect(siege.status).toEqual({ value: 'deceased', source: death });
    expect(siege.affiliation.source).toBeNull();
    const end = characterAsOf(timeline, mara, SERIES_END);
    expect(end.status.source).toBe(death);
    expect(end.affiliation).toEqual({ value: 'The Salt Guild', source: turned });
    expect(end.age).toEqual({ value: '30', source: null });
    expect(characterAsOf(timeline, mara, BEFORE_THE_STORY).status.value).toBe('alive');
  });

  it('begins Book 2 with Book 1’s end state, nothing copied, and lets a later change replace it', () => {
    const { s, one, two, c, mara } = twoBooks();
    const lost = s.change(mara, 'character', 'status', 'missing', c[2]!);
    const found = s.change(mara, 'character', 'status', 'alive', c[4]!);
    const { order, timeline } = at(s);
    expect(cursorOf(order, { bookId: one.id })).toBe(2);
    expect(characterAsOf(timeline, mara, cursorOf(order, { bookId: one.id })!).status.source).toBe(lost);
    expect(characterAsOf(timeline, mara, cursorOf(order, { bookId: two.id, chapterId: c[3]!.id })!).status).toEqual({ value: 'missing', source: lost });
    expect(characterAsOf(timeline, mara, cursorOf(order, { bookId: two.id, chapterId: c[4]!.id })!).status).toEqual({ value: 'alive', source: found });
    expect(s.changes).toHaveLength(2);
  });

  it('follows a moved chapter, and shows a change of a deleted or trashed chapter as unanchored, never applied, never lost', () => {
    const { s, two, c, mara, ilse } = twoBooks();
    const death = s.change(mara, 'character', 'status', 'deceased', c[1]!);
    const wound = s.change(ilse, 'character', 'appearance', 'A scar across the cheek', c[2]!);
    // The siege chapter moves to the end of Book 2; Aftermath is deleted.
    Object.assign(c[1]!, { bookId: two.id, position: 9 });
    Object.assign(c[2]!, { deletedAt: '2026-02-01T00:00:00.000Z' });
    let { order, timeline } = at(s);
    expect(timeline.anchored.map((a) => [a.change, a.bookId])).toEqual([[death, two.id]]);
    expect(characterAsOf(timeline, mara, cursorOf(order, { bookId: two.id, chapterId: c[5]!.id })!).status.value).toBe('alive');
    expect(characterAsOf(timeline, mara, SERIES_END).status.value).toBe('deceased');
    expect(timeline.unanchored).toEqual([wound]);
    expect(characterAsOf(timeline, ilse, SERIES_END).appearance).toEqual({ value: '', source: null });

    Object.assign(c[1]!, { trashedAt: '2026-02-02T00:00:00.000Z' });
    ({ order, timeline } = at(s));
    expect(timeline.unanchored).toEqual([death, wound]);
    Object.assign(c[1]!, { trashedAt: null });
    expect(at(s).timeline.unanchored).toEqual([wound]);
  });

  it('reports two different values of one field at one chapter as a contradiction, the last recorded holding; the same value twice is none', () => {
    const { s, c, mara, ilse } = twoBooks();
    const dead = s.change(mara, 'character', 'status', 'deceased', c[1]!);
    const missing = s.change(mara, 'character', 'status', 'missing', c[1]!);
    s.change(ilse, 'character', 'status', 'deceased', c[1]!);
    s.change(ilse, 'character', 'status', 'deceased', c[1]!);
    const { timeline } = at(s);
    expect(timeline.contradictions).toEqual([{ entityKind: 'character', entityId: mara.id, field: 'status', chapterId: c[1]!.id, changes: [dead, missing] }]);
    expect(characterAsOf(timeline, mara, SERIES_END).status.source).toBe(missing);
  });

  it('hides an alias before the change that reveals it, and adds a revealed alias the row does not list', () => {
    const { s, c, mara, one } = twoBooks();
    const reveal = s.change(mara, 'character', 'alias', 'the grey lady', c[3]!);
    const nickname = s.change(mara, 'character', 'alias', 'Saltmother', c[4]!);
    const { order, timeline } = at(s);
    const bookOne = characterAsOf(timeline, mara, cursorOf(order, { bookId: one.id })!);
    expect(bookOne.aliases).toEqual([{ value: 'Mara of Vell', source: null }]);
    expect(bookOne.hiddenAliases).toEqual(['The Grey Lady']);
    const end = characterAsOf(timeline, mara, SERIES_END);
    expect(end.aliases).toEqual([
      { value: 'The Grey Lady', source: reveal },
      { value: 'Mara of Vell', source: null },
      { value: 'Saltmother', source: nickname },
    ]);
    expect(end.hiddenAliases).toEqual([]);
  });

  it('places a character by a whereabouts change (a place and words)', () => {
    const { s, c, mara, vell } = twoBooks();
    s.change(mara, 'character', 'whereabouts', 'in the dungeons', c[0]!, { locationId: vell.id });
    const { timeline } = at(s);
    expect(characterAsOf(timeline, mara, 0).whereabouts.value).toEqual({ locationId: vell.id, detail: 'in the dungeons' });
    expect(characterAsOf(timeline, mara, BEFORE_THE_STORY).whereabouts.value).toBeNull();
  });

  it('leaves deleted changes out', () => {
    const { s, c, mara } = twoBooks();
    s.change(mara, 'character', 'status', 'deceased', c[1]!, { deletedAt: '2026-03-01T00:00:00.000Z' });
    const { timeline } = at(s);
    expect(timeline.anchored).toEqual([]);
    expect(characterAsOf(timeline, mara, SERIES_END).status.value).toBe('alive');
  });
});

describe('locations and relationships as of a story point', () => {
  it('renames and destroys a place from its chapter on', () => {
    const { s, c, vell } = twoBooks();
    s.change(vell, 'location', 'state', 'destroyed', c[5]!);
    s.change(vell, 'location', 'name', 'Old Vell', c[5]!);
    const { timeline } = at(s);
    expect(locationAsOf(timeline, vell, 4)).toMatchObject({ name: { value: 'Vell' }, state: { value: 'standing', source: null }, description: { value: 'A walled city' } });
    expect(locationAsOf(timeline, vell, 5)).toMatchObject({ name: { value: 'Old Vell' }, state: { value: 'destroyed' } });
  });

  it('hides a relationship before it starts, shows it ended after it ends, and a relationship without changes always', () => {
    const { s, c, mara, ilse } = twoBooks();
    const bond = s.relationship(mara, ilse, { relationshipType: 'ally' });
    const rivals = s.relationship(ilse, mara, { relationshipType: 'conflict' });
    const old = s.relationship(mara, s.character('Tomas'), { relationshipType: 'family' });
    s.change(bond, 'relationship', 'status', 'active', c[2]!);
    s.change(bond, 'relationship', 'relationshipType', 'romantic', c[3]!);
    s.change(bond, 'relationship', 'status', 'ended', c[5]!);
    s.change(old, 'relationship', 'status', 'ended', c[1]!);
    const { timeline } = at(s);
    expect(relationshipAsOf(timeline, bond, 1).started).toBe(false);
    expect(relationshipAsOf(timeline, bond, 2)).toMatchObject({ started: true, status: { value: 'active' }, relationshipType: { value: 'ally' } });
    expect(relationshipAsOf(timeline, bond, 4)).toMatchObject({ started: true, relationshipType: { value: 'romantic' } });
    expect(relationshipAsOf(timeline, bond, 5)).toMatchObject({ started: true, status: { value: 'ended' } });
    expect(relationshipAsOf(timeline, rivals, BEFORE_THE_STORY)).toMatchObject({ started: true, status: { value: 'active', source: null } });
    expect(relationshipAsOf(timeline, old, 0)).toMatchObject({ started: true, status: { value: 'active' } });
    expect(relationshipAsOf(timeline, old, 1)).toMatchObject({ started: true, status: { value: 'ended' } });
  });
});

describe('story points', () => {
  it('answers null for a book or chapter not in the story, and an empty book’s end is the end of what came before', () => {
    const s = canonSeries();
    const one = s.book('One');
    const empty = s.book('Empty');
    const gone = s.book('Gone');
    gone.deletedAt = '2026-01-05T00:00:00.000Z';
    const first = s.chapter(one, 'First');
    const other = s.chapter(s.book('Three'), 'Elsewhere');
    const order = storyOrder(s.books, s.chapters);
    expect(cursorOf(order, 'end')).toBe(SERIES_END);
    expect(cursorOf(order, { bookId: empty.id })).toBe(0);
    expect(cursorOf(order, { bookId: gone.id })).toBeNull();
    expect(cursorOf(order, { bookId: one.id, chapterId: other.id })).toBeNull();
    expect(cursorOf(order, { bookId: one.id, chapterId: first.id })).toBe(0);
    expect(order.bookIds).toEqual([one.id, empty.id, s.books[3]!.id]);
  });
});

describe('resolving at a cursor', () => {
  const FIELDS = ['status', 'name', 'age'] as const;
  it('equals replaying the anchored changes up to it in narrative order (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 4 }),
        fc.array(
          fc.record({ entity: fc.integer({ min: 0, max: 2 }), field: fc.constantFrom(...FIELDS), value: fc.constantFrom('a', 'b', 'c'), chapter: fc.integer({ min: -1, max: 20 }), deleted: fc.boolean() }),
          { maxLength: 40 },
        ),
        fc.array(fc.integer({ min: 0, max: 25 }), { maxLength: 3 }),
        fc.integer({ min: -1, max: 21 }),
        (chapterCounts, specs, reorderedPositions, cursor) => {
          const s = canonSeries();
          for (const [b, count] of chapterCounts.entries()) {
            const book = s.book(`Book ${b + 1}`);
            for (let i = 0; i < count; i += 1) s.chapter(book, `Chapter ${i + 1}`);
          }
          // Some chapters moved to other positions after the changes were recorded.
          reorderedPositions.forEach((position, i) => {
            const chapter = s.chapters[i % Math.max(1, s.chapters.length)];
            if (chapter) chapter.position = position;
          });
          const entities = [s.character('A'), s.character('B'), s.character('C')];
          for (const spec of specs) {
            const chapter = spec.chapter >= 0 ? (s.chapters[spec.chapter] ?? null) : null;
            s.change(entities[spec.entity]!, 'character', spec.field, spec.value, chapter, spec.deleted ? { deletedAt: '2026-06-01T00:00:00.000Z' } : {});
          }
          const order = storyOrder(s.books, s.chapters);
          const timeline = canonTimeline(order, s.changes);

          // The naive replay: every live change whose chapter is in the story, sorted by reading order then recorded order.
          const readingIndex = (change: CanonChange) => (change.chapterId === null ? undefined : order.chapterIndex.get(change.chapterId));
          const replayable = s.changes.filter((change) => change.deletedAt === null && readingIndex(change) !== undefined && readingIndex(change)! <= cursor);
          for (const entity of entities) {
            const expected = new Map<string, string>();
            for (const change of replayable.filter((c) => c.entityId === entity.id).sort((a, b) => readingIndex(a)! - readingIndex(b)! || a.createdAt.localeCompare(b.createdAt))) {
              expected.set(change.field, change.id);
            }
            const actual = new Map([...fieldsAsOf(timeline, entity.id, cursor).fields].map(([field, placed]) => [field, placed.change.id]));
            expect(actual).toEqual(expected);
          }
          // Nothing lost: every live change is anchored or unanchored, once.
          const live = s.changes.filter((c) => c.deletedAt === null).map((c) => c.id).sort();
          expect([...timeline.anchored.map((a) => a.change.id), ...timeline.unanchored.map((c) => c.id)].sort()).toEqual(live);
        },
      ),
      { numRuns: 200 },
    );
  });
});
