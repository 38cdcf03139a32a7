/**
 * The fast read paths (docs/decisions/0003-read-cache.md; the targets of bench/README.md, `server-http.ts`):
 * - prepared SELECTs on the root database run straight on the connection when no transaction is
 *   open there (db/sqlite/direct-statements.ts) — and never see a write that is not committed;
 * - list routes answer JSON the database builds (registry listLiveJson), which must be exactly
 *   what toWire + JSON.stringify would have sent, for any stored text, array and boolean.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { newId } from '@chronicler/schema';
import { type OpenedDatabase, openDatabase } from '../../src/db/database.ts';
import { listLive, listLiveJson } from '../../src/entities/queries.ts';
import { toColumns } from '../../src/entities/wire.ts';
import { cachedResults } from '../../src/db/dialect.ts';
import { createTestApp, json, onPostgres, signUp } from '../support/helpers.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fileDatabase(): Promise<OpenedDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-reads-'));
  const database = await openDatabase(path.join(dir, 'db.sqlite'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => database.close());
  return database;
}

async function seriesOf(database: OpenedDatabase): Promise<{ userId: string; seriesId: string }> {
  const userId = newId();
  const seriesId = newId();
  const now = new Date().toISOString();
  await database.db
    .insertInto('users')
    .values({ id: userId, username: `reader${userId.slice(-8)}`, usernameKey: `reader${userId.slice(-8)}`, displayName: 'Reader', email: null, passwordHash: 'x', plan: 'apprentice', createdAt: now, updatedAt: now } as never)
    .execute();
  await database.db
    .insertInto('series')
    .values({ id: seriesId, rev: 1, createdAt: now, updatedAt: now, deletedAt: null, ownerId: userId, title: 'S', description: '', totalBooks: 1, currentBook: 1, coverImage: null })
    .execute();
  return { userId, seriesId };
}

describe.each([
  ['a file database', fileDatabase],
  ['an in-memory database', async () => {
    const database = await openDatabase(':memory:');
    cleanups.push(() => database.close());
    return database;
  }],
])('direct reads on %s', (_name, open) => {
  it('never see a write whose transaction is still open, and see it once committed', async () => {
    const database = await open();
    const { seriesId } = await seriesOf(database);
    const now = new Date().toISOString();
    const book = (title: string) => ({ id: newId(), rev: 2, createdAt: now, updatedAt: now, deletedAt: null, seriesId, title, description: '', position: 1, status: 'in_progress', wordCount: 0 });
    const titles = (rows: { title: string }[]) => rows.map((r) => r.title).sort();

    // A member of a group commit writes, then a read starts while the group's transaction is open.
    let readDuringWrite: Promise<{ title: string }[]> | undefined;
    await expect(
      database.groupCommit.run(async (trx) => {
        await trx.insertInto('books').values(book('rolled back')).execute();
        readDuringWrite = listLive(database.db, 'books', 'seriesId', seriesId);
        await new Promise((resolve) => setImmediate(resolve));
        throw new Error('this member fails: its book must never be seen');
      }),
    ).rejects.toThrow(/never be seen/);
    expect(titles(await readDuringWrite!)).toEqual([]);

    let readBeforeCommit: Promise<{ title: string }[]> | undefined;
    await database.groupCommit.run(async (trx) => {
      await trx.insertInto('books').values(book('kept')).execute();
      readBeforeCommit = listLive(database.db, 'books', 'seriesId', seriesId);
    });
    // The read waited for the group's COMMIT (it could not run while the transaction was open).
    expect(titles(await readBeforeCommit!)).toEqual(['kept']);
    expect(titles(await listLive(database.db, 'books', 'seriesId', seriesId))).toEqual(['kept']);
  });
});

describe('lists built by the database', () => {
  // Text of every kind: quotes, backslashes, control characters, astral and combining characters.
  const text = fc.string({ unit: 'binary', maxLength: 40 });
  const character = fc.record({
    name: text,
    description: text,
    age: fc.constantFrom('', '42', 'ageless'),
    bookAppearances: fc.array(fc.integer({ min: -5, max: 2_000_000_000 }), { maxLength: 6 }),
    isProtagonist: fc.boolean(),
    avatar: fc.option(text, { nil: null }),
    deleted: fc.boolean(),
  });

  it('equal toWire + JSON.stringify for any stored characters and events (fast-check)', async () => {
    const database = await fileDatabase();
    await fc.assert(
      fc.asyncProperty(fc.array(character, { maxLength: 8 }), fc.array(fc.tuple(text, fc.boolean(), fc.array(fc.uuid({ version: 7 }), { maxLength: 4 })), { maxLength: 5 }), async (characters, events) => {
        const { seriesId } = await seriesOf(database);
        const now = new Date().toISOString();
        for (const [i, c] of characters.entries()) {
          const row = { id: newId(), rev: i + 2, createdAt: now, updatedAt: now, deletedAt: c.deleted ? now : null, seriesId, name: c.name, role: 'supporting', age: c.age, occupation: '', status: 'alive', description: c.description, appearance: '', personality: '', goals: '', backstory: '', bookAppearances: c.bookAppearances, isProtagonist: c.isProtagonist, avatar: c.avatar, avatarUrl: null };
          await database.db.insertInto('characters').values(toColumns('characters', row) as never).execute();
        }
        for (const [i, [title, isPlotPoint, characterIds]] of events.entries()) {
          const row = { id: newId(), rev: 50 + i, createdAt: now, updatedAt: now, deletedAt: null, seriesId, title, description: '', eventType: 'plot', date: '', bookId: null, chapterId: null, characterIds, locationId: null, importance: 'medium', color: '#3b82f6', position: events.length - i, isPlotPoint };
          await database.db.insertInto('timelineEvents').values(toColumns('timelineEvents', row) as never).execute();
        }
        const order = ['position', 'createdAt', 'id'];
        expect(JSON.parse(await listLiveJson(database.db, 'characters', 'seriesId', seriesId))).toEqual(JSON.parse(JSON.stringify(await listLive(database.db, 'characters', 'seriesId', seriesId))));
        expect(JSON.parse(await listLiveJson(database.db, 'timelineEvents', 'seriesId', seriesId, order))).toEqual(JSON.parse(JSON.stringify(await listLive(database.db, 'timelineEvents', 'seriesId', seriesId, order))));
        expect(JSON.parse(await listLiveJson(database.db, 'books', 'seriesId', seriesId))).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it('answer through the routes the same rows, in order, and 404 for foreign ids', async () => {
    const { app, close } = await createTestApp();
    cleanups.push(close);
    const author = await signUp(app);
    const stranger = await signUp(app);
    const series = json(await app.inject({ method: 'POST', url: '/api/series', headers: author.headers, payload: { title: 'Lanterns', totalBooks: 3 } }));
    const get = (url: string, who = author) => app.inject({ method: 'GET', url, headers: { cookie: who.cookie } });
    expect(json(await get(`/api/series/${series.id}/books`))).toEqual([]);
    const books = [];
    for (const title of ['One "quoted"', 'Two \\ back', 'Three ✨']) {
      books.push(json(await app.inject({ method: 'POST', url: '/api/books', headers: author.headers, payload: { seriesId: series.id, title } })));
    }
    const listed = await get(`/api/series/${series.id}/books`);
    expect(listed.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json(listed)).toEqual(books);
    const chapter = json(await app.inject({ method: 'POST', url: '/api/chapters', headers: author.headers, payload: { bookId: books[1].id, title: 'Ch', content: 'Line one\n\nLine "two"' } }));
    expect(json(await get(`/api/books/${books[1].id}/chapters`))).toEqual([chapter]);
    expect((await get(`/api/series/${series.id}/books`, stranger)).statusCode).toBe(404);
    expect((await get(`/api/books/${books[1].id}/chapters`, stranger)).statusCode).toBe(404);
    await app.inject({ method: 'DELETE', url: `/api/books/${books[1].id}`, headers: { cookie: author.cookie } });
    expect((await get(`/api/books/${books[1].id}/chapters`)).statusCode).toBe(404);
    expect(json(await get(`/api/series/${series.id}/books`)).map((b: { title: string }) => b.title)).toEqual(['One "quoted"', 'Three ✨']);
  });
});

describe('cached list reads', () => {
  type Step =
    | { op: 'createBook'; title: string }
    | { op: 'renameBook'; pick: number; title: string }
    | { op: 'deleteBook'; pick: number }
    | { op: 'createChapter'; pick: number; content: string }
    | { op: 'failedWrite'; pick: number }
    | { op: 'batchRename'; pick: number; title: string }
    | { op: 'read' };
  const title = fc.string({ minLength: 1, maxLength: 12 }).filter((t) => t.trim().length > 0);
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ op: fc.constant('createBook' as const), title }),
    fc.record({ op: fc.constant('renameBook' as const), pick: fc.nat(), title }),
    fc.record({ op: fc.constant('deleteBook' as const), pick: fc.nat() }),
    fc.record({ op: fc.constant('createChapter' as const), pick: fc.nat(), content: fc.string({ maxLength: 30 }) }),
    fc.record({ op: fc.constant('failedWrite' as const), pick: fc.nat() }),
    fc.record({ op: fc.constant('batchRename' as const), pick: fc.nat(), title }),
    fc.constant({ op: 'read' as const }),
  );

  it('always answer what the database holds after any mix of writes, failed writes and batches (fast-check)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-cached-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const { app, close } = await createTestApp({ databaseFile: path.join(dir, 'db.sqlite') });
    cleanups.push(close);
    const author = await signUp(app, { plan: 'legendary' });
    const db = app.deps.database.db;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        const series = json(await app.inject({ method: 'POST', url: '/api/series', headers: author.headers, payload: { title: 'Cached' } }));
        const books: string[] = [];
        const pickBook = (n: number) => books[n % Math.max(1, books.length)];
        const checkLists = async () => {
          const listed = await app.inject({ method: 'GET', url: `/api/series/${series.id}/books`, headers: { cookie: author.cookie } });
          expect(json(listed)).toEqual(JSON.parse(JSON.stringify(await listLive(db, 'books', 'seriesId', series.id, ['position', 'createdAt', 'id']))));
          for (const bookId of books) {
            const chapters = await app.inject({ method: 'GET', url: `/api/books/${bookId}/chapters`, headers: { cookie: author.cookie } });
            const live = await listLive(db, 'books', 'seriesId', series.id);
            if (!live.some((b) => b.id === bookId)) expect(chapters.statusCode).toBe(404);
            else expect(json(chapters)).toEqual(JSON.parse(JSON.stringify(await listLive(db, 'chapters', 'bookId', bookId, ['position', 'createdAt', 'id']))));
          }
          // The changes feed answers its series kinds from the same cache (twice: the second from memory).
          const stored = await db.selectFrom('books').select(['id', 'rev', 'title', 'deletedAt']).where('seriesId', '=', series.id).orderBy('rev').orderBy('id').execute();
          for (let i = 0; i < 2; i++) {
            const feed = json(await app.inject({ method: 'GET', url: '/api/sync/changes?since=0&limit=5000', headers: { cookie: author.cookie } }));
            const fed = feed.changes.books
              .filter((b: { seriesId: string }) => b.seriesId === series.id)
              .map(({ id, rev, title, deletedAt }: { id: string; rev: number; title: string; deletedAt: string | null }) => ({ id, rev, title, deletedAt }));
            expect(fed).toEqual(stored);
          }
        };
        for (const s of steps) {
          const bookId = pickBook('pick' in s ? s.pick : 0);
          if (s.op === 'createBook') {
            books.push(json(await app.inject({ method: 'POST', url: '/api/books', headers: author.headers, payload: { seriesId: series.id, title: s.title } })).id);
          } else if (s.op === 'renameBook' && bookId) {
            await app.inject({ method: 'PUT', url: `/api/books/${bookId}`, headers: author.headers, payload: { title: s.title } });
          } else if (s.op === 'deleteBook' && bookId) {
            await app.inject({ method: 'DELETE', url: `/api/books/${bookId}`, headers: { cookie: author.cookie } });
          } else if (s.op === 'createChapter' && bookId) {
            await app.inject({ method: 'POST', url: '/api/chapters', headers: author.headers, payload: { bookId, title: 'Ch', content: s.content } });
          } else if (s.op === 'failedWrite' && bookId) {
            // A write rolled back (422): nothing changes, the lists stay right.
            await app.inject({ method: 'PUT', url: `/api/books/${bookId}`, headers: author.headers, payload: { title: '' } });
          } else if (s.op === 'batchRename' && bookId) {
            await app.inject({
              method: 'POST',
              url: '/api/sync/batch',
              headers: author.headers,
              payload: { entries: [{ method: 'PUT', path: `/api/books/${bookId}`, body: { title: s.title } }, { method: 'PUT', path: `/api/books/${bookId}`, body: { title: '' } }] },
            });
          }
          await checkLists();
        }
      }),
      { numRuns: 40 },
    );
  });

  it('show an acknowledged write to the very next read, even while other writes hold a group open', async () => {
    const { app, close } = await createTestApp();
    cleanups.push(close);
    const author = await signUp(app, { plan: 'legendary' });
    const series = json(await app.inject({ method: 'POST', url: '/api/series', headers: author.headers, payload: { title: 'Fresh' } }));
    const list = async () => json(await app.inject({ method: 'GET', url: `/api/series/${series.id}/books`, headers: { cookie: author.cookie } })).map((b: { title: string }) => b.title);
    expect(await list()).toEqual([]);
    const writes = ['A', 'B', 'C', 'D'].map((t) => app.inject({ method: 'POST', url: '/api/books', headers: author.headers, payload: { seriesId: series.id, title: t } }));
    const reads = writes.map(async (w, i) => {
      await w;
      return list().then((titles) => ({ i, titles }));
    });
    // Every read after a write's answer shows that write. On SQLite the requests also reach the
    // write queue in the order sent, so it shows the earlier ones too; on PostgreSQL a request's
    // reads before its write (the session) are round trips, and a later request may overtake.
    for (const { i, titles } of await Promise.all(reads)) {
      expect(titles).toEqual(expect.arrayContaining(onPostgres ? [['A', 'B', 'C', 'D'][i]] : ['A', 'B', 'C', 'D'].slice(0, i + 1)));
    }
    const final = await list();
    expect(onPostgres ? [...final].sort() : final).toEqual(['A', 'B', 'C', 'D']); // listed by creation: the order they committed in
  });
});

describe('the read cache', () => {
  it('keeps at most 5,000 results and no result over 256 K characters', async () => {
    const database = await fileDatabase();
    const { seriesId } = await seriesOf(database);
    for (let i = 0; i < 6000; i++) await listLiveJson(database.db, 'books', 'seriesId', `no-such-series-${i}`);
    expect(cachedResults(database.db).count).toBeLessThanOrEqual(5000);
    expect(cachedResults(database.db).count).toBeGreaterThan(0);

    const now = new Date().toISOString();
    const long = 'word '.repeat(60_000);
    await database.db
      .insertInto('books')
      .values({ id: newId(), rev: 2, createdAt: now, updatedAt: now, deletedAt: null, seriesId, title: 'Long', description: long, position: 1, status: 'in_progress', wordCount: 0 })
      .execute();
    const before = cachedResults(database.db);
    expect(JSON.parse(await listLiveJson(database.db, 'books', 'seriesId', seriesId))[0].description).toBe(long);
    expect(cachedResults(database.db).size).toBeLessThanOrEqual(before.size);
  });
});
