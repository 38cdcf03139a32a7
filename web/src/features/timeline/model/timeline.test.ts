import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { newId } from '@chronicler/schema';
import { serverBook } from '@chronicler/sync-client/testing';
import { serverEvent } from './fixtures';
import {
  ALL_CHARACTERS,
  GENERAL_GROUP_LABEL,
  bookGroupLabel,
  dateLabel,
  filterByCharacter,
  groupNarrative,
  moveItem,
  nextPosition,
  renumberAfterDrop,
  sortChronological,
} from './timeline';

const seriesId = newId();
const titles = (events: { title: string }[]) => events.map((e) => e.title);

describe('chronological view', () => {
  it('puts back-story first: "Year -60" before "Year 11", "60 BCE" before "Year 1"', () => {
    const events = [
      serverEvent(seriesId, { title: 'eleven', date: 'Year 11', position: 1 }),
      serverEvent(seriesId, { title: 'minus-sixty', date: 'Year -60', position: 2 }),
      serverEvent(seriesId, { title: 'one', date: 'Year 1', position: 3 }),
      serverEvent(seriesId, { title: 'bce', date: '60 BCE', position: 4 }),
    ];
    expect(titles(sortChronological(events, []))).toEqual(['minus-sixty', 'bce', 'one', 'eleven']);
  });

  it('keeps undated events in their narrative place: after the dated event before them in the story', () => {
    const one = serverBook(seriesId, { title: 'One', position: 1 });
    const two = serverBook(seriesId, { title: 'Two', position: 2 });
    const events = [
      serverEvent(seriesId, { title: 'flashback-aftermath', date: '', bookId: two.id, position: 2 }),
      serverEvent(seriesId, { title: 'flashback', date: 'Year -60', bookId: two.id, position: 1 }),
      serverEvent(seriesId, { title: 'opening', date: 'Year 11', bookId: one.id, position: 1 }),
      serverEvent(seriesId, { title: 'that-night', date: '   ', bookId: one.id, position: 2 }),
      serverEvent(seriesId, { title: 'prologue', date: '', bookId: one.id, position: 0 }),
    ];
    expect(titles(sortChronological(events, [two, one]))).toEqual(['prologue', 'flashback', 'flashback-aftermath', 'opening', 'that-night']);
    // An undated event of no book has no place in the story: first, as the spec has undated events.
    const general = serverEvent(seriesId, { title: 'general', date: '', position: 1 });
    expect(titles(sortChronological([...events, general], [one, two]))[0]).toBe('general');
  });

  it('sorts naturally: "Year 9" before "Year 10", "Spring" before "Autumn", months in calendar order', () => {
    const events = [
      serverEvent(seriesId, { title: 'ten', date: 'Year 10' }),
      serverEvent(seriesId, { title: 'nine', date: 'Year 9' }),
      serverEvent(seriesId, { title: '302-autumn', date: 'Year 302, Autumn' }),
      serverEvent(seriesId, { title: '302-spring', date: 'Year 302, Spring' }),
      serverEvent(seriesId, { title: '302-march', date: 'Year 302, 3 March' }),
      serverEvent(seriesId, { title: '302-dec', date: 'Year 302, December' }),
      serverEvent(seriesId, { title: '302-jan', date: 'year 302, jan' }),
      serverEvent(seriesId, { title: 'undated', date: '' }),
    ];
    expect(titles(sortChronological(events, []))).toEqual(['undated', 'nine', 'ten', '302-march', '302-jan', '302-spring', '302-autumn', '302-dec']);
  });

  it('keeps the narrative order for equal dates and never changes its input', () => {
    const second = serverEvent(seriesId, { title: 'second', date: 'Dawn', position: 2 });
    const first = serverEvent(seriesId, { title: 'first', date: 'Dawn', position: 1 });
    const input = [second, first];
    expect(titles(sortChronological(input, []))).toEqual(['first', 'second']);
    expect(input).toEqual([second, first]);
  });

  it("shows 'Undated' for an empty date", () => {
    expect(dateLabel('')).toBe('Undated');
    expect(dateLabel('  ')).toBe('Undated');
    expect(dateLabel(' Year 302 ')).toBe('Year 302');
  });
});

