/**
 * User-scoped rows on the device (README "How to add a user-scoped kind"), with the author's own
 * record: the pull applies them like any row, a scope removal never touches them, and signing out
 * (deleting the database) leaves none behind.
 */
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChroniclerDb } from './db.ts';
import { currentUserRecord } from './queries.ts';
import { type Reply, USER_ID, engineForTest, freshDb, page, scriptedFetch, serverBook, serverSeries, serverUserRecord } from './testing/fixtures.ts';

let db: ChroniclerDb;
afterEach(() => db?.close());

function engineWith(replies: Reply[]) {
  const fetch = scriptedFetch(() => replies.shift() ?? { status: 200, body: page({}, 99) });
  return { engine: engineForTest(db, fetch), fetch };
}

describe('user-scoped rows on the device', () => {
  it('the pull applies the author record, and later versions replace it', async () => {
    db = freshDb();
    await db.open();
    expect(await currentUserRecord(db)).toBeUndefined();
    const { engine } = engineWith([
      { status: 200, body: page({ users: [serverUserRecord({ rev: 3 })] }, 3) },
      { status: 200, body: page({ users: [serverUserRecord({ rev: 5, plan: 'wordsmith', timeZone: 'Europe/Paris' })] }, 5) },
    ]);
    await engine.pull();
    expect(await currentUserRecord(db)).toMatchObject({ id: USER_ID, plan: 'apprentice', rev: 3 });
    await engine.pull();
    expect(await currentUserRecord(db)).toMatchObject({ plan: 'wordsmith', timeZone: 'Europe/Paris', rev: 5 });
    expect(await db.users.where('userId').equals(USER_ID).count()).toBe(1);
    expect((await db.syncState.get('state'))!.cursor).toBe(5);
  });

  it('a series leaving the scope takes its rows and never the author record', async () => {
    db = freshDb();
    await db.open();
    const series = serverSeries();
    const { engine } = engineWith([
      { status: 200, body: page({ series: [series], books: [serverBook(series.id)], users: [serverUserRecord({ rev: 2 })] }, 2) },
      { status: 200, body: page({}, 4, { scopeRemoved: [series.id] }) },
    ]);
    await engine.pull();
    expect(await db.books.count()).toBe(1);
    await engine.pull();
    expect(await db.series.count()).toBe(0);
    expect(await db.books.count()).toBe(0);
    expect(await currentUserRecord(db)).toMatchObject({ id: USER_ID, rev: 2 });
  });

  it('signing out (the web app deletes the database) leaves no user-scoped row behind', async () => {
    const factory = new IDBFactory();
    db = freshDb(USER_ID, factory);
    await db.open();
    await db.users.put(serverUserRecord({ plan: 'legendary' }));
    await db.delete();
    db = freshDb(USER_ID, factory);
    await db.open();
    expect(await db.users.count()).toBe(0);
    expect(await currentUserRecord(db)).toBeUndefined();
  });

  it('opens a database made by version 1 and adds the user table without losing rows', async () => {
    const factory = new IDBFactory();
    const { Dexie } = await import('dexie');
    const old = new Dexie(`chronicler-${USER_ID}`, { indexedDB: factory });
    old.version(1).stores({ series: 'id, ownerId, updatedAt', syncState: 'key' });
    await old.open();
    await old.table('series').put(serverSeries({ id: '0190a6f0-0000-7000-8000-0000000000aa' }));
    old.close();
    db = freshDb(USER_ID, factory);
    await db.open();
    expect(await db.series.count()).toBe(1);
    await db.users.put(serverUserRecord());
    expect(await db.users.count()).toBe(1);
  });
});
