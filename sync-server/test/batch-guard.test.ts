/**
 * The batch runs only story writes, decided on the route the router matched (issue 16, item 1):
 * encoded and dot-segment paths to sessions and accounts, and nested batches, are refused; a large
 * batch lets other authors' requests through between slices.
 */
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { type BatchEntry, type BatchResult, newId } from '@chronicler/schema';
import { BATCH_SLICE_MS } from '../src/sync/batch.ts';
import { type SignedIn, type TestApp, createTestApp, json, signUp } from './helpers.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function batch(app: FastifyInstance, who: SignedIn, entries: BatchEntry[]) {
  const res = await app.inject({ method: 'POST', url: '/api/sync/batch', headers: who.headers, payload: { entries } });
  expect(res.statusCode).toBe(200);
  return json<BatchResult[]>(res);
}

describe('batch entries are judged on the matched route', () => {
  it('refuses encoded and dot-segment paths to login, register, logout and the batch itself', async () => {
    t = await createTestApp();
    const author = await signUp(t.app, { plan: 'legendary' });
    const other = await signUp(t.app);
    const credentials = { username: other.user.username, password: 'correct horse battery' };
    const results = await batch(t.app, author, [
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

  it('a large batch commits in slices: another author is answered while it runs', async () => {
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
    const running = batch(t.app, alice, entries).then((results) => {
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
    const again = await batch(t.app, alice, entries);
    expect(again.map((r) => r.status)).toEqual(results.map((r) => r.status));
    const chapters = await t.app.deps.database.db.selectFrom('chapters').select('id').execute();
    expect(chapters).toHaveLength(500);
  });
});
