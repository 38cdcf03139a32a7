/**
 * Group commit (db/group-commit.ts, runMutation): concurrent writes share one transaction and one
 * COMMIT, each in its own savepoint, and every answer leaves only after that COMMIT.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '@chronicler/schema';
import { buildApp } from '../../src/app.ts';
import { requireUser } from '../../src/http/caller.ts';
import { testConfig } from '../../src/config/config.ts';
import { GroupCommit } from '../../src/db/group-commit.ts';
import { runMutation } from '../../src/sync/mutation.ts';
import { onPostgres, type SignedIn, json, signUp } from '../support/helpers.ts';

let dir: string;
let file: string;
let app: FastifyInstance;
/** Releases the write that holds its group open (see /api/test/gate). */
let openGate: () => void = () => undefined;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-group-'));
  file = path.join(dir, 'db.sqlite');
  app = await buildApp(testConfig({ databaseFile: file }));
  // Test-only writes, through the one write path like every route.
  app.post('/api/test/gate', async (request, reply) =>
    runMutation(request, reply, requireUser(request).id, async (ctx) => {
      await new Promise<void>((resolve) => (openGate = resolve));
      return { status: 200, body: { seq: ctx.seq } };
    }),
  );
  app.post('/api/test/explode', async (request, reply) =>
    runMutation(request, reply, requireUser(request).id, async (ctx) => {
      await ctx.trx.updateTable('users').set({ displayName: 'half-written' }).where('id', '=', ctx.userId).execute();
      throw new Error('disk on fire');
    }),
  );
  // A write whose foreign-key violation SQLite only checks at COMMIT: the group's COMMIT fails.
  app.post('/api/test/break-commit', async (request, reply) =>
    runMutation(request, reply, requireUser(request).id, async (ctx) => {
      await sql`pragma defer_foreign_keys = on`.execute(ctx.trx);
      await ctx.trx.insertInto('sessions').values({ idHash: newId(), userId: 'nobody', createdAt: ctx.now, expiresAt: ctx.now, lastSeenAt: ctx.now }).execute();
      return { status: 200, body: { seq: ctx.seq } };
    }),
  );
  await app.ready();
  // Generous work time: a test holds a group open on purpose.
  app.deps.database.groupCommit = new GroupCommit(app.deps.database.db, { maxMembers: 64, maxWorkMs: 60_000 });
});

afterEach(async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const seqNow = async () =>
  Number((await app.deps.database.db.selectFrom('syncState').select('value').where('name', '=', 'seq').executeTakeFirstOrThrow()).value);

async function storyOf(author: SignedIn) {
  const series = json(await app.inject({ method: 'POST', url: '/api/series', headers: author.headers, payload: { title: 'Grouped' } }));
  const book = json(await app.inject({ method: 'POST', url: '/api/books', headers: author.headers, payload: { seriesId: series.id, title: 'Book' } }));
  return { series, book };
}

/** Resolves once `n` writes wait in the queue behind the one holding the group open. */
async function queued(n: number): Promise<void> {
  while (app.deps.database.groupCommit.waiting < n) await new Promise((resolve) => setTimeout(resolve, 2));
}

const createChapter = (author: SignedIn, bookId: string, title: string, key?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/chapters',
    headers: { ...author.headers, ...(key ? { 'idempotency-key': key } : {}) },
    payload: { bookId, title, content: `Text of ${title}.` },
  });

