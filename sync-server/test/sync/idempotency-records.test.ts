/**
 * How an Idempotency-Key's answer is stored (migration 0002): an answer made from a revision
 * snapshot the write stored refers to that snapshot instead of holding the row's text again. A
 * replay must still answer byte for byte what the first request answered — for records kept by
 * reference, for records a server before the change kept whole, and when the snapshot the answer
 * began as was replaced later in the same request.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../../src/config/config.ts';
import { updateRow } from '../../src/entities/writes.ts';
import { ok, write } from '../../src/routes/kit.ts';
import { onPostgres, type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { storyClient } from '../support/story-client.ts';
import { undoMigrationsFrom } from '../support/undo-migrations.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function started(app: Promise<TestApp>): Promise<TestApp> {
  const t = await app;
  cleanups.push(() => t.close());
  return t;
}

const answerOf = (res: LightMyRequestResponse) => ({ status: res.statusCode, body: res.body, type: res.headers['content-type'] });

async function recordOf(app: FastifyInstance, key: string) {
  return app.deps.database.db.selectFrom('idempotencyKeys').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
}

const longText = (words: number, seed: string) => Array.from({ length: words }, (_, i) => `${seed}${i % 97}`).join(' ');

describe('idempotency records that refer to a revision snapshot', () => {
  it('a chapter save is recorded by reference and replays byte for byte, also after later saves', async () => {
    const t = await started(createTestApp());
    const story = storyClient(t.app, await signUp(t.app));
    const { chapter } = await story.seriesWithChapter();
    const save = { content: longText(1000, 'word'), title: 'Saved once' };
    const first = await story.put(`/api/chapters/${chapter.id}`, save, { 'idempotency-key': 'save-1', 'x-base-rev': String(chapter.rev) });
    expect(first.statusCode).toBe(200);
    const saved = json(first);
    expect(saved.mergeStatus).toBe('fast-forward');

    const record = await recordOf(t.app, 'save-1');
    expect(record).toMatchObject({ snapshotEntity: 'chapters', snapshotEntityId: chapter.id, snapshotRev: saved.rev });
    // Only what follows the snapshot is kept: the text is not stored a third time.
    expect(record.response.length).toBeLessThan(100);
    expect(record.response).toContain('mergeStatus');

    const later = await story.put(`/api/chapters/${chapter.id}`, { content: 'Rewritten since.' }, { 'x-base-rev': String(saved.rev) });
    expect(later.statusCode).toBe(200);
    const replay = await story.put(`/api/chapters/${chapter.id}`, save, { 'idempotency-key': 'save-1', 'x-base-rev': String(chapter.rev) });
    expect(answerOf(replay)).toEqual(answerOf(first));
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('a create answered with its row is recorded by reference and replays identically', async () => {
    const t = await started(createTestApp());
    const story = storyClient(t.app, await signUp(t.app));
    const create = { title: 'Referenced', description: longText(200, 'about') };
    const first = await story.post('/api/series', create, { 'idempotency-key': 'create-1' });
    expect(first.statusCode).toBe(201);
    expect(await recordOf(t.app, 'create-1')).toMatchObject({ snapshotEntity: 'series', response: '}' });
    const replay = await story.post('/api/series', create, { 'idempotency-key': 'create-1' });
    expect(answerOf(replay)).toEqual(answerOf(first));
  });

  // SQLite's file and connection itself (the PostgreSQL storage has its own tests: test/db/postgres/).
  it.skipIf(onPostgres)('a record kept whole by a server before migration 0002 replays identically after the upgrade', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-idem-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const config = testConfig({ dataDir: dir, databaseFile: path.join(dir, 'chronicler.db') });

    const before = await createTestApp(config);
    const author = await signUp(before.app);
    const story = storyClient(before.app, author);
    const { chapter } = await story.seriesWithChapter();
    const save = { content: longText(300, 'old') };
    const headers = { 'idempotency-key': 'from-before', 'x-base-rev': String(chapter.rev) };
    const first = await story.put(`/api/chapters/${chapter.id}`, save, headers);
    expect(first.statusCode).toBe(200);
    await before.close();

    // Turn the file back into what the server before 0002 left: the whole answer, no reference columns.
    const sqlite = new Database(config.databaseFile);
    sqlite.prepare('update idempotency_keys set response = ? where key = ?').run(first.body, 'from-before');
    for (const column of ['snapshot_entity', 'snapshot_entity_id', 'snapshot_rev']) sqlite.exec(`alter table idempotency_keys drop column ${column}`);
    sqlite.prepare('delete from kysely_migration where name = ?').run('0002_idempotency_snapshot_reference');
    // Later migrations go too: a server before 0002 had none of them (they re-run in order).
    sqlite.exec('drop index users_username_skeleton; alter table users drop column username_skeleton; alter table sessions drop column user_agent');
    sqlite.prepare('delete from kysely_migration where name = ?').run('0003_front_door_skeletons_and_session_agents');
    undoMigrationsFrom(sqlite, '0004');
    sqlite.close();

    const after = await started(createTestApp(config));
    const record = await recordOf(after.app, 'from-before');
    expect(record).toMatchObject({ snapshotRev: null, response: first.body });
    const replay = await storyClient(after.app, author).put(`/api/chapters/${chapter.id}`, save, headers);
    expect(answerOf(replay)).toEqual(answerOf(first));
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('an answer whose snapshot the same request replaced is kept whole and replays identically', async () => {
    const app = await buildApp(testConfig());
    cleanups.push(() => app.close());
    // A write that saves a row twice (one rev, so the second snapshot replaces the first) and
    // answers the first state.
    app.put<{ Params: { id: string } }>('/test/save-twice/:id', async (request, reply) =>
      write(request, reply, async (ctx) => {
        const first = await updateRow(ctx, 'series', request.params.id, { title: 'First state' });
        await updateRow(ctx, 'series', request.params.id, { title: 'Second state' }, first);
        return ok(first);
      }),
    );
    await app.ready();
    const story = storyClient(app, await signUp(app));
    const series = await story.create('/api/series', { title: 'Twice' });

    const first = await story.put(`/test/save-twice/${series.id}`, {}, { 'idempotency-key': 'twice' });
    expect(first.statusCode).toBe(200);
    expect(json(first).title).toBe('First state');
    expect(await recordOf(app, 'twice')).toMatchObject({ snapshotRev: null, response: first.body });
    const replay = await story.put(`/test/save-twice/${series.id}`, {}, { 'idempotency-key': 'twice' });
    expect(answerOf(replay)).toEqual(answerOf(first));
  });
});