describe('narrative view', () => {
  const one = serverBook(seriesId, { title: 'The Hobbit', position: 1, status: 'completed' });
  const two = serverBook(seriesId, { title: 'The Fellowship', position: 2, status: 'revision' });

  it("groups by book as 'Book {position}: {title}' in series order, 'General Events' last, each by position", () => {
    const events = [
      serverEvent(seriesId, { title: 'general-2', position: 2 }),
      serverEvent(seriesId, { title: 'two-1', bookId: two.id, position: 1 }),
      serverEvent(seriesId, { title: 'one-2', bookId: one.id, position: 2 }),
      serverEvent(seriesId, { title: 'general-1', position: 1 }),
      serverEvent(seriesId, { title: 'one-1', bookId: one.id, position: 1 }),
    ];
    const groups = groupNarrative(events, [two, one]);
    expect(groups.map((g) => g.label)).toEqual(['Book 1: The Hobbit', 'Book 2: The Fellowship', GENERAL_GROUP_LABEL]);
    expect(groups.map((g) => titles(g.events))).toEqual([['one-1', 'one-2'], ['two-1'], ['general-1', 'general-2']]);
    expect(groups.map((g) => g.status)).toEqual(['Completed', 'Revision', null]);
  });

  it('keeps empty books (for "No events yet") and leaves out an empty General Events group', () => {
    const groups = groupNarrative([serverEvent(seriesId, { bookId: one.id })], [one, two]);
    expect(groups.map((g) => [g.label, g.events.length])).toEqual([
      ['Book 1: The Hobbit', 1],
      ['Book 2: The Fellowship', 0],
    ]);
  });

  it('puts an event whose book is gone under General Events', () => {
    const groups = groupNarrative([serverEvent(seriesId, { title: 'orphan', bookId: newId() })], [one]);
    expect(groups.at(-1)!.label).toBe(GENERAL_GROUP_LABEL);
    expect(titles(groups.at(-1)!.events)).toEqual(['orphan']);
  });

  it('labels a book group', () => {
    expect(bookGroupLabel({ position: 3, title: 'Return' })).toBe('Book 3: Return');
  });
});

describe('character view', () => {
  const frodo = newId();
  const sam = newId();
  const events = sortChronological(
    [
      serverEvent(seriesId, { title: 'both', date: 'Year 2', characterIds: [frodo, sam], position: 1 }),
      serverEvent(seriesId, { title: 'sam', date: 'Year -60', characterIds: [sam], position: 2 }),
      serverEvent(seriesId, { title: 'nobody', date: '', position: 0 }),
    ],
    [],
  );

  it("shows the chosen character's events on the dated line", () => {
    expect(titles(filterByCharacter(events, frodo))).toEqual(['both']);
    expect(titles(filterByCharacter(events, sam))).toEqual(['sam', 'both']);
  });

  it("shows every event when none or 'All Characters' is chosen", () => {
    expect(titles(filterByCharacter(events, null))).toEqual(['nobody', 'sam', 'both']);
    expect(titles(filterByCharacter(events, ALL_CHARACTERS))).toEqual(['nobody', 'sam', 'both']);
  });

  it('shows nothing for a character in no event', () => {
    expect(filterByCharacter(events, newId())).toEqual([]);
  });
});

describe('renumbering after a drop', () => {
  const ids = ['a', 'b', 'c', 'd'].map((id) => ({ id }));

  it('moves the dragged event and numbers the group from 1 in the new order', () => {
    expect(renumberAfterDrop(ids, 0, 2)).toEqual([
      { id: 'b', position: 1 },
      { id: 'c', position: 2 },
      { id: 'a', position: 3 },
      { id: 'd', position: 4 },
    ]);
    expect(renumberAfterDrop(ids, 3, 0).map((e) => e.id)).toEqual(['d', 'a', 'b', 'c']);
  });

  it('is a permutation numbered 1..n for any move (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string(), { minLength: 1, maxLength: 30 }), fc.nat(), fc.nat(), (names, f, t) => {
        const items = names.map((id) => ({ id }));
        const from = f % items.length;
        const to = t % items.length;
        const result = renumberAfterDrop(items, from, to);
        expect(result.map((r) => r.position)).toEqual(items.map((_, i) => i + 1));
        expect([...result.map((r) => r.id)].sort()).toEqual([...names].sort());
        expect(result[to]!.id).toBe(names[from]);
      }),
    );
  });

  it('moveItem leaves the input alone and ignores an index outside the list', () => {
    const input = ['a', 'b'];
    expect(moveItem(input, 1, 0)).toEqual(['b', 'a']);
    expect(input).toEqual(['a', 'b']);
    expect(moveItem(input, 5, 0)).toEqual(['a', 'b']);
  });

  it('places a new event after the last of its group', () => {
    const book = newId();
    const events = [serverEvent(seriesId, { bookId: book, position: 4 }), serverEvent(seriesId, { position: 2 })];
    expect(nextPosition(events, book)).toBe(5);
    expect(nextPosition(events, null)).toBe(3);
    expect(nextPosition(events, newId())).toBe(1);
  });
});
