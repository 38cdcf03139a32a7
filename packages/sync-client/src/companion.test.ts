import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import type { AiSuggestion } from '@chronicler/schema';
import { Dexie } from 'dexie';
import { type ChroniclerDb, dbName, openChroniclerDb } from './db.ts';
import { serverCharacter } from './testing/fixtures.ts';
import { storeGeneratedSuggestion, suggestionsOfSeries } from './companion.ts';

let db: ChroniclerDb | undefined;
afterEach(() => db?.close());

const SERIES = '00000000-0000-7000-8000-000000000001';
const BOOK = '00000000-0000-7000-8000-000000000002';
const row = (id: string, createdAt: string, extra: Partial<AiSuggestion> = {}): AiSuggestion => ({
  id, rev: 1, createdAt, updatedAt: createdAt, deletedAt: null, seriesId: SERIES, bookId: null,
  type: 'plotIdea', content: `idea ${id}`, engine: 'builtin', entityIds: [], authorId: SERIES, ...extra,
});

describe('stored suggestions on the device', () => {
  it('lists a series’ live suggestions newest last, by book when asked, and never lets an older copy win', async () => {
    db = openChroniclerDb('u1', { indexedDB: new IDBFactory() });
    const a = row('00000000-0000-7000-8000-00000000000a', '2026-01-01T10:00:00Z');
    const b = row('00000000-0000-7000-8000-00000000000b', '2026-01-01T09:00:00Z', { bookId: BOOK });
    const gone = row('00000000-0000-7000-8000-00000000000c', '2026-01-01T11:00:00Z', { deletedAt: '2026-01-02T00:00:00Z' });
    for (const r of [a, b, gone]) await storeGeneratedSuggestion(db, r);
    expect((await suggestionsOfSeries(db, SERIES)).map((s) => s.id)).toEqual([b.id, a.id]);
    expect((await suggestionsOfSeries(db, SERIES, BOOK)).map((s) => s.id)).toEqual([b.id]);
    await storeGeneratedSuggestion(db, { ...a, rev: 5, content: 'newer' });
    await storeGeneratedSuggestion(db, { ...a, rev: 2, content: 'older' });
    expect((await db.aiSuggestions.get(a.id))?.content).toBe('newer');
  });
});

describe('characters kept on a device from before aliases (Dexie version 8)', () => {
  it('read as having no aliases and not always included after the upgrade', async () => {
    const factory = new IDBFactory();
    // The version-7 database: the same tables (version 8 adds none), one character without the new fields.
    const current = openChroniclerDb('u7', { indexedDB: factory });
    const stores = Object.fromEntries(current.tables.map((t) => [t.name, [t.schema.primKey.src, ...t.schema.indexes.map((i) => i.src)].join(', ')]));
    current.close();
    const old = new Dexie(dbName('u7'), { indexedDB: factory });
    old.version(7).stores(stores);
    const { aliases: _a, alwaysInclude: _b, ...before } = serverCharacter(SERIES, { name: 'Ged' });
    await old.table('characters').put(before);
    old.close();

    db = openChroniclerDb('u7', { indexedDB: factory });
    expect(db.verno).toBeGreaterThanOrEqual(9);
    expect(await db.characters.get(before.id)).toMatchObject({ name: 'Ged', aliases: [], alwaysInclude: false });
  });
});

describe('locations kept on a device from before "always include" (Dexie version 9)', () => {
  it('read as unmarked after the upgrade, every other field as it was', async () => {
    const factory = new IDBFactory();
    // The version-8 database: the same tables (version 9 adds none), locations without the new field.
    const current = openChroniclerDb('u8', { indexedDB: factory });
    const stores = Object.fromEntries(current.tables.map((t) => [t.name, [t.schema.primKey.src, ...t.schema.indexes.map((i) => i.src)].join(', ')]));
    current.close();
    const old = new Dexie(dbName('u8'), { indexedDB: factory });
    old.version(8).stores(stores);
    const place = (id: string, name: string, importance: 'main' | 'minor') => ({
      id, rev: 4, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', deletedAt: null, seriesId: SERIES,
      name, locationType: 'city', description: 'Stone and salt', importance, bookAppearances: [1], image: null,
    });
    await old.table('locations').bulkPut([place('00000000-0000-7000-8000-0000000000a1', 'Gont Port', 'main'), place('00000000-0000-7000-8000-0000000000a2', 'Re Albi', 'minor')]);
    old.close();

    db = openChroniclerDb('u8', { indexedDB: factory });
    expect(db.verno).toBeGreaterThanOrEqual(9);
    const rows = await db.locations.orderBy('id').toArray();
    expect(rows).toEqual([
      { ...place('00000000-0000-7000-8000-0000000000a1', 'Gont Port', 'main'), alwaysInclude: false },
      { ...place('00000000-0000-7000-8000-0000000000a2', 'Re Albi', 'minor'), alwaysInclude: false },
    ]);
  });
});
