import { describe, expect, it } from 'vitest';
import { canonSeries } from '../testing/canon-series.ts';
import { SERIES_END_LABEL, asOfOptions, asOfValue, pointOfValue, settleAsOf } from './as-of.ts';
import { SERIES_END, storyOrder } from './story-order.ts';

function twoBooks() {
  const s = canonSeries();
  const one = s.book('The Salt Road');
  const two = s.book('The Glass Crown');
  const [arrival, siege] = [s.chapter(one, 'Arrival'), s.chapter(one, 'The Siege')];
  const council = s.chapter(two, 'Council');
  return { s, one, two, arrival, siege, council, order: () => storyOrder(s.books, s.chapters) };
}

describe('the "As of" control', () => {
  it('offers Series end first, then each book’s end and its chapters in reading order', () => {
    const { s, one, two, arrival, siege, council, order } = twoBooks();
    const options = asOfOptions(order(), s.books, s.chapters);
    expect(options.map((o) => [o.value, o.label])).toEqual([
      ['end', SERIES_END_LABEL],
      [`book:${one.id}`, 'End of Book 1: The Salt Road'],
      [`chapter:${arrival.id}`, 'Book 1, chapter 1: Arrival'],
      [`chapter:${siege.id}`, 'Book 1, chapter 2: The Siege'],
      [`book:${two.id}`, 'End of Book 2: The Glass Crown'],
      [`chapter:${council.id}`, 'Book 2, chapter 1: Council'],
    ]);
    for (const option of options) {
      expect(asOfValue(option.point)).toBe(option.value);
      expect(pointOfValue(order(), option.value)).toEqual(option.point);
    }
    expect(pointOfValue(order(), 'chapter:nothing')).toBeNull();
    expect(pointOfValue(order(), 'nonsense')).toBeNull();
  });

  it('follows a moved chapter, and falls back to its book’s end, then to the series end, saying so', () => {
    const { one, two, siege, council, order } = twoBooks();
    expect(settleAsOf(order(), 'end')).toEqual({ point: 'end', cursor: SERIES_END, fellBack: false });
    expect(settleAsOf(order(), { bookId: one.id, chapterId: siege.id })).toEqual({ point: { bookId: one.id, chapterId: siege.id }, cursor: 1, fellBack: false });
    Object.assign(siege, { bookId: two.id, position: 5 });
    expect(settleAsOf(order(), { bookId: one.id, chapterId: siege.id })).toEqual({ point: { bookId: two.id, chapterId: siege.id }, cursor: 2, fellBack: false });
    Object.assign(council, { trashedAt: '2026-02-01T00:00:00.000Z' });
    expect(settleAsOf(order(), { bookId: two.id, chapterId: council.id })).toEqual({ point: { bookId: two.id }, cursor: 1, fellBack: true });
    Object.assign(two, { deletedAt: '2026-02-02T00:00:00.000Z' });
    expect(settleAsOf(order(), { bookId: two.id })).toEqual({ point: 'end', cursor: SERIES_END, fellBack: true });
  });
});
