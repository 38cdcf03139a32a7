/** Reused JSON (http/json.ts) must be exactly what JSON.stringify would have produced. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extendedWithJson, jsonOf, rememberJson, snapshotReferenceOf } from '../../src/http/json.ts';

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

  it('a JSON made from a revision snapshot is the snapshot less its closing brace and then its tail, extended any number of times (idempotency records keep the tail and refer to the snapshot)', () => {
    const record = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 });
    fc.assert(
      fc.property(record, fc.array(record, { maxLength: 3 }), (row, extras) => {
        const snapshot = JSON.stringify(row);
        const source = { entity: 'chapter', entityId: 'c1', rev: 1, snapshot };
        rememberJson(row, snapshot, source);
        let answer: object = row;
        for (const extra of extras) answer = extendedWithJson(answer, extra);
        const json = jsonOf(answer);
        expect(json).toBe(JSON.stringify(answer));
        const reference = snapshotReferenceOf(answer);
        // Extending by new keys always keeps the reference; a clashing key makes a plain object.
        if (extras.every((extra, i) => Object.keys(extra).every((k) => !Object.hasOwn(row, k) && extras.slice(0, i).every((e) => !Object.hasOwn(e, k)) && String(Number(k) >>> 0) !== k))) {
          expect(reference?.source).toBe(source);
        }
        if (reference !== undefined) {
          expect(reference.source).toBe(source);
          expect(snapshot.slice(0, -1) + reference.tail).toBe(json);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps the snapshot reference when a new key only shares its name with an inherited one (fast-check seed -1252606612)', () => {
    const row = Object.create(null) as Record<string, unknown>;
    const snapshot = JSON.stringify(row);
    const source = { entity: 'chapter', entityId: 'c1', rev: 1, snapshot };
    rememberJson(row, snapshot, source);
    const answer = extendedWithJson(extendedWithJson(row, Object.create(null) as object), { toString: [] });
    expect(jsonOf(answer)).toBe('{"toString":[]}');
    expect(snapshotReferenceOf(answer)?.source).toBe(source);
  });

  it('serialises anything it was not told about', () => {
    expect(jsonOf({ a: 1 })).toBe('{"a":1}');
    expect(jsonOf(null)).toBe('null');
    expect(jsonOf(undefined)).toBe('null');
    expect(jsonOf([1, 'x'])).toBe('[1,"x"]');
  });
});
