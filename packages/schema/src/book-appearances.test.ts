import { describe, expect, it } from 'vitest';
import { bookAppearanceChoices, bookAppearanceOutsideSeries } from './book-appearances.ts';
import { createCharacterBodySchema, createLocationBodySchema } from './entities.ts';

const SERIES = '0190a6f0-0000-7000-8000-000000000001';

describe('book appearances', () => {
  it("offer the series' own books by position and title: three boxes for a trilogy, seven for a saga", () => {
    const trilogy = [
      { position: 3, title: 'The Return' },
      { position: 1, title: 'The Gathering' },
      { position: 2, title: 'The Storm' },
    ];
    expect(bookAppearanceChoices(trilogy).map((c) => c.label)).toEqual(['Book 1: The Gathering', 'Book 2: The Storm', 'Book 3: The Return']);
    const saga = Array.from({ length: 7 }, (_, i) => ({ position: i + 1, title: `Tale ${i + 1}` }));
    expect(bookAppearanceChoices(saga).map((c) => c.number)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('keep a stored number no book has, marked, so the author can see and untick it', () => {
    expect(bookAppearanceChoices([{ position: 1, title: 'One' }], [5, 1])).toEqual([
      { number: 1, label: 'Book 1: One', orphan: false },
      { number: 5, label: 'Book 5', orphan: true },
    ]);
  });

  it("accept the series' books and the spec's five, nothing else", () => {
    expect(bookAppearanceOutsideSeries([1, 5], [])).toBeNull();
    expect(bookAppearanceOutsideSeries([6, 7], [1, 2, 3, 4, 5, 6, 7])).toBeNull();
    expect(bookAppearanceOutsideSeries([2, 8, 9], [1, 2, 3, 4, 5, 6, 7])).toBe(8);
  });

  it('are no longer capped at 5 by the body schema (the server checks them against the series)', () => {
    expect(createCharacterBodySchema.parse({ seriesId: SERIES, name: 'Ann', bookAppearances: [7, 6, 7] }).bookAppearances).toEqual([6, 7]);
    expect(createLocationBodySchema.parse({ seriesId: SERIES, name: 'Quay', bookAppearances: [6] }).bookAppearances).toEqual([6]);
    expect(createCharacterBodySchema.safeParse({ seriesId: SERIES, name: 'Ann', bookAppearances: [0] }).success).toBe(false);
  });
});
