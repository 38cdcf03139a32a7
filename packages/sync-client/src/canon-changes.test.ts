/** Canon changes on a device that had the database before them (Dexie version 10, docs/decisions/0017-canon-changes.md). */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { Dexie } from 'dexie';
import { type ChroniclerDb, dbName, openChroniclerDb } from './db.ts';
import { createMutators } from './mutators.ts';
import * as q from './queries.ts';
import { manualClock, serverBook, serverChapter, serverCharacter, serverSeries } from './testing/fixtures.ts';

let db: ChroniclerDb | undefined;
afterEach(() => db?.close());

describe('a device database from before canon changes (version 9)', () => {
  it('opens at version 10 with its chapters unmarked, and records canon changes', async () => {
    const factory = new IDBFactory();
    const current = openChroniclerDb('u10', { indexedDB: factory });
    const stores = Object.fromEntries(
      current.tables.filter((t) => t.name !== 'canonChanges').map((t) => [t.name, [t.schema.primKey.src, ...t.schema.indexes.map((i) => i.src)].join(', ')]),
    );
    current.close();
    const old = new Dexie(dbName('u10'), { indexedDB: factory });
    old.version(9).stores(stores);
    const series = serverSeries();
    const book = serverBook(series.id);
    const { flashback: _mark, ...chapter } = serverChapter(book);
    const mara = serverCharacter(series.id, { name: 'Mara' });
    await old.table('series').put(series);
    await old.table('books').put(book);
    await old.table('chapters').put(chapter);
    await old.table('characters').put(mara);
    old.close();

    db = openChroniclerDb('u10', { indexedDB: factory });
    await db.open();
    expect(db.verno).toBeGreaterThanOrEqual(11); // and any version after it
    expect((await db.chapters.get(chapter.id))?.flashback ?? false).toBe(false);
    const m = createMutators(db, { now: manualClock().now });
    const change = await m.canonChanges.create({ seriesId: series.id, entityKind: 'character', entityId: mara.id, field: 'status', value: 'missing', bookId: book.id, chapterId: chapter.id });
    expect((await q.canonChangesOfSeries(db, series.id)).map((c) => c.id)).toEqual([change.id]);
  });
});
