/** Migration 0017: chapters and events stored before the flashback mark read as not flashbacks, and canon changes can be recorded after the upgrade. */
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

describe('a database from before migration 0017', () => {
  // SQLite's file itself (the PostgreSQL storage has its own tests: test/db/postgres/).
  it.skipIf(onPostgres)('keeps its chapters and events, unmarked, and takes canon changes after the upgrade', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-canon-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const config = testConfig({ dataDir: dir, databaseFile: path.join(dir, 'chronicler.db') });
    const before: TestApp = await createTestApp(config);
    const author = await signUp(before.app, { plan: 'legendary' });
    const story = storyClient(before.app, author);
    const { series, book, chapter } = await story.seriesWithChapter();
    const mara = await story.create('/api/characters', { seriesId: series.id, name: 'Mara' });
    const event = await story.create('/api/timeline-events', { seriesId: series.id, title: 'The siege', chapterId: chapter.id });
    await before.close();

    const sqlite = new Database(config.databaseFile);
    undoMigrationsFrom(sqlite, '0017');
    expect(sqlite.prepare('select name from pragma_table_info(?)').all('chapters')).not.toContainEqual({ name: 'flashback' });
    expect(sqlite.prepare("select name from sqlite_master where name = 'canon_changes'").all()).toEqual([]);
    sqlite.close();

    const after = await createTestApp(config);
    cleanups.push(() => after.close());
    const client = storyClient(after.app, author);
    expect(await client.read(`/api/chapters/${chapter.id}`)).toMatchObject({ flashback: false, rev: chapter.rev });
    expect(await client.read(`/api/timeline-events/${event.id}`)).toMatchObject({ flashback: false, rev: event.rev });
    const change = await client.create('/api/canon-changes', {
      seriesId: series.id, entityKind: 'character', entityId: mara.id, field: 'status', value: 'deceased', bookId: book.id, chapterId: chapter.id,
    });
    expect(await client.read(`/api/series/${series.id}/canon-changes`)).toEqual([change]);
    expect(json(await client.put(`/api/chapters/${chapter.id}`, { flashback: true }))).toMatchObject({ flashback: true });
  });
});
