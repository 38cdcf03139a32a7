/**
 * A backup's chapter history is read a few revisions per statement (backup/collect.ts): every older
 * revision of every chapter is there, in order, past any page boundary.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { collectBackup } from '../../src/backup/collect.ts';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('backup history', () => {
  it('holds every older revision of every chapter, in order', async () => {
    t = await createTestApp();
    const me = await signUp(t.app, { plan: 'legendary' });
    const series = json(await t.app.inject({ method: 'POST', url: '/api/series', headers: me.headers, payload: { title: 'S' } }));
    const book = json(await t.app.inject({ method: 'POST', url: '/api/books', headers: me.headers, payload: { seriesId: series.id, title: 'B' } }));
    const chapters: string[] = [];
    for (const title of ['One', 'Two']) {
      chapters.push(json(await t.app.inject({ method: 'POST', url: '/api/chapters', headers: me.headers, payload: { bookId: book.id, title, content: 'v0' } })).id);
    }
    for (let i = 1; i <= 11; i++) {
      for (const id of chapters) {
        const res = await t.app.inject({ method: 'PUT', url: `/api/chapters/${id}`, headers: me.headers, payload: { content: `v${i}` } });
        expect(res.statusCode).toBe(200);
      }
    }
    const { chapterHistory } = await collectBackup(t.app.deps.database.db, me.user.id);
    for (const id of chapters) {
      expect(chapterHistory.filter((h) => h.chapterId === id).map((h) => h.content)).toEqual(Array.from({ length: 11 }, (_, i) => `v${i}`));
    }
  });
});
