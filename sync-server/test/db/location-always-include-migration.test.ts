/** Migration 0012: locations stored by a server before the "always include" mark read as unmarked, and main ones stay in the bible. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { seriesBible } from '@chronicler/companion';
import { testConfig } from '../../src/config/config.ts';
import { loadSeriesMaterial } from '../../src/ai/material.ts';
import { onPostgres, type TestApp, createTestApp, signUp } from '../support/helpers.ts';
import { storyClient } from '../support/story-client.ts';
import { undoMigrationsFrom } from '../support/undo-migrations.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('locations from before migration 0012', () => {
  // SQLite's file and connection itself (the PostgreSQL storage has its own tests: test/db/postgres/).
  it.skipIf(onPostgres)('read as unmarked after the upgrade; the bible still carries the main one, not the minor one; the mark can then be set', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-loc-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const config = testConfig({ dataDir: dir, databaseFile: path.join(dir, 'chronicler.db') });
    const before: TestApp = await createTestApp(config);
    const author = await signUp(before.app);
    const story = storyClient(before.app, author);
    const series = await story.create('/api/series', { title: 'Old Maps' });
    const keep = await story.create('/api/locations', { seriesId: series.id, name: 'Stone Keep', importance: 'main' });
    const well = await story.create('/api/locations', { seriesId: series.id, name: 'Dry Well', importance: 'minor' });
    await before.close();

    const sqlite = new Database(config.databaseFile);
    undoMigrationsFrom(sqlite, '0012');
    expect(sqlite.prepare('select name from pragma_table_info(?)').all('locations')).not.toContainEqual({ name: 'always_include' });
    sqlite.close();

    const after = await createTestApp(config);
    cleanups.push(() => after.close());
    const client = storyClient(after.app, author);
    const rows = await client.read(`/api/series/${series.id}/locations`);
    expect(rows.map((l: { id: string; alwaysInclude: boolean; rev: number }) => [l.id, l.alwaysInclude, l.rev])).toEqual(
      expect.arrayContaining([
        [keep.id, false, keep.rev],
        [well.id, false, well.rev],
      ]),
    );
    const bible = seriesBible(await loadSeriesMaterial(after.app.deps.database.db, series.id), { text: 'Nothing here names a place.' });
    expect(bible).toContain('Location: Stone Keep');
    expect(bible).not.toContain('Dry Well');
    expect(await client.put(`/api/locations/${well.id}`, { alwaysInclude: true })).toMatchObject({ statusCode: 200 });
    const marked = seriesBible(await loadSeriesMaterial(after.app.deps.database.db, series.id), { text: 'Nothing here names a place.' });
    expect(marked).toContain('Location: Dry Well');
  });
});
