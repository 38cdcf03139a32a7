/**
 * The storage's exclusiveProcess capability (db/database.ts): with DB_SHARED_PROCESSES the server
 * keeps nothing in memory that another process could make stale — the read cache, the direct
 * statements, the session cache and the group commit are off — and still answers every request
 * correctly, seeing at once what a second connection to the same file wrote.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { setUserPlan } from '../../src/auth/users.ts';
import { configFromEnv } from '../../src/config/config.ts';
import { type OpenedDatabase, openDatabase } from '../../src/db/database.ts';
import { cachedResults } from '../../src/db/dialect.ts';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';

let t: TestApp | undefined;
let other: OpenedDatabase | undefined;
afterEach(async () => {
  await t?.close();
  await other?.close();
  t = undefined;
  other = undefined;
});

/** A server on a temp file, a signed-in author with a series and a book, and a second connection to the file. */
async function serverBesideAnotherProcess(sharedProcesses: boolean) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-shared-'));
  const file = path.join(dir, 'db.sqlite');
  t = await createTestApp({ databaseFile: file, sharedProcesses });
  const author = await signUp(t.app);
  const series = json(await t.app.inject({ method: 'POST', url: '/api/series', headers: author.headers, payload: { title: 'Saga' } }));
  const book = json(await t.app.inject({ method: 'POST', url: '/api/books', headers: author.headers, payload: { seriesId: series.id, title: 'One' } }));
  other = await openDatabase(file, { exclusiveProcess: false });
  return { app: t.app, author, series, book, other };
}

const bookTitles = async (app: FastifyInstance, cookie: string, seriesId: string) =>
  json<{ title: string }[]>(await app.inject({ method: 'GET', url: `/api/series/${seriesId}/books`, headers: { cookie } })).map((b) => b.title);

describe('the storage with more than one process (exclusiveProcess off)', () => {
  it('is switched off by DB_SHARED_PROCESSES=true, and is on by default', () => {
    const env = { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-env-')) };
    expect(configFromEnv(env).sharedProcesses).toBe(false);
    expect(configFromEnv({ ...env, DB_SHARED_PROCESSES: 'true' }).sharedProcesses).toBe(true);
  });

  it('answers lists and reads with what another process wrote, at once, from no cache', async () => {
    const { app, author, series, book, other } = await serverBesideAnotherProcess(true);
    expect(app.deps.database.exclusiveProcess).toBe(false);
    expect(await bookTitles(app, author.cookie, series.id)).toEqual(['One']);
    await other.db.updateTable('books').set({ title: 'Renamed elsewhere' }).where('id', '=', book.id).execute();
    expect(await bookTitles(app, author.cookie, series.id)).toEqual(['Renamed elsewhere']);
    // Access is decided from the rows as they are now: a series deleted by the other process is gone.
    await other.db.updateTable('series').set({ deletedAt: new Date().toISOString() }).where('id', '=', series.id).execute();
    expect((await app.inject({ method: 'GET', url: `/api/series/${series.id}/books`, headers: { cookie: author.cookie } })).statusCode).toBe(404);
    expect(cachedResults(app.deps.database.db)).toEqual({ count: 0, size: 0 });
  });

  it('resolves sessions from the database: a plan set or a session ended by another process counts on the next request', async () => {
    const { app, author, other } = await serverBesideAnotherProcess(true);
    const me = () => app.inject({ method: 'GET', url: '/api/user', headers: { cookie: author.cookie } });
    expect(json(await me()).plan).toBe(author.user.plan);
    await setUserPlan({ database: other, hub: null }, author.user.username, 'legendary');
    expect(json(await me()).plan).toBe('legendary');
    await other.db.deleteFrom('sessions').where('userId', '=', author.user.id).execute();
    expect((await me()).statusCode).toBe(401);
  });

  it('commits each write alone, and writes still apply once with their seq', async () => {
    const { app, author, book } = await serverBesideAnotherProcess(true);
    const saves = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        app.inject({ method: 'PUT', url: `/api/books/${book.id}`, headers: { ...author.headers, 'idempotency-key': `save-${n}` }, payload: { title: `Take ${n}` } }),
      ),
    );
    expect(saves.map((res) => res.statusCode)).toEqual([200, 200, 200, 200]);
    const revs = saves.map((res) => json(res).rev as number);
    expect(new Set(revs).size).toBe(4);
    const { commits, members } = app.deps.database.groupCommit.stats;
    expect(members).toBe(commits);
  });

  it('a write that reads first holds the write lock from its start, so another process cannot slip a commit in before its write', async () => {
    const { app, author } = await serverBesideAnotherProcess(true);
    const impatient = new Database(app.deps.database.sqlite!.name);
    impatient.pragma('busy_timeout = 0');
    try {
      const otherWrite = await app.deps.database.groupCommit.run(async (trx) => {
        await trx.selectFrom('syncState').selectAll().execute();
        let refused: unknown = null;
        try {
          impatient.prepare('update users set display_name = ? where id = ?').run('Slipped in', author.user.id);
        } catch (error) {
          refused = error;
        }
        // A deferred transaction would fail here (SQLITE_BUSY_SNAPSHOT) after the commit above.
        await trx.updateTable('syncState').set({ value: 1000 }).where('name', '=', 'seq').execute();
        return refused;
      });
      expect((otherWrite as { code?: string } | null)?.code).toBe('SQLITE_BUSY');
      const seq = impatient.prepare("select value from sync_state where name = 'seq'").pluck().get();
      expect(seq).toBe(1000);
    } finally {
      impatient.close();
    }
  });

  it('with the capability on (one process), the same reads are answered from the cache — which is why it must be off when shared', async () => {
    const { app, author, series, book, other } = await serverBesideAnotherProcess(false);
    expect(app.deps.database.exclusiveProcess).toBe(true);
    expect(await bookTitles(app, author.cookie, series.id)).toEqual(['One']);
    await other.db.updateTable('books').set({ title: 'Renamed elsewhere' }).where('id', '=', book.id).execute();
    expect(await bookTitles(app, author.cookie, series.id)).toEqual(['One']);
    expect(cachedResults(app.deps.database.db).count).toBeGreaterThan(0);
  });
});
