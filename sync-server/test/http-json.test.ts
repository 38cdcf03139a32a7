/** Reused JSON (http/json.ts) must be exactly what JSON.stringify would have produced. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extendedWithJson, jsonOf, rememberJson } from '../src/http/json.ts';

describe('remembered JSON', () => {
  it('extends a row with new keys exactly as JSON.stringify of the merged object (fast-check)', () => {
    const record = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 });
    fc.assert(
      fc.property(record, record, (base, extra) => {
        rememberJson(base, JSON.stringify(base));
        const merged = extendedWithJson(base, extra);
        expect(merged).toEqual({ ...base, ...extra });
        expect(jsonOf(merged)).toBe(JSON.stringify({ ...base, ...extra }));
      }),
      { numRuns: 1000 },
    );
  });

  it('serialises anything it was not told about', () => {
    expect(jsonOf({ a: 1 })).toBe('{"a":1}');
    expect(jsonOf(null)).toBe('null');
    expect(jsonOf(undefined)).toBe('null');
    expect(jsonOf([1, 'x'])).toBe('[1,"x"]');
  });
});
