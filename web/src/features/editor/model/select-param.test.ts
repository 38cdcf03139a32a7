import { describe, expect, it } from 'vitest';
import { selectedRange } from './select-param';

describe('the range a search result opens the editor at', () => {
  it('selects a range inside the text', () => {
    expect(selectedRange('4-9', 20)).toEqual({ anchor: 4, head: 9 });
  });

  it('ignores a missing, malformed, reversed or too long range (the text changed since)', () => {
    for (const param of [null, '', 'a-b', '9-4', '4-21', '-1-3', '1e3-2']) expect(selectedRange(param, 20)).toBeNull();
  });
});
