import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PLAIN_YEARS_LABEL, chronologyKeys, compareChronology, erasInUse, parseDate, sortByChronology } from './chronology';

/** Sorts date texts given in story order; answers the texts in chronological order. */
const chronological = (datesInStoryOrder: string[]) => sortByChronology(datesInStoryOrder, (d) => d);

describe('the chronological order of dates', () => {
  it('puts back-story first: negative and BCE-style years before year 1, numbers by value', () => {
    expect(chronological(['Year 11', 'Year -60', 'Year 9', 'Year 10'])).toEqual(['Year -60', 'Year 9', 'Year 10', 'Year 11']);
    expect(chronological(['Year 11', '60 BCE', '-70', 'Year 1', '12 B.C.', '5 AD'])).toEqual(['-70', '60 BCE', '12 B.C.', 'Year 1', '5 AD', 'Year 11']);
    expect(chronological(['Year 302-305', 'Year 12'])).toEqual(['Year 12', 'Year 302-305']); // a range, not -305
  });

  it('orders months and seasons in calendar order after the year', () => {
    expect(chronological(['Year 302, Autumn', 'Year 302, Spring', 'Year 302, December', 'Year 301, Winter'])).toEqual([
      'Year 301, Winter',
      'Year 302, Spring',
      'Year 302, Autumn',
      'Year 302, December',
    ]);
    expect(chronological(['Sept 12', 'Autumn', 'Sept 3', 'March'])).toEqual(['March', 'Sept 3', 'Sept 12', 'Autumn']);
    expect(parseDate('Marble Hall')!.eraName).toBe('marble hall'); // a name, not March
  });

  it('orders named eras as the story first uses them, and numbered eras by their ordinal', () => {
    const story = ['3rd Age 120', '3rd Age 3', 'Age of Ash 2', 'Second Age 3400', 'Age of Ash 1', 'First Age 590'];
    expect(chronological(story)).toEqual(['First Age 590', 'Second Age 3400', '3rd Age 3', '3rd Age 120', 'Age of Ash 1', 'Age of Ash 2']);
    expect(parseDate('3rd Age 120')).toEqual({ eraName: 'age', eraOrdinal: 3, values: [{ kind: 0, value: 120 }] });
    expect(parseDate('Third Age, Year 5')).toEqual({ eraName: 'age', eraOrdinal: 3, values: [{ kind: 0, value: 5 }] });
  });

  it('follows the era order the author set: their eras first, in their order, then the rest as the story uses them', () => {
    const story = ['3rd Age 120', 'Age of Ash 2', 'Second Age 3400', 'Year 5', 'Age of Ash 1', 'First Age 590'];
    expect(erasInUse(story)).toEqual([
      { key: 'age#1', label: 'First Age' },
      { key: 'age#2', label: 'Second Age' },
      { key: 'age#3', label: '3rd Age' },
      { key: 'age ash', label: 'Age of Ash' },
      { key: '', label: PLAIN_YEARS_LABEL },
    ]);
    // The Age of Ash came before the numbered ages; plain years before everything.
    const order = ['', 'age ash'];
    expect(sortByChronology(story, (d) => d, order)).toEqual(['Year 5', 'Age of Ash 1', 'Age of Ash 2', 'First Age 590', 'Second Age 3400', '3rd Age 120']);
    expect(erasInUse(story, order).map((era) => era.key)).toEqual(['', 'age ash', 'age#1', 'age#2', 'age#3']);
    // An era the order names but the dates no longer use is ignored.
    expect(sortByChronology(['Year 2', 'Year 1'], (d) => d, ['gone', ''])).toEqual(['Year 1', 'Year 2']);
  });

  it('keeps an undated event in its narrative place: after the dated event before it in the story', () => {
    expect(chronological(['', 'Year 5', '  ', 'Year -60', '', 'Year 1'])).toEqual(['', 'Year -60', '', 'Year 1', 'Year 5', '  ']);
  });

  it('keeps the story order between equal dates', () => {
    const events = [
      { title: 'b', date: 'Year 5' },
      { title: 'a', date: 'year 5' },
      { title: 'c', date: '5' },
    ];
    expect(sortByChronology(events, (e) => e.date).map((e) => e.title)).toEqual(['b', 'a', 'c']);
  });
});

describe('compareChronology (properties)', () => {
  const piece = fc.constantFrom('Year', '-', 'BCE', 'B.C.', 'AD', '3rd', 'Second', 'Age', 'of Ash', 'Spring', 'March', 'Sept', ',', ' ', '');
  const dateText = fc.oneof(
    fc.constant(''),
    fc.array(fc.oneof(piece, fc.integer({ min: -500, max: 500 }).map(String)), { maxLength: 5 }).map((parts) => parts.join(' ')),
    fc.stringMatching(/^[A-Za-z0-9 ,.-]{0,12}$/),
  );
  const keysOf = fc.array(dateText, { minLength: 1, maxLength: 25 }).map((dates) => chronologyKeys(dates));

  it('is a total order: antisymmetric, transitive, and equal only for the same event', () => {
    fc.assert(
      fc.property(keysOf, fc.nat(), fc.nat(), fc.nat(), (keys, i, j, k) => {
        const [a, b, c] = [keys[i % keys.length]!, keys[j % keys.length]!, keys[k % keys.length]!];
        expect(Math.sign(compareChronology(a, b))).toBe(-Math.sign(compareChronology(b, a)) || 0);
        expect(compareChronology(a, b) === 0).toBe(a.story === b.story);
        if (compareChronology(a, b) < 0 && compareChronology(b, c) < 0) expect(compareChronology(a, c)).toBeLessThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it('is stable: events with the same date keep their story order, and sorting twice changes nothing', () => {
    fc.assert(
      fc.property(fc.array(dateText, { minLength: 1, maxLength: 25 }), (dates) => {
        const items = dates.map((date, story) => ({ date, story }));
        const once = sortByChronology(items, (e) => e.date);
        for (let i = 1; i < once.length; i++) {
          const [before, after] = [once[i - 1]!, once[i]!];
          if (before.date.trim() !== '' && before.date === after.date) expect(before.story).toBeLessThan(after.story);
        }
        expect(once.map((e) => e.story).sort((a, b) => a - b)).toEqual(items.map((e) => e.story));
      }),
      { numRuns: 300 },
    );
  });

  it('places every undated event right after the events that precede it in the story', () => {
    fc.assert(
      fc.property(fc.array(dateText, { minLength: 1, maxLength: 25 }), (dates) => {
        const items = dates.map((date, story) => ({ date, story }));
        const order = sortByChronology(items, (e) => e.date);
        order.forEach((event, at) => {
          if (event.date.trim() !== '' || event.story === 0) return;
          // The story's previous event is just before it, unless it is also undated and placed there already.
          const previous = items[event.story - 1]!;
          expect(order.indexOf(previous)).toBeLessThan(at);
        });
      }),
      { numRuns: 300 },
    );
  });
});
