import { describe, expect, it } from 'vitest';
import { isId, newId } from './ids.ts';

describe('newId', () => {
  it('is a version 7 UUID whose first 48 bits are the millisecond time', () => {
    const now = Date.UTC(2026, 10, 27, 23, 0, 0, 123);
    const id = newId(now);
    expect(isId(id)).toBe(true);
    expect(id[14]).toBe('7');
    expect('89ab').toContain(id[19]);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(now);
  });

  it('sorts by creation, also within one millisecond, and never repeats', () => {
    const ids: string[] = [];
    for (let ms = 1_800_000_000_000; ms < 1_800_000_000_005; ms++) for (let i = 0; i < 300; i++) ids.push(newId(ms));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
