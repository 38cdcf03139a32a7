import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { WORD_RULE_VERSION } from '@chronicler/schema';
import { readSyncState } from './db.ts';
import { freshDb, serverBook, serverChapter, serverSeries } from './testing/fixtures.ts';
import { recountForWordRule } from './word-rule.ts';

describe('chapter counts on this device follow the word rule', () => {
  it('recounts rows and shadows an older rule counted, once', async () => {
    const db = freshDb();
    const series = serverSeries();
    const book = serverBook(series.id);
    // Counted by the first rule: "keeper's" and "well-known" were two words each.
    const old = serverChapter(book, { content: "The keeper's well-known lamp.", wordCount: 6 });
    const current = serverChapter(book, { content: 'Plain words here.', wordCount: 3 });
    await db.chapters.bulkPut([old, current]);
    await db.shadows.put({ entity: 'chapters', id: old.id, row: old, rev: old.rev });

    expect(await recountForWordRule(db)).toBe(1);
    expect((await db.chapters.get(old.id))!.wordCount).toBe(4);
    expect((await db.chapters.get(current.id))!.wordCount).toBe(3);
    expect(((await db.shadows.get(['chapters', old.id]))!.row as { wordCount: number }).wordCount).toBe(4);
    expect((await readSyncState(db)).wordRule).toBe(WORD_RULE_VERSION);

    // Once per rule: a count written later (by whatever) is not touched again.
    await db.chapters.update(old.id, { wordCount: 99 });
    expect(await recountForWordRule(db)).toBe(0);
    expect((await db.chapters.get(old.id))!.wordCount).toBe(99);
    db.close();
  });
});
