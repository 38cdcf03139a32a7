/** World entries on the device (Dexie version 11, docs/decisions/0020-world-entries.md): offline creates, links both ways, the cascade. */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { Dexie } from 'dexie';
import { type ChroniclerDb, dbName, openChroniclerDb } from './db.ts';
import { createMutators } from './mutators.ts';
import * as q from './queries.ts';
import { freshDb, manualClock, serverCharacter, serverSeries } from './testing/fixtures.ts';

let db: ChroniclerDb | undefined;
afterEach(() => db?.close());

describe('world entries on a device', () => {
  it('open a database from before them (version 10) at version 11', async () => {
    const factory = new IDBFactory();
    const current = openChroniclerDb('u11', { indexedDB: factory });
    const stores = Object.fromEntries(
      current.tables.filter((t) => t.name !== 'worldEntries').map((t) => [t.name, [t.schema.primKey.src, ...t.schema.indexes.map((i) => i.src)].join(', ')]),
    );
    current.close();
    const old = new Dexie(dbName('u11'), { indexedDB: factory });
    old.version(10).stores(stores);
    const series = serverSeries();
    await old.table('series').put(series);
    old.close();

    db = openChroniclerDb('u11', { indexedDB: factory });
    await db.open();
    expect(db.verno).toBeGreaterThanOrEqual(11); // and any version after it
    const m = createMutators(db, { now: manualClock().now });
    const entry = await m.worldEntries.create({ seriesId: series.id, category: 'culture', name: 'Reed folk' });
    expect((await q.worldEntriesOfCategory(db, series.id, 'culture')).map((e) => e.name)).toEqual(['Reed folk']);
    expect(entry).toMatchObject({ danger: 'unknown', leaderId: null, tags: [], characterIds: [] });
  });

  it('are made offline linking one another; the link waits for the entry it names, and reads on both sides', async () => {
    db = freshDb();
    const series = serverSeries();
    const mara = serverCharacter(series.id, { name: 'Mara' });
    await db.series.put(series);
    await db.characters.put(mara);
    const m = createMutators(db, { now: manualClock().now });
    const folk = await m.worldEntries.create({ seriesId: series.id, category: 'culture', name: 'Reed folk', characterIds: [mara.id] });
    const guild = await m.worldEntries.create({ seriesId: series.id, category: 'politics', name: 'Salt Guild', leaderId: mara.id, allyIds: [folk.id] });

    const [first, second] = await db.outbox.orderBy('seq').toArray();
    expect(first).toMatchObject({ method: 'POST', path: '/api/world-entries', entityId: folk.id });
    expect(second!.dependsOn).toContain(folk.id);
    // The other side: the character's page finds both (member, leader); the folk's "linked from" the guild.
    expect((await q.worldEntriesLinking(db, { characterId: mara.id })).map((e) => e.name)).toEqual(['Reed folk', 'Salt Guild']);
    expect((await q.worldEntriesOfSeries(db, series.id)).filter((e) => e.allyIds.includes(folk.id)).map((e) => e.id)).toEqual([guild.id]);
  });

  it('lose a deleted character, place or entry from their links at once (the cascade)', async () => {
    db = freshDb();
    const series = serverSeries();
    const mara = serverCharacter(series.id, { name: 'Mara' });
    await db.series.put(series);
    await db.characters.put(mara);
    const m = createMutators(db, { now: manualClock().now });
    const place = await m.locations.create({ seriesId: series.id, name: 'Saltmere' });
    const wyrm = await m.worldEntries.create({ seriesId: series.id, category: 'floraFauna', name: 'Marsh wyrm', danger: 'deadly', locationIds: [place.id] });
    const guild = await m.worldEntries.create({ seriesId: series.id, category: 'politics', name: 'Salt Guild', leaderId: mara.id, characterIds: [mara.id], enemyIds: [wyrm.id] });

    await m.characters.delete(mara.id);
    await m.locations.delete(place.id);
    await m.worldEntries.delete(wyrm.id);
    expect(await db.worldEntries.get(guild.id)).toMatchObject({ leaderId: null, characterIds: [], enemyIds: [], deletedAt: null });
    expect((await q.worldEntriesOfSeries(db, series.id)).map((e) => e.name)).toEqual(['Salt Guild']);
  });

  it('refuse an empty name with the message of their kind, before anything is stored', async () => {
    db = freshDb();
    const series = serverSeries();
    await db.series.put(series);
    const m = createMutators(db, { now: manualClock().now });
    await expect(m.worldEntries.create({ seriesId: series.id, category: 'magicSystem', name: '  ' })).rejects.toThrow('Magic system name is required');
    expect(await db.outbox.count()).toBe(0);
  });
});
