/**
 * Restructuring converges (docs/decisions/0014-trash-and-restructure.md): two devices of one
 * author, each with its own IndexedDB and engine, against the REAL server (buildApp over in-memory
 * SQLite through app.inject). Both go offline; one deletes a chapter into the Trash (or merges it
 * away, or moves it to another book) while the other edits the same chapter; they come back in
 * either order. Both devices and the server end with the same rows: the edited chapter, its words
 * all there, in the Trash (or moved), never lost.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { trashOfSeries } from '@chronicler/sync-client';
import { type App, buildApp } from '@chronicler/sync-server';
import { testConfig } from '@chronicler/sync-server/config';
import { openDevice, registerAuthor, settle } from './two-devices.ts';

let sharedApp: Promise<App> | null = null;
const server = () =>
  (sharedApp ??= buildApp(testConfig()).then(async (app) => {
    await app.ready();
    return app;
  }));
afterAll(async () => (await sharedApp)?.close());

async function author(app: App) {
  const { userId, cookie, call } = await registerAuthor(app, 'restructure');
  const series = await call('POST', '/api/series', { title: 'The Long Road' });
  const one = await call('POST', '/api/books', { seriesId: series.id, title: 'Book One' });
  const two = await call('POST', '/api/books', { seriesId: series.id, title: 'Book Two' });
  const first = await call('POST', '/api/chapters', { bookId: one.id, title: 'Arrival', content: 'It began.\nThe ship landed.' });
  const second = await call('POST', '/api/chapters', { bookId: one.id, title: 'Storm', content: 'Rain fell.' });
  return { userId, cookie, seriesId: series.id as string, one: one.id as string, two: two.id as string, first: first.id as string, second: second.id as string, call };
}

type Scenario = 'trash' | 'merge' | 'move';

async function run(scenario: Scenario, editorFirst: boolean) {
  const app = await server();
  const s = await author(app);
  const [a, b] = [openDevice(app, s.userId, s.cookie), openDevice(app, s.userId, s.cookie)];
  await settle([a, b]);
  a.offline = b.offline = true;
  // Device A restructures; device B edits the chapter A removes or moves.
  const target = scenario === 'merge' ? s.second : s.first;
  if (scenario === 'trash') await a.r.trashChapter(s.first);
  if (scenario === 'merge') await a.r.mergeWithNext(s.first);
  if (scenario === 'move') await a.r.moveChapter(s.first, s.two);
  const edited = scenario === 'merge' ? 'Rain fell.\nThunder, written offline.' : 'It began.\nThe ship landed.\nWritten offline on the other device.';
  await b.m.chapters.update(target, { content: edited });
  a.offline = b.offline = false;
  await settle(editorFirst ? [b, a] : [a, b]);

  const stored = await s.call('GET', `/api/chapters/${target}`);
  expect(stored.content).toBe(edited);
  expect(stored.deletedAt).toBeNull();
  if (scenario === 'move') {
    expect(stored).toMatchObject({ bookId: s.two, trashedAt: null });
  } else {
    expect(stored.trashedAt).toEqual(expect.any(String));
    expect((await s.call('GET', `/api/series/${s.seriesId}/trash`)).entries.map((e: { id: string }) => e.id)).toEqual([target]);
  }
  if (scenario === 'merge') expect((await s.call('GET', `/api/chapters/${s.first}`)).content).toBe('It began.\nThe ship landed.\nRain fell.');
  for (const d of [a, b]) {
    const local = await d.db.chapters.get(target);
    expect(local).toMatchObject({ content: edited, trashedAt: stored.trashedAt, bookId: stored.bookId, rev: stored.rev });
    expect((await trashOfSeries(d.db, s.seriesId)).map((e) => (e.kind === 'chapters' ? e.chapter.id : e.book.id))).toEqual(scenario === 'move' ? [] : [target]);
  }
  // No conflict copies were needed: the fields merged.
  expect(await s.call('GET', `/api/chapters/${target}/conflicts`)).toEqual([]);
}

describe('restructuring converges with a concurrent edit of the same chapter, never losing words', () => {
  for (const scenario of ['trash', 'merge', 'move'] as const) {
    for (const editorFirst of [false, true]) {
      it(`${scenario} on one device, an edit on the other, the ${editorFirst ? 'edit' : scenario} reaching the server first`, async () => {
        await run(scenario, editorFirst);
      });
    }
  }
});
