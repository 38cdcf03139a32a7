import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compareDateText } from './natural-date';

describe('compareDateText', () => {
  it('orders numbers as numbers and known names in calendar order', () => {
    const sorted = ['Year 10', 'Year 9', 'Winter', 'Spring', 'Autumn', 'Summer', 'June', 'Feb', 'Sept 3', 'Sept 12', 'Age of Ash'].sort(compareDateText);
    expect(sorted).toEqual(['Feb', 'Spring', 'June', 'Summer', 'Sept 3', 'Sept 12', 'Autumn', 'Winter', 'Age of Ash', 'Year 9', 'Year 10']);
    expect(compareDateText('Year 9', 'Year 10')).toBeLessThan(0);
    expect(compareDateText('Spring', 'Autumn')).toBeLessThan(0);
    expect(compareDateText('Sept 3', 'Sept 12')).toBeLessThan(0);
    expect(compareDateText('Marble Hall', 'March')).toBeGreaterThan(0); // a word, not a month
  });

  it('is a consistent order (antisymmetric, transitive) over any texts', () => {
    const text = fc.stringMatching(/^[A-Za-z0-9 ,]{0,12}$/);
    fc.assert(
      fc.property(text, text, text, (a, b, c) => {
        expect(Math.sign(compareDateText(a, b))).toBe(-Math.sign(compareDateText(b, a)) || 0);
        if (compareDateText(a, b) <= 0 && compareDateText(b, c) <= 0) expect(compareDateText(a, c)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 300 },
    );
  });
});
