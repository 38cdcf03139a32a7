import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { IDBFactory } from 'fake-indexeddb';
import type { ChroniclerDb } from '../db.ts';
import { freshDb, serverCharacter, serverSeries } from '../testing/fixtures.ts';
import { formatPictureRef } from './picture-format.ts';
import {
  type PictureEvictionCandidate,
  UNREFERENCED_GRACE_MS,
  chooseEvictions,
  enforcePictureBudget,
  removeUnreferencedPictures,
  storeFetchedPicture,
  storeLocalPicture,
  touchPictures,
} from './store.ts';

describe('chooseEvictions (the cache budget)', () => {
  const candidate = fc.record({
    sha256: fc.stringMatching(/^[0-9a-f]{8}$/),
    bytes: fc.integer({ min: 1, max: 1000 }),
    uploaded: fc.constantFrom(0 as const, 1 as const),
    lastUsedAt: fc.integer({ min: 0, max: 100 }),
  });
  const rowsArb = fc.uniqueArray(candidate, { selector: (r) => r.sha256, maxLength: 30 });

  it('never evicts a picture that has not been uploaded, and reaches the budget when uploaded ones allow', () => {
    fc.assert(
      fc.property(rowsArb, fc.integer({ min: 0, max: 20_000 }), (rows: PictureEvictionCandidate[], budget) => {
        const evicted = new Set(chooseEvictions(rows, budget));
        for (const r of rows) if (r.uploaded === 0) expect(evicted.has(r.sha256)).toBe(false);
        const kept = rows.filter((r) => !evicted.has(r.sha256));
        const keptBytes = kept.reduce((s, r) => s + r.bytes, 0);
        const localBytes = rows.filter((r) => r.uploaded === 0).reduce((s, r) => s + r.bytes, 0);
        expect(keptBytes <= budget || keptBytes === localBytes).toBe(true);
        // Least recently used first: nothing evicted was used after anything uploaded that is kept.
        const newestEvicted = Math.max(-1, ...rows.filter((r) => evicted.has(r.sha256)).map((r) => r.lastUsedAt));
        for (const r of kept) if (r.uploaded === 1) expect(r.lastUsedAt).toBeGreaterThanOrEqual(newestEvicted);
      }),
    );
  });

  it('evicts nothing within the budget', () => {
    expect(chooseEvictions([{ sha256: 'a', bytes: 10, uploaded: 1, lastUsedAt: 0 }], 10)).toEqual([]);
  });
});

describe('pictures in Dexie', () => {
  let db: ChroniclerDb;
  const series = serverSeries();
  const blob = (n: number, fill: number) => new Blob([new Uint8Array(n).fill(fill)], { type: 'image/webp' });

  beforeEach(async () => {
    db = freshDb(undefined, new IDBFactory());
    await db.series.put(series);
  });
  afterEach(() => db.close());

  it('evicts the least recently shown uploaded picture past the budget, never the local one', async () => {
    const local = await storeLocalPicture(db, { blob: blob(400, 1), type: 'image/webp', width: 1, height: 1, seriesId: series.id }, 1);
    await storeFetchedPicture(db, { sha256: 'a'.repeat(64), blob: blob(300, 2), type: 'image/webp', seriesId: series.id }, 2);
    await storeFetchedPicture(db, { sha256: 'b'.repeat(64), blob: blob(300, 3), type: 'image/webp', seriesId: series.id }, 3);
    await touchPictures(db, ['a'.repeat(64)], 10); // shown again: now the newest
    expect(await enforcePictureBudget(db, 750)).toBe(1);
    expect((await db.pictures.toCollection().primaryKeys()).sort()).toEqual(['a'.repeat(64), local].sort());
    // A budget below the local picture alone: the local picture stays.
    await enforcePictureBudget(db, 10);
    expect(await db.pictures.toCollection().primaryKeys()).toEqual([local]);
  });

  it('removes the pictures of a deleted character at once, and forgotten ones after the grace period', async () => {
    const pic = (fill: number) => storeLocalPicture(db, { blob: blob(50, fill), type: 'image/webp', width: 1, height: 1, seriesId: series.id }, 0);
    const display = await pic(1);
    const thumb = await pic(2);
    const unsaved = await pic(3);
    const character = serverCharacter(series.id, { avatarUrl: formatPictureRef({ display, thumb }) });
    await db.characters.put(character);

    expect(await removeUnreferencedPictures(db, { now: 1000 })).toBe(0);
    await db.characters.delete(character.id);
    expect(await removeUnreferencedPictures(db, { now: 1000, released: [display, thumb] })).toBe(2);
    expect(await db.pictures.get(unsaved)).toBeDefined(); // maybe still in a dialog
    expect(await removeUnreferencedPictures(db, { now: UNREFERENCED_GRACE_MS + 1 })).toBe(1);
    expect(await db.pictures.count()).toBe(0);
  });

  it('keeps a picture another row still names', async () => {
    const display = await storeLocalPicture(db, { blob: blob(50, 1), type: 'image/webp', width: 1, height: 1, seriesId: series.id });
    const thumb = await storeLocalPicture(db, { blob: blob(50, 2), type: 'image/webp', width: 1, height: 1, seriesId: series.id });
    await db.series.put({ ...series, coverImage: formatPictureRef({ display, thumb }) });
    expect(await removeUnreferencedPictures(db, { released: [display, thumb] })).toBe(0);
  });
});
