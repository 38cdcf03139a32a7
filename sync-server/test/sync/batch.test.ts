import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { type BatchEntry, type BatchResult, newId } from '@chronicler/schema';
import { buildApp } from '../../src/app.ts';
import { requireUser } from '../../src/http/caller.ts';
import { testConfig } from '../../src/config/config.ts';
import { runInSharedTransaction } from '../../src/db/shared-transaction.ts';
import { runMutation } from '../../src/sync/mutation.ts';
import { BATCH_SLICE_MS } from '../../src/sync/batch.ts';
import { onPostgres, type SignedIn, type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function batch(app: FastifyInstance, who: SignedIn, entries: BatchEntry[]) {
  const res = await app.inject({ method: 'POST', url: '/api/sync/batch', headers: who.headers, payload: { entries } });
  return { res, results: res.statusCode === 200 ? json<BatchResult[]>(res) : [] };
}

const count = async (app: FastifyInstance, table: 'series' | 'books' | 'chapters') =>
  Number((await app.deps.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe('POST /api/sync/batch', () => {
  it('runs entries in order through their routes, each its own write with a fresh seq', async () => {
    t = await createTestApp();
    const author = await signUp(t.app, { plan: 'legendary' });
    const seriesId = newId();
    const bookId = newId();
    const entries: BatchEntry[] = [
      { method: 'POST', path: '/api/series', headers: { idempotencyKey: 'e1' }, body: { id: seriesId, title: 'Batched' } },
      { method: 'POST', path: '/api/books', headers: { idempotencyKey: 'e2' }, body: { id: bookId, seriesId, title: 'Book' } },
      ...Array.from({ length: 5 }, (_, i): BatchEntry => ({
        method: 'POST', path: '/api/chapters', headers: { idempotencyKey: `c${i}` }, body: { bookId, title: `Chapter ${i}`, content: 'a b c' },
      })),
      { method: 'PUT', path: `/api/series/${seriesId}`, headers: { idempotencyKey: 'e3', baseRev: 0, mutationId: 'm3' }, body: { description: 'edited' } },
    ];
    const { res, results } = await batch(t.app, author, entries);
    expect(res.statusCode).toBe(200);
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201, 201, 200]);
    const revs = results.map((r) => (r.body as { rev: number }).rev);
    expect(new Set(revs).size).toBe(revs.length);
    expect([...revs].sort((a, b) => a - b)).toEqual(revs);
    expect((results[7]!.body as { description: string }).description).toBe('edited');
    expect(await count(t.app, 'chapters')).toBe(5);

    // The same batch again: every entry is a replay with the same answer, nothing applies twice.
    const again = await batch(t.app, author, entries);
    expect(again.results).toEqual(results);
    expect(await count(t.app, 'chapters')).toBe(5);
    // Entries answer like their REST calls would.
    const direct = await t.app.inject({ method: 'GET', url: `/api/series/${seriesId}`, headers: { cookie: author.cookie } });
    const { mergeStatus, ...updated } = results[7]!.body as Record<string, unknown>;
    expect(mergeStatus).toBeTypeOf('string');
    expect(json(direct)).toEqual(updated);
  });

  it('a 4xx entry is answered and rolled back alone; later entries still run', async () => {
    t = await createTestApp();
    const author = await signUp(t.app); // apprentice: one series
    const { results } = await batch(t.app, author, [
      { method: 'POST', path: '/api/series', headers: { idempotencyKey: 'a' }, body: { title: 'One' } },
      { method: 'POST', path: '/api/series', headers: { idempotencyKey: 'b' }, body: { title: 'Two, over the limit' } },
      { method: 'POST', path: '/api/books', headers: { idempotencyKey: 'c' }, body: { seriesId: newId(), title: 'Orphan' } },
      { method: 'POST', path: '/api/series', body: { title: '' } },
      { method: 'POST', path: '/api/logout' },
      { method: 'PUT', path: '/api/nowhere', body: {} },
      { method: 'POST', path: '/api/sync/batch', body: { entries: [] } },
      { method: 'PUT', path: '/api/series/x', headers: { idempotencyKey: 'd' }, body: { title: 'Not mine' } },
    ]);
    expect(results.map((r) => r.status)).toEqual([201, 403, 404, 422, 400, 404, 400, 404]);
    expect((results[1]!.body as { code: string }).code).toBe('PLAN_LIMIT');
    expect(await count(t.app, 'series')).toBe(1);
    expect(await count(t.app, 'books')).toBe(0);
    // The session survived the batch (logout was refused).
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: author.cookie } })).statusCode).toBe(200);
    // Recorded 4xx answers replay, inside a batch or not.
    const replay = await t.app.inject({ method: 'POST', url: '/api/series', headers: { ...author.headers, 'idempotency-key': 'b' }, payload: { title: 'Two, over the limit' } });
    expect(replay.statusCode).toBe(403);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('validates the batch itself and needs a session', async () => {
    t = await createTestApp();
    const author = await signUp(t.app);
    expect((await t.app.inject({ method: 'POST', url: '/api/sync/batch', payload: { entries: [{ method: 'POST', path: '/api/series', body: { title: 'x' } }] } })).statusCode).toBe(401);
    const tooMany = Array.from({ length: 501 }, (): BatchEntry => ({ method: 'POST', path: '/api/series', body: { title: 'x' } }));
    for (const entries of [[], tooMany, [{ method: 'GET', path: '/api/series' }], [{ method: 'POST', path: 'http://evil/api' }], [{ method: 'POST', path: '/api/series', extra: 1 }]]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/sync/batch', headers: author.headers, payload: { entries } });
      expect(res.statusCode).toBe(422);
    }
    expect(await count(t.app, 'series')).toBe(0);
  });

  // SQLite's file and connection itself (the PostgreSQL storage has its own tests: test/db/postgres/).
  it.skipIf(onPostgres)('commits all entries as one transaction and pokes SSE listeners after it', async () => {
    t = await createTestApp();
    const author = await signUp(t.app, { plan: 'legendary' });
    const sqlite = t.app.deps.database.sqlite!;
    const seen: { seq: number; inTransaction: boolean; seriesStored: number }[] = [];
    t.app.deps.hub.subscribe((notice) =>
      seen.push({
        seq: notice.seq,
        inTransaction: sqlite.inTransaction,
        seriesStored: Number(sqlite.prepare('select count(*) from series').pluck().get()),
      }),
    );
    const { results } = await batch(t.app, author, [
      { method: 'POST', path: '/api/series', body: { title: 'One' } },
      { method: 'POST', path: '/api/series', body: { title: 'Two' } },
      { method: 'POST', path: '/api/series', body: { title: 'Three' } },
    ]);
    expect(seen.map((s) => s.seq)).toEqual(results.map((r) => (r.body as { rev: number }).rev));
    // One transaction: by the first poke every entry is committed, not just the first.
    expect(seen).toEqual(seen.map((s) => ({ ...s, inTransaction: false, seriesStored: 3 })));
  });

  // Needs every entry done within BATCH_BUDGET_MS (5 s). On PostgreSQL each entry is ~10 round
  // trips: on a loaded 2-core machine 500 entries overrun it (the unanswered rest would be resent
  // by the client). Left to SQLite until measured on PostgreSQL on a quiet machine.
  it.skipIf(onPostgres)('runs beside other requests without deadlock or leaking uncommitted rows', async () => {
    t = await createTestApp();
    const alice = await signUp(t.app, { plan: 'legendary' });
    const bob = await signUp(t.app, { plan: 'legendary' });
    const entries = Array.from({ length: 50 }, (_, i): BatchEntry => ({ method: 'POST', path: '/api/series', body: { title: `A${i}` } }));
    const [a, ...others] = await Promise.all([
      batch(t.app, alice, entries),
      ...Array.from({ length: 10 }, (_, i) => t!.app.inject({ method: 'POST', url: '/api/series', headers: bob.headers, payload: { title: `B${i}` } })),
      t.app.inject({ method: 'GET', url: '/api/sync/changes?since=0', headers: { cookie: bob.cookie } }),
    ]);
    expect(a.results.every((r) => r.status === 201)).toBe(true);
    expect(others.slice(0, 10).every((r) => r.statusCode === 201)).toBe(true);
    expect(JSON.stringify(json(others[10]!))).not.toMatch(/"A\d+"/);
    expect(await count(t.app, 'series')).toBe(60);
  });

  // Needs every entry done within BATCH_BUDGET_MS (5 s). On PostgreSQL each entry is ~10 round
  // trips: on a loaded 2-core machine 500 entries overrun it (the unanswered rest would be resent
  // by the client). Left to SQLite until measured on PostgreSQL on a quiet machine.
  it.skipIf(onPostgres)('measures one batch against one request per write on a real file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-batch-'));
    try {
      t = await createTestApp({ databaseFile: path.join(dir, 'db.sqlite') });
      const author = await signUp(t.app, { plan: 'legendary' });
      const book = await (async () => {
        const s = json(await t!.app.inject({ method: 'POST', url: '/api/series', headers: author.headers, payload: { title: 'S' } }));
        return json(await t!.app.inject({ method: 'POST', url: '/api/books', headers: author.headers, payload: { seriesId: s.id, title: 'B' } }));
      })();
      const N = 100;
      const body = (i: number) => ({ bookId: book.id, title: `Chapter ${i}`, content: 'Some words of text. '.repeat(20) });
      let started = performance.now();
      for (let i = 0; i < N; i++) {
        const res = await t.app.inject({ method: 'POST', url: '/api/chapters', headers: { ...author.headers, 'idempotency-key': `s${i}` }, payload: body(i) });
        expect(res.statusCode).toBe(201);
      }
      const single = performance.now() - started;
      started = performance.now();
      const { results } = await batch(t.app, author, Array.from({ length: N }, (_, i) => ({ method: 'POST', path: '/api/chapters', headers: { idempotencyKey: `b${i}` }, body: body(i) })));
      const batched = performance.now() - started;
      expect(results.every((r) => r.status === 201)).toBe(true);
      // Printed, not asserted: on a shared, loaded machine handler CPU time swamps the saved fsyncs.
      console.log(`batch: ${N} chapter creates — one request each ${single.toFixed(0)} ms, one batch ${batched.toFixed(0)} ms (${(single / batched).toFixed(1)}×)`);
      expect(await count(t.app, 'chapters')).toBe(2 * N);
    } finally {
      await t?.close();
      t = undefined;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a transient failure stops the batch', () => {
  it('answers up to the 5xx entry; earlier entries commit, the failing one rolls back, later ones never run', async () => {
    const app = await buildApp(testConfig());
    try {
      // A write route that fails on the server after writing: the shape of a real 5xx.
      app.post('/api/test/explode', { config: { batchable: true } }, async (request, reply) =>
        runMutation(request, reply, requireUser(request).id, async (ctx) => {
          await ctx.trx.updateTable('users').set({ displayName: 'half-written' }).where('id', '=', ctx.userId).execute();
          throw new Error('disk on fire');
        }),
      );
      await app.ready();
      const author = await signUp(app, { plan: 'legendary' });
      const { results } = await batch(app, author, [
        { method: 'POST', path: '/api/series', headers: { idempotencyKey: 'before' }, body: { title: 'Before' } },
        { method: 'POST', path: '/api/test/explode', headers: { idempotencyKey: 'boom' }, body: {} },
        { method: 'POST', path: '/api/series', headers: { idempotencyKey: 'after' }, body: { title: 'After' } },
      ]);
      expect(results.map((r) => r.status)).toEqual([201, 500]);
      expect((results[1]!.body as { code: string }).code).toBe('INTERNAL');
      const titles = (await app.deps.database.db.selectFrom('series').select('title').execute()).map((r) => r.title);
      expect(titles).toEqual(['Before']);
      const user = await app.deps.database.db.selectFrom('users').select('displayName').where('id', '=', author.user.id).executeTakeFirstOrThrow();
      expect(user.displayName).not.toBe('half-written');
      // 5xx answers are not recorded: the client may retry the entry.
      const keys = await app.deps.database.db.selectFrom('idempotencyKeys').select('key').execute();
      expect(keys.map((k) => k.key)).toEqual(['before']);
    } finally {
      await app.close();
    }
  });
});

