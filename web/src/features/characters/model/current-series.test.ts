import { describe, expect, it } from 'vitest';
import { CURRENT_SERIES_KEY, pickSeriesId, readCurrentSeriesId } from './current-series';

describe('the current series', () => {
  it('reads a bare id, a JSON string or an {id} object', () => {
    expect(readCurrentSeriesId()).toBeNull();
    localStorage.setItem(CURRENT_SERIES_KEY, 'abc');
    expect(readCurrentSeriesId()).toBe('abc');
    localStorage.setItem(CURRENT_SERIES_KEY, '"def"');
    expect(readCurrentSeriesId()).toBe('def');
    localStorage.setItem(CURRENT_SERIES_KEY, '{"id":"ghi","title":"x"}');
    expect(readCurrentSeriesId()).toBe('ghi');
  });

  it('prefers the chosen series, then the remembered one, then the first', () => {
    expect(pickSeriesId(['a', 'b', 'c'], 'c', 'b')).toBe('c');
    expect(pickSeriesId(['a', 'b', 'c'], null, 'b')).toBe('b');
    expect(pickSeriesId(['a', 'b', 'c'], 'gone', 'gone')).toBe('a');
    expect(pickSeriesId([], null, 'b')).toBeNull();
  });
});
