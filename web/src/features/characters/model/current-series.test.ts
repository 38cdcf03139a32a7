import { describe, expect, it } from 'vitest';
import { pickSeriesId } from './current-series';

describe('the series the page shows', () => {
  it('prefers the chosen series, then the remembered current series, then the first', () => {
    expect(pickSeriesId(['a', 'b', 'c'], 'c', 'b')).toBe('c');
    expect(pickSeriesId(['a', 'b', 'c'], null, 'b')).toBe('b');
    expect(pickSeriesId(['a', 'b', 'c'], 'gone', 'gone')).toBe('a');
    expect(pickSeriesId([], null, 'b')).toBeNull();
  });
});
