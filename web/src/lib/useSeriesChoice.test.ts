import { describe, expect, it } from 'vitest';
import { pickSeriesId } from './useSeriesChoice';

describe('the series a series-scoped page shows', () => {
  it('prefers the chosen series, then the remembered current series, then the first', () => {
    expect(pickSeriesId(['a', 'b', 'c'], 'c', 'b')).toBe('c');
    expect(pickSeriesId(['a', 'b', 'c'], null, 'b')).toBe('b');
    expect(pickSeriesId(['a', 'b', 'c'], 'gone', 'b')).toBe('b');
    expect(pickSeriesId(['a', 'b', 'c'], 'gone', 'gone')).toBe('a');
    expect(pickSeriesId(['a', 'b'], null, 'gone')).toBe('a');
    expect(pickSeriesId([], null, 'b')).toBeNull();
  });
});