describe('group commit', () => {
  // SQLite's file and connection itself (the PostgreSQL storage has its own tests: test/db/postgres/).
  it.skipIf(onPostgres)('commits concurrent writes together, with distinct seqs, each answered only once durable', async () => {
    const author = await signUp(app, { plan: 'legendary' });
    const { book } = await storyOf(author);
    const before = { ...app.deps.database.groupCommit.stats };
    const reader = new Database(file, { readonly: true });
    const committed = reader.prepare('select count(*) from chapters where id = ?').pluck();
    try {
      const N = 20;
      // Each answer is checked the moment it arrives, through a second connection that sees only
      // committed rows.
      const seenDurable: boolean[] = [];
      const answers = await Promise.all(
        Array.from({ length: N }, (_, i) =>
          createChapter(author, book.id, `Chapter ${i}`).then((res) => {
            seenDurable.push(res.statusCode === 201 && committed.get(json(res).id) === 1);
            return res;
          }),
        ),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(Array(N).fill(201));
      expect(seenDurable).toEqual(Array(N).fill(true));
      const revs = answers.map((a) => json(a).rev as number);
      expect(new Set(revs).size).toBe(N);
      const stats = app.deps.database.groupCommit.stats;
      expect(stats.members - before.members).toBe(N);
      expect(stats.commits - before.commits).toBeLessThan(N);
    } finally {
      reader.close();
    }
  });

  it('answers nothing of a group before its COMMIT, and a failing member rolls back alone', async () => {
    const author = await signUp(app, { plan: 'legendary' });
    const { book } = await storyOf(author);
    const seq = await seqNow();
    const orphanBook = newId();
    const commitsBefore = app.deps.database.groupCommit.stats.commits;

    const settled: string[] = [];
    const track = (name: string, p: Promise<LightMyRequestResponse>) => p.then((res) => (settled.push(name), res));
    const gate = track('gate', app.inject({ method: 'POST', url: '/api/test/gate', headers: author.headers, payload: {} }));
    await queued(0);
    await new Promise((resolve) => setTimeout(resolve, 20)); // the gate write is running
    const writes = [
      track('a', createChapter(author, book.id, 'A', 'key-a')),
      track('missing', createChapter(author, orphanBook, 'Orphan', 'key-missing')),
      track('explode', app.inject({ method: 'POST', url: '/api/test/explode', headers: author.headers, payload: {} })),
      track('invalid', app.inject({ method: 'POST', url: '/api/chapters', headers: author.headers, payload: { bookId: book.id, title: '' } })),
      track('b', createChapter(author, book.id, 'B', 'key-b')),
    ];
    // The invalid body never reaches the queue (validation answers first); the other four wait.
    await queued(4);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toEqual(['invalid']);
    openGate();
    const [g, a, missing, explode, invalid, b] = (await Promise.all([gate, ...writes])) as [
      LightMyRequestResponse, LightMyRequestResponse, LightMyRequestResponse, LightMyRequestResponse, LightMyRequestResponse, LightMyRequestResponse,
    ];

    expect(app.deps.database.groupCommit.stats.commits - commitsBefore).toBe(1);
    expect([g, a, missing, explode, invalid, b].map((r) => r.statusCode)).toEqual([200, 201, 404, 500, 422, 201]);
    expect(json(explode)).toEqual({ message: expect.any(String), code: 'INTERNAL' });
    // Seqs in queue order; the rolled-back members took none that stuck.
    expect([json(g).seq, json(a).rev, json(b).rev]).toEqual([seq + 1, seq + 2, seq + 3]);
    expect(await seqNow()).toBe(seq + 3);
    const user = await app.deps.database.db.selectFrom('users').select('displayName').where('id', '=', author.user.id).executeTakeFirstOrThrow();
    expect(user.displayName).not.toBe('half-written');
    // The 404 was recorded in the group, so its replay answers the same.
    const replay = await createChapter(author, orphanBook, 'Orphan', 'key-missing');
    expect(replay.statusCode).toBe(404);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  // SQLite's file and connection itself (the PostgreSQL storage has its own tests: test/db/postgres/).
  it.skipIf(onPostgres)('a failed COMMIT answers 5xx to every member and applies nothing; their retries apply once', async () => {
    const author = await signUp(app, { plan: 'legendary' });
    const { book } = await storyOf(author);
    const seq = await seqNow();
    const chapters = async () => (await app.deps.database.db.selectFrom('chapters').select('title').execute()).map((c) => c.title).sort();
    const before = { ...app.deps.database.groupCommit.stats };

    const gate = app.inject({ method: 'POST', url: '/api/test/gate', headers: author.headers, payload: {} });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const members = [
      createChapter(author, book.id, 'A', 'retry-a'),
      app.inject({ method: 'POST', url: '/api/test/break-commit', headers: author.headers, payload: {} }),
      createChapter(author, book.id, 'B', 'retry-b'),
      createChapter(author, newId(), 'Orphan', 'retry-missing'),
    ];
    await queued(members.length);
    openGate();
    const answers = await Promise.all([gate, ...members]);

    expect(answers.map((r) => r.statusCode)).toEqual([500, 500, 500, 500, 500]);
    for (const answer of answers) expect(json(answer)).toEqual({ message: expect.any(String), code: 'INTERNAL' });
    expect(app.deps.database.groupCommit.stats.failedCommits - before.failedCommits).toBe(1);
    expect(await seqNow()).toBe(seq);
    expect(await chapters()).toEqual([]);
    expect(await app.deps.database.db.selectFrom('idempotencyKeys').select('key').where('key', 'like', 'retry-%').execute()).toEqual([]);
    expect(app.deps.database.sqlite!.inTransaction).toBe(false);

    // The client retries with the same keys: each applies once, as a first answer.
    const retried = await Promise.all([createChapter(author, book.id, 'A', 'retry-a'), createChapter(author, book.id, 'B', 'retry-b')]);
    expect(retried.map((r) => [r.statusCode, r.headers['idempotent-replayed']])).toEqual([
      [201, undefined],
      [201, undefined],
    ]);
    expect((await createChapter(author, newId(), 'Orphan', 'retry-missing')).headers['idempotent-replayed']).toBeUndefined();
    expect(await chapters()).toEqual(['A', 'B']);
  });

  it('a group takes at most maxMembers writes', async () => {
    const author = await signUp(app, { plan: 'legendary' });
    const { book } = await storyOf(author);
    app.deps.database.groupCommit = new GroupCommit(app.deps.database.db, { maxMembers: 3, maxWorkMs: 60_000 });
    const gate = app.inject({ method: 'POST', url: '/api/test/gate', headers: author.headers, payload: {} });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const creates = Array.from({ length: 7 }, (_, i) => createChapter(author, book.id, `C${i}`));
    await queued(7);
    openGate();
    const answers = await Promise.all([gate, ...creates]);
    expect(answers.every((a) => a.statusCode < 300)).toBe(true);
    // gate + 2, then 3, then 2
    expect(app.deps.database.groupCommit.stats).toEqual({ commits: 3, members: 8, failedCommits: 0 });
  });

  it('a group stops taking writes after maxWorkMs of work', async () => {
    const author = await signUp(app, { plan: 'legendary' });
    const { book } = await storyOf(author);
    app.deps.database.groupCommit = new GroupCommit(app.deps.database.db, { maxMembers: 64, maxWorkMs: 0 });
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => createChapter(author, book.id, `C${i}`)));
    expect(answers.every((a) => a.statusCode === 201)).toBe(true);
    expect(app.deps.database.groupCommit.stats).toEqual({ commits: 5, members: 5, failedCommits: 0 });
  });

  it('a group smaller than the last waits (bounded) for the rest of its wave; a lone writer never waits', async () => {
    const author = await signUp(app, { plan: 'legendary' });
    const { book } = await storyOf(author);
    app.deps.database.groupCommit = new GroupCommit(app.deps.database.db, { maxMembers: 64, maxWorkMs: 60_000, maxWaitMs: 300 });
    const stats = () => ({ ...app.deps.database.groupCommit.stats });
    // A group of three: the gate holds it open while two more join.
    const gate = app.inject({ method: 'POST', url: '/api/test/gate', headers: author.headers, payload: {} });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const held = [createChapter(author, book.id, 'H1'), createChapter(author, book.id, 'H2')];
    await queued(2);
    openGate();
    await Promise.all([gate, ...held]);
    expect(stats()).toMatchObject({ commits: 1, members: 3 });
    // The next wave's first write arrives alone; the others 30 ms later still share its COMMIT.
    const first = createChapter(author, book.id, 'W1');
    await new Promise((resolve) => setTimeout(resolve, 30));
    const rest = [createChapter(author, book.id, 'W2'), createChapter(author, book.id, 'W3')];
    const wave = await Promise.all([first, ...rest]);
    expect(wave.every((a) => a.statusCode === 201)).toBe(true);
    expect(stats()).toMatchObject({ commits: 2, members: 6 });
    // A wave that does not come costs at most the bound: W4 commits alone, then lone writes wait for no one.
    const started = performance.now();
    expect((await createChapter(author, book.id, 'W4')).statusCode).toBe(201);
    expect(performance.now() - started).toBeLessThan(2_000);
    app.deps.database.groupCommit = new GroupCommit(app.deps.database.db, { maxMembers: 64, maxWorkMs: 60_000, maxWaitMs: 60_000 });
    const lone = performance.now();
    for (const title of ['L1', 'L2']) expect((await createChapter(author, book.id, title)).statusCode).toBe(201);
    expect(performance.now() - lone).toBeLessThan(2_000);
    expect(app.deps.database.groupCommit.stats).toEqual({ commits: 2, members: 2, failedCommits: 0 });
  });

  it('a read arriving during a group waits for its COMMIT', async () => {
    const author = await signUp(app, { plan: 'legendary' });
    const { book } = await storyOf(author);
    const gate = app.inject({ method: 'POST', url: '/api/test/gate', headers: author.headers, payload: {} });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const create = createChapter(author, book.id, 'Pending');
    await queued(1);
    const list = app.inject({ method: 'GET', url: `/api/books/${book.id}/chapters`, headers: { cookie: author.cookie } });
    openGate();
    const [, created, listed] = await Promise.all([gate, create, list]);
    expect(created.statusCode).toBe(201);
    // The read ran after the group released the connection: committed, so it sees the chapter.
    expect(json(listed).map((c: { title: string }) => c.title)).toEqual(['Pending']);
  });
});
