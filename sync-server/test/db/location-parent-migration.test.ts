/** Migration 0020: locations stored by a server before places could nest read as top level, and can then be nested. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config/config.ts';
import { onPostgres, type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { storyClient } from '../support/story-client.ts';
import { undoMigrationsFrom } from '../support/undo-migrations.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('locations from before migration 0020', () => {
  // SQLite's file and connection itself (the PostgreSQL storage has its own tests: test/db/postgres/).
  it.skipIf(onPostgres)('read as top level after the upgrade, keep their revision, and can then be nested', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-parent-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const config = testConfig({ dataDir: dir, databaseFile: path.join(dir, 'chronicler.db') });
    const before: TestApp = await createTestApp(config);
    const author = await signUp(before.app);
    const story = storyClient(before.app, author);
    const series = await story.create('/api/series', { title: 'Old Maps' });
    const realm = await story.create('/api/locations', { seriesId: series.id, name: 'The Realm' });
    const keep = await story.create('/api/locations', { seriesId: series.id, name: 'Stone Keep' });
    await before.close();

    const sqlite = new Database(config.databaseFile);
    undoMigrationsFrom(sqlite, '0020');
    expect(sqlite.prepare('select name from pragma_table_info(?)').all('locations')).not.toContainEqual({ name: 'parent_id' });
    sqlite.close();

    const after = await createTestApp(config);
    cleanups.push(() => after.close());
    const client = storyClient(after.app, author);
    const rows = await client.read(`/api/series/${series.id}/locations`);
    expect(rows.map((l: { id: string; parentId: string | null; rev: number }) => [l.id, l.parentId, l.rev])).toEqual(
      expect.arrayContaining([
        [realm.id, null, realm.rev],
        [keep.id, null, keep.rev],
      ]),
    );
    expect(json(await client.put(`/api/locations/${keep.id}`, { parentId: realm.id }))).toMatchObject({ parentId: realm.id });
  });
});
