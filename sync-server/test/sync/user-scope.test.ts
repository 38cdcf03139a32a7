/**
 * User-scoped synced rows (packages/sync-client README, "How to add a user-scoped kind"), proved
 * with the author's own record (`users`): it travels through the changes feed to its owner only,
 * pages like any row, and a write of it pokes only its owner's streams — also when another process
 * (the operator command) writes it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChangesResponse, ENTITY_KINDS, type UserRecord, userRecordSchema } from '@chronicler/schema';
import { setUserPlan } from '../../src/auth/users.ts';
import { type OpenedDatabase, openDatabase } from '../../src/db/database.ts';
import { loadAccessible } from '../../src/entities/queries.ts';
import { loadOwnRow, markUserChanged } from '../../src/entities/user-rows.ts';
import { runServerWrite } from '../../src/sync/mutation.ts';
import { FOREIGN_COMMIT_POLL_MS, watchForeignCommits } from '../../src/sync/foreign-commits.ts';
import { onPostgres, type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { type EventStream, openEvents } from '../support/event-stream.ts';
import { seedSeries } from '../support/sync-seed.ts';

let t: TestApp | undefined;
let other: OpenedDatabase | undefined;
const streams: EventStream[] = [];
afterEach(async () => {
  for (const s of streams.splice(0)) s.close();
  await t?.close();
  await other?.close();
  t = undefined;
  other = undefined;
});

const feed = async (app: FastifyInstance, cookie: string, since: number, limit = 2000) =>
  json<ChangesResponse>(await app.inject({ method: 'GET', url: `/api/sync/changes?since=${since}&limit=${limit}`, headers: { cookie } }));

const setTimeZone = (app: FastifyInstance, headers: Record<string, string>, timeZone: string | null) =>
  app.inject({ method: 'PUT', url: '/api/user/settings', headers, payload: { timeZone } });

const seqOf = (data: string) => (JSON.parse(data) as { seq: number }).seq;

describe('the author record as a user-scoped synced row', () => {
  it('reaches its owner on the first pull, and a settings change on the next one — alone', async () => {
    t = await createTestApp();
    const alice = await signUp(t.app);
    const first = await feed(t.app, alice.cookie, 0);
    expect(first.changes.users).toHaveLength(1);
    const record = first.changes.users[0]!;
    expect(userRecordSchema.strict().parse(record)).toMatchObject({ id: alice.user.id, userId: alice.user.id, plan: 'apprentice', timeZone: null, deletedAt: null });

    const saved = await setTimeZone(t.app, alice.headers, 'Europe/Paris');
    expect(saved.statusCode, saved.body).toBe(200);
    expect(json<UserRecord>(saved)).toMatchObject({ timeZone: 'Europe/Paris', rev: first.cursor + 1 });
    const next = await feed(t.app, alice.cookie, first.cursor);
    expect(next.changes.users.map((u) => [u.id, u.timeZone, u.rev])).toEqual([[alice.user.id, 'Europe/Paris', first.cursor + 1]]);
    expect(ENTITY_KINDS.filter((k) => k !== 'users').every((k) => next.changes[k].length === 0)).toBe(true);
    expect((await feed(t.app, alice.cookie, next.cursor)).changes.users).toEqual([]);
  });

  it('refuses a zone Intl does not know with a clear message, and unknown fields', async () => {
    t = await createTestApp();
    const alice = await signUp(t.app);
    const bad = await setTimeZone(t.app, alice.headers, 'Atlantis/Capital');
    expect(bad.statusCode).toBe(422);
    expect(json(bad).message).toContain('Unknown time zone');
    const plan = await t.app.inject({ method: 'PUT', url: '/api/user/settings', headers: alice.headers, payload: { plan: 'legendary' } });
    expect(plan.statusCode).toBe(422);
    expect((await feed(t.app, alice.cookie, 0)).changes.users[0]).toMatchObject({ plan: 'apprentice', timeZone: null });
    expect((await t.app.inject({ method: 'PUT', url: '/api/user/settings', payload: { timeZone: 'UTC' } })).statusCode).toBe(401);
  });

  it("never sends one author's record to another, whatever the cursor", async () => {
    t = await createTestApp();
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    await setTimeZone(t.app, alice.headers, 'Asia/Tokyo');
    await runServerWrite(t.app.deps, (ctx) => markUserChanged(ctx, alice.user.id, { plan: 'loremaster' }));
    for (const since of [0, 1, 2, 3]) {
      const page = await feed(t.app, bob.cookie, since);
      expect(page.changes.users.every((u) => u.id === bob.user.id && u.userId === bob.user.id)).toBe(true);
    }
    const mine = await feed(t.app, alice.cookie, 0);
    expect(mine.changes.users).toEqual([expect.objectContaining({ id: alice.user.id, plan: 'loremaster', timeZone: 'Asia/Tokyo' })]);
    // A route reading one user-scoped row: its owner's, never anyone else's (404, as an unknown id).
    const { db } = t.app.deps.database;
    expect(await loadOwnRow(db, 'users', alice.user.id, alice.user.id)).toMatchObject({ plan: 'loremaster' });
    await expect(loadOwnRow(db, 'users', alice.user.id, bob.user.id)).rejects.toMatchObject({ statusCode: 404 });
    // Series access does not apply to them: a caller using it by mistake learns so at once.
    await expect(loadAccessible(db, 'users', alice.user.id, alice.user.id)).rejects.toThrow('read them with loadOwnRow');
  });

  it('pages user rows with series rows without splitting a seq, to the same result as one read', async () => {
    t = await createTestApp();
    const alice = await signUp(t.app);
    const zones = ['Europe/Paris', 'America/New_York', 'UTC'];
    for (const [i, zone] of zones.entries()) {
      await seedSeries(t.app, alice.user.id, `S${i}`);
      expect((await setTimeZone(t.app, alice.headers, zone)).statusCode).toBe(200);
    }
    const whole = await feed(t.app, alice.cookie, 0);
    for (const limit of [1, 2, 3]) {
      let since = 0;
      const seen: { kind: string; id: string; rev: number }[] = [];
      for (let pages = 0; pages < 50; pages++) {
        const page = await feed(t.app, alice.cookie, since, limit);
        const rows = ENTITY_KINDS.flatMap((kind) => (page.changes[kind] as { id: string; rev: number }[]).map((r) => ({ kind, id: r.id, rev: r.rev })));
        // Never split a seq: everything at a seq this page holds is in this page.
        for (const row of rows) expect(row.rev).toBeLessThanOrEqual(page.cursor);
        seen.push(...rows);
        since = page.cursor;
        if (!page.hasMore) break;
      }
      const latest = new Map(seen.map((r) => [`${r.kind}:${r.id}`, r.rev]));
      const expected = new Map(ENTITY_KINDS.flatMap((kind) => (whole.changes[kind] as { id: string; rev: number }[]).map((r) => [`${kind}:${r.id}`, r.rev] as const)));
      expect(latest).toEqual(expected);
      expect(since).toBe(whole.cursor);
    }
    expect(whole.changes.users[0]!.timeZone).toBe('UTC');
  });
});

describe('pokes for user-scoped writes', () => {
  async function listening(options: { databaseFile?: string } = {}): Promise<{ app: FastifyInstance; base: string }> {
    t = await createTestApp(options);
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    return { app: t.app, base };
  }
  async function connect(base: string, cookie: string): Promise<EventStream> {
    const stream = await openEvents(base, cookie);
    streams.push(stream);
    expect((await stream.next()).event).toBe('hello');
    return stream;
  }

  it("reach the owner's streams only", async () => {
    const { app, base } = await listening();
    const alice = await signUp(app);
    const bob = await signUp(app);
    const alicesStream = await connect(base, alice.cookie);
    const bobsStream = await connect(base, bob.cookie);
    const saved = json<UserRecord>(await setTimeZone(app, alice.headers, 'Europe/Berlin'));
    expect(seqOf((await alicesStream.next()).data)).toBe(saved.rev);
    const record = await runServerWrite(app.deps, (ctx) => markUserChanged(ctx, alice.user.id, { plan: 'wordsmith' }));
    expect(seqOf((await alicesStream.next()).data)).toBe(record.rev);
    await expect(bobsStream.next(400)).rejects.toThrow('no event in time');
    // The session of this process shows the plan at once.
    expect(json((await app.inject({ method: 'GET', url: '/api/user', headers: { cookie: alice.cookie } }))).plan).toBe('wordsmith');
  });

  // SQLite's file and connection itself (the PostgreSQL storage has its own tests: test/db/postgres/).
  it.skipIf(onPostgres)('reach the owner when another process (the operator command) sets the plan', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-user-scope-'));
    const file = path.join(dir, 'db.sqlite');
    const { app, base } = await listening({ databaseFile: file });
    const alice = await signUp(app);
    const bob = await signUp(app);
    const alicesStream = await connect(base, alice.cookie);
    const bobsStream = await connect(base, bob.cookie);
    const { cursor } = await feed(app, alice.cookie, 0);
    expect(json((await app.inject({ method: 'GET', url: '/api/user', headers: { cookie: alice.cookie } }))).plan).toBe('apprentice');

    other = await openDatabase(file, { exclusiveProcess: false });
    const changed = await setUserPlan({ database: other, hub: null }, alice.user.username, 'wordsmith');
    expect(changed?.plan).toBe('wordsmith');
    const poke = await alicesStream.next(FOREIGN_COMMIT_POLL_MS * 3);
    expect(seqOf(poke.data)).toBeGreaterThan(cursor);
    const page = await feed(app, alice.cookie, cursor);
    expect(page.changes.users).toEqual([expect.objectContaining({ id: alice.user.id, plan: 'wordsmith' })]);
    // The cached session was forgotten with the poke: the plan shows on the next request.
    expect(json((await app.inject({ method: 'GET', url: '/api/user', headers: { cookie: alice.cookie } }))).plan).toBe('wordsmith');
    await expect(bobsStream.next(400)).rejects.toThrow('no event in time');
  });
});

describe('the foreign-commit watch', () => {
  it("keeps no memory of this process's own commits while no other process writes", async () => {
    t = await createTestApp();
    const watch = await watchForeignCommits(t.app.deps.database.db, t.app.deps.hub, 60_000);
    try {
      const alice = await signUp(t.app);
      for (const zone of ['UTC', 'Europe/Paris', 'Asia/Tokyo']) await setTimeZone(t.app, alice.headers, zone);
      expect(watch.pending()).toBe(4);
      await watch.check();
      expect(watch.pending()).toBe(0);
    } finally {
      watch.stop();
    }
  });
});
