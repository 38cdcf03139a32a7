import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_ZOOM, PICTURE_SHAPES, cropForKey, cropRect, initialCrop, largestCrop, outputSize, zoomCrop } from './crop';

const size = fc.record({ width: fc.integer({ min: 1, max: 8192 }), height: fc.integer({ min: 1, max: 8192 }) });
const aspect = fc.constantFrom(...Object.values(PICTURE_SHAPES).map((s) => s.aspect));
const keys = fc.array(fc.record({ key: fc.constantFrom('ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', '+', '-', '0', 'x'), shift: fc.boolean() }), { maxLength: 40 });

describe('the crop', () => {
  it('stays inside the picture, in its shape, whatever the keys do', () => {
    fc.assert(
      fc.property(size, aspect, keys, (source, a, presses) => {
        let state = initialCrop(source);
        for (const { key, shift } of presses) state = cropForKey(source, a, state, key, shift) ?? state;
        const r = cropRect(source, a, state);
        const eps = 1e-6 * Math.max(source.width, source.height);
        expect(r.x).toBeGreaterThanOrEqual(-eps);
        expect(r.y).toBeGreaterThanOrEqual(-eps);
        expect(r.x + r.width).toBeLessThanOrEqual(source.width + eps);
        expect(r.y + r.height).toBeLessThanOrEqual(source.height + eps);
        expect(r.width / r.height).toBeCloseTo(a, 6);
        expect(state.zoom).toBeGreaterThanOrEqual(1);
        expect(state.zoom).toBeLessThanOrEqual(MAX_ZOOM);
      }),
    );
  });

  it('starts as the largest crop of the shape, centred', () => {
    expect(largestCrop({ width: 4000, height: 3000 }, 2 / 3)).toEqual({ width: 2000, height: 3000 });
    expect(cropRect({ width: 4000, height: 3000 }, 16 / 9, initialCrop({ width: 4000, height: 3000 }))).toEqual({ x: 0, y: 375, width: 4000, height: 2250 });
  });

  it('zooms about its centre', () => {
    const source = { width: 1000, height: 1000 };
    const r = cropRect(source, 1, zoomCrop(source, 1, initialCrop(source), 2));
    expect(r).toEqual({ x: 250, y: 250, width: 500, height: 500 });
  });

  it('leaves keys it does not use to the page', () => {
    expect(cropForKey({ width: 10, height: 10 }, 1, initialCrop({ width: 10, height: 10 }), 'Tab')).toBeNull();
  });
});

describe('outputSize', () => {
  it('scales down to the long side and never up', () => {
    expect(outputSize({ width: 2000, height: 3000 }, 1600)).toEqual({ width: 1067, height: 1600 });
    expect(outputSize({ width: 300, height: 200 }, 1600)).toEqual({ width: 300, height: 200 });
    expect(outputSize({ width: 0.4, height: 0.2 }, 320)).toEqual({ width: 1, height: 1 });
    fc.assert(
      fc.property(size, fc.integer({ min: 1, max: 4000 }), (s, longSide) => {
        const o = outputSize(s, longSide);
        expect(Math.max(o.width, o.height)).toBeLessThanOrEqual(Math.max(longSide, 1));
        expect(o.width).toBeLessThanOrEqual(Math.max(s.width, 1));
      }),
    );
  });
});