describe('runInSharedTransaction', () => {
  // SQLite's file and connection itself (the PostgreSQL storage has its own tests: test/db/postgres/).
  it.skipIf(onPostgres)('rolls everything back when the scope throws, and commits nothing partial', async () => {
    t = await createTestApp();
    const author = await signUp(t.app);
    const { db } = t.app.deps.database;
    await expect(
      runInSharedTransaction(async () => {
        await db.updateTable('users').set({ displayName: 'inside' }).where('id', '=', author.user.id).execute();
        await db.transaction().execute(async (trx) => {
          await trx.updateTable('users').set({ email: 'nested@example.com' }).where('id', '=', author.user.id).execute();
        });
        throw new Error('abandon');
      }),
    ).rejects.toThrow('abandon');
    const row = await db.selectFrom('users').select(['displayName', 'email']).where('id', '=', author.user.id).executeTakeFirstOrThrow();
    expect(row.displayName).not.toBe('inside');
    expect(row.email).toBeNull();
    expect(t.app.deps.database.sqlite!.inTransaction).toBe(false);
    // The connection was released: ordinary queries run.
    expect(await count(t.app, 'series')).toBe(0);
  });
});

// Entries are judged on the route the router matched (encoded and dot-segment
// paths to sessions, accounts and the batch itself are refused); a large batch lets other
// authors through between slices.
describe('batch entries are judged on the matched route', () => {
  it('refuses encoded and dot-segment paths to login, register, logout and the batch itself', async () => {
    t = await createTestApp();
    const author = await signUp(t.app, { plan: 'legendary' });
    const other = await signUp(t.app);
    const credentials = { username: other.user.username, password: 'correct horse battery' };
    const { results } = await batch(t.app, author, [
      { method: 'POST', path: '/api/%6cogin', body: credentials },
      { method: 'POST', path: '/api/x/../login', body: credentials },
      { method: 'POST', path: '/api/auth/%6cogin', body: credentials },
      { method: 'POST', path: '/api/%72egister', body: { username: 'batched', password: 'a fine passphrase', displayName: 'B' } },
      { method: 'POST', path: '/api/%6cogout' },
      { method: 'POST', path: '/api/%73ync/batch', body: { entries: [{ method: 'POST', path: '/api/series', body: { title: 'nested' } }] } },
      { method: 'POST', path: '/api//sync/./batch', body: { entries: [{ method: 'POST', path: '/api/series', body: { title: 'nested' } }] } },
      { method: 'POST', path: '/api/%73eries', body: { title: 'Encoded but batchable' } },
    ]);
    expect(results.map((r) => r.status)).toEqual([400, 400, 400, 400, 400, 400, expect.any(Number), 201]);
    expect(results[6]!.status).not.toBe(200);
    const titles = (await t.app.deps.database.db.selectFrom('series').select('title').execute()).map((r) => r.title);
    expect(titles).toEqual(['Encoded but batchable']);
    expect(await t.app.deps.database.db.selectFrom('users').select('username').where('username', '=', 'batched').execute()).toEqual([]);
    // The caller's session survived, and no session was made for the other author.
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: author.cookie } })).statusCode).toBe(200);
    const sessions = await t.app.deps.database.db.selectFrom('sessions').select('userId').where('userId', '=', other.user.id).execute();
    expect(sessions).toHaveLength(1);
  });

  // Needs every entry done within BATCH_BUDGET_MS (5 s). On PostgreSQL each entry is ~10 round
  // trips: on a loaded 2-core machine 500 entries overrun it (the unanswered rest would be resent
  // by the client). Left to SQLite until measured on PostgreSQL on a quiet machine.
  it.skipIf(onPostgres)('a large batch commits in slices: another author is answered while it runs', async () => {
    t = await createTestApp();
    const alice = await signUp(t.app, { plan: 'legendary' });
    const bob = await signUp(t.app, { plan: 'legendary' });
    const series = json(await t.app.inject({ method: 'POST', url: '/api/series', headers: alice.headers, payload: { title: 'S' } }));
    const book = json(await t.app.inject({ method: 'POST', url: '/api/books', headers: alice.headers, payload: { seriesId: series.id, title: 'B' } }));
    const entries = Array.from({ length: 500 }, (_, i): BatchEntry => ({
      method: 'POST',
      path: '/api/chapters',
      headers: { idempotencyKey: `k${i}` },
      body: { id: newId(), bookId: book.id, title: `Chapter ${i}`, content: 'Some words of text. '.repeat(50) },
    }));
    const started = performance.now();
    let batchDoneAt = 0;
    const running = batch(t.app, alice, entries).then(({ results }) => {
      batchDoneAt = performance.now();
      return results;
    });
    // Bob asks once the batch is under way; he is answered long before the batch ends.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const bobAsked = performance.now();
    const bobRes = await t.app.inject({ method: 'GET', url: '/api/series', headers: { cookie: bob.cookie } });
    const bobAnsweredAt = performance.now();
    const results = await running;
    expect(bobRes.statusCode).toBe(200);
    expect(results).toHaveLength(500);
    expect(results.every((r) => r.status === 201)).toBe(true);
    const batchMs = batchDoneAt - started;
    // Only meaningful when the batch outlasts a few slices (it does by far on any machine).
    expect(batchMs).toBeGreaterThan(4 * BATCH_SLICE_MS);
    expect(bobAnsweredAt).toBeLessThan(batchDoneAt);
    expect(bobAnsweredAt - bobAsked).toBeLessThan(batchMs / 2);
    // Exactly once across slices: the same batch again creates nothing.
    const { results: again } = await batch(t.app, alice, entries);
    expect(again.map((r) => r.status)).toEqual(results.map((r) => r.status));
    const chapters = await t.app.deps.database.db.selectFrom('chapters').select('id').execute();
    expect(chapters).toHaveLength(500);
  });
});
