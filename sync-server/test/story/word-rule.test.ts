/**
 * Stored word counts follow the word rule (src/story/word-rule.ts): counts an older rule made are
 * made again on start, moving no rev; statistics keep what they recorded, and the first save under
 * the new rule counts only the words it changed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WORD_RULE_VERSION } from '@chronicler/schema';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { storyClient } from '../support/story-client.ts';

const dirs: string[] = [];
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the word rule', () => {
  it('counts made by an older rule are made again on start; the next save counts only the words it changed', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-word-rule-'));
    dirs.push(dir);
    const databaseFile = path.join(dir, 'db.sqlite');
    t = await createTestApp({ databaseFile });
    const author = await signUp(t.app, { plan: 'apprentice' });
    const me = storyClient(t.app, author);
    const { chapter } = await me.seriesWithChapter();
    const text = "The keeper's well-known lamp — lit.";
    const saved = json(await me.put(`/api/chapters/${chapter.id}`, { content: text }));
    expect(saved.wordCount).toBe(5);
    // As an older rule stored it ("keeper s" and "well known" were two words each), and no record of the rule.
    const { db } = t.app.deps.database;
    await db.updateTable('chapters').set({ wordCount: 7 }).where('id', '=', chapter.id).execute();
    await db.deleteFrom('syncState').where('name', '=', 'word_rule').execute();
    await t.close();

    t = await createTestApp({ databaseFile });
    const again = storyClient(t.app, author);
    const recounted = await again.read(`/api/chapters/${chapter.id}`);
    expect(recounted).toMatchObject({ wordCount: 5, rev: saved.rev });
    const state = await t.app.deps.database.db.selectFrom('syncState').select('value').where('name', '=', 'word_rule').executeTakeFirstOrThrow();
    expect(Number(state.value)).toBe(WORD_RULE_VERSION);

    const before = await again.read('/api/writing-stats');
    const next = json(await again.put(`/api/chapters/${chapter.id}`, { content: `${text} It burned.`, writing: { kind: 'writing' } }, { 'x-base-rev': String(saved.rev) }));
    expect(next.wordCount).toBe(7);
    const after = await again.read('/api/writing-stats');
    const written = (stats: { wordsWritten: number }[]) => stats.reduce((sum, day) => sum + day.wordsWritten, 0);
    expect(written(after) - written(before)).toBe(2);
  });
});
