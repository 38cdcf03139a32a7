/** Migration 0013: chapters stored by a server before synopses and notes read them as empty, their text and words untouched. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config/config.ts';
import { type TestApp, createTestApp, signUp } from '../support/helpers.ts';
import { storyClient } from '../support/story-client.ts';
import { undoMigrationsFrom } from '../support/undo-migrations.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('chapters from before migration 0013', () => {
  it('read with an empty synopsis and notes after the upgrade, and take them then', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-notes-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const config = testConfig({ dataDir: dir, databaseFile: path.join(dir, 'chronicler.db') });
    const before: TestApp = await createTestApp(config);
    const author = await signUp(before.app);
    const { chapter } = await storyClient(before.app, author).seriesWithChapter();
    await before.close();

    const sqlite = new Database(config.databaseFile);
    undoMigrationsFrom(sqlite, '0013');
    expect(sqlite.prepare('select name from pragma_table_info(?)').all('chapters')).not.toContainEqual({ name: 'synopsis' });
    sqlite.close();

    const after = await createTestApp(config);
    cleanups.push(() => after.close());
    const client = storyClient(after.app, author);
    expect(await client.read(`/api/chapters/${chapter.id}`)).toMatchObject({ content: chapter.content, wordCount: chapter.wordCount, rev: chapter.rev, synopsis: '', notes: '' });
    expect(await client.put(`/api/chapters/${chapter.id}`, { synopsis: 'It begins.' })).toMatchObject({ statusCode: 200 });
    expect(await client.read(`/api/chapters/${chapter.id}`)).toMatchObject({ synopsis: 'It begins.', notes: '' });
  });
});
