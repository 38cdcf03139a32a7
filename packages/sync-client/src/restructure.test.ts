/**
 * Restructuring on the device (restructure.ts): each operation is one transaction of rows and
 * outbox entries that the author sees at once, answers an undo that puts everything back, counts
 * no writing, and refuses bad input with its message before anything is written.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RESTRUCTURE_MESSAGES, ROLE_MESSAGES, newId } from '@chronicler/schema';
import type { ChroniclerDb } from './db.ts';
import * as q from './queries.ts';
import { UNDO_STALE_MESSAGE, createRestructure } from './restructure.ts';
import { createMutators } from './mutators.ts';
import { freshDb, manualClock, serverBook, serverChapter, serverSeries } from './testing/fixtures.ts';
import { pendingWordsByDay } from './writing.ts';

let db: ChroniclerDb;
afterEach(() => db?.close());

async function seed() {
  db = freshDb();
  await db.open();
  const series = serverSeries();
  const one = serverBook(series.id, { title: 'Book One', position: 1 });
  const two = serverBook(series.id, { title: 'Book Two', position: 2 });
  const a = serverChapter(one, { title: 'Arrival', content: 'It began.\nThe ship landed.', position: 1, wordCount: 5 });
  const b = serverChapter(one, { title: 'Storm', content: 'Rain fell.', position: 2, wordCount: 2 });
  const c = serverChapter(one, { title: 'Calm', content: 'Then quiet.', position: 3, wordCount: 2 });
  const d = serverChapter(two, { title: 'Years later', content: 'Years passed.', position: 1, wordCount: 2 });
  await db.series.put(series);
  await db.books.bulkPut([one, two]);
  await db.chapters.bulkPut([a, b, c, d]);
  const clock = manualClock();
  return { series, one, two, a, b, c, d, clock, r: createRestructure(db, { now: clock.now }) };
}

const titles = async (bookId: string) => (await q.chaptersOfBook(db, bookId)).map((c) => `${c.position}:${c.title}`);
const requests = async () => (await db.outbox.orderBy('seq').toArray()).map((e) => `${e.method} ${e.path} ${JSON.stringify(e.body, (k, v) => (k === 'writing' ? v.kind : v))}`);
const counted = async () => [...pendingWordsByDay(await db.outbox.toArray(), 'UTC', 0).values()].reduce((n, w) => n + w, 0);

describe('the Trash', () => {
  it('trashes a chapter in one PUT: hidden from its book, listed in the Trash, and the undo restores it in its place', async () => {
    const { r, one, a, series } = await seed();
    const { undo } = await r.trashChapter(a.id);
    expect(await titles(one.id)).toEqual(['2:Storm', '3:Calm']);
    const trash = await q.trashOfSeries(db, series.id);
    expect(trash).toMatchObject([{ kind: 'chapters', chapter: { id: a.id, title: 'Arrival' }, book: { id: one.id }, trashedAt: '2026-02-01T10:00:00.000Z' }]);
    expect(await requests()).toEqual([`PUT /api/chapters/${a.id} {"trashed":true}`]);
    await undo();
    expect(await titles(one.id)).toEqual(['1:Arrival', '2:Storm', '3:Calm']);
    expect(await q.trashOfSeries(db, series.id)).toEqual([]);
    // The unsent trash and its undo are one request by then.
    expect(await requests()).toEqual([`PUT /api/chapters/${a.id} {"trashed":false}`]);
  });

  it('trashes a book with its chapters out of the series’ counts, and refuses to restore a chapter into it', async () => {
    const { r, one, two, a, series } = await seed();
    await r.trashChapter(a.id);
    const { undo } = await r.trashBook(one.id);
    expect((await q.booksOfSeries(db, series.id)).map((b) => b.title)).toEqual(['Book Two']);
    expect((await q.chaptersOfSeries(db, series.id)).map((c) => c.title)).toEqual(['Years later']);
    const trash = await q.trashOfSeries(db, series.id);
    expect(trash.map((e) => e.kind).sort()).toEqual(['books', 'chapters']);
    expect(trash.find((e) => e.kind === 'books')).toMatchObject({ chapterCount: 2, wordCount: 4 });
    await expect(r.restoreChapter(a.id)).rejects.toThrow(RESTRUCTURE_MESSAGES.restoreIntoTrashedBook);
    await expect(r.moveChapter(a.id, one.id)).rejects.toThrow(RESTRUCTURE_MESSAGES.moveSameBook);
    // The author chooses another book instead: the chapter leaves the Trash there.
    await r.moveChapter(a.id, two.id);
    expect(await titles(two.id)).toEqual(['1:Years later', '2:Arrival']);
    await undo();
    expect((await q.booksOfSeries(db, series.id)).map((b) => b.title)).toEqual(['Book One', 'Book Two']);
  });

  it('deletes for good only from the Trash', async () => {
    const { r, a, b } = await seed();
    await expect(r.deleteForever('chapters', b.id)).rejects.toThrow(RESTRUCTURE_MESSAGES.notInTrash);
    await r.trashChapter(a.id);
    await r.deleteForever('chapters', a.id);
    expect(await db.chapters.get(a.id)).toBeUndefined();
    expect((await requests()).at(-1)).toBe(`DELETE /api/chapters/${a.id} undefined`);
  });

  it('refuses a viewer before anything is written', async () => {
    const { r, a, series } = await seed();
    await db.series.put({ ...series, ownerId: newId() });
    await db.seriesRoles.put({ seriesId: series.id, role: 'viewer', ownerId: newId(), ownerName: 'Host' });
    await expect(r.trashChapter(a.id)).rejects.toThrow(ROLE_MESSAGES.readOnly);
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('moving a chapter to another book', () => {
  it('is one PUT of bookId; both books renumber; the undo puts it back in its place', async () => {
    const { r, one, two, a } = await seed();
    const { undo } = await r.moveChapter(a.id, two.id);
    expect(await titles(one.id)).toEqual(['1:Storm', '2:Calm']);
    expect(await titles(two.id)).toEqual(['1:Years later', '2:Arrival']);
    expect(await db.chapters.get(a.id)).toMatchObject({ id: a.id, content: a.content, bookId: two.id });
    expect(await requests()).toEqual([`PUT /api/chapters/${a.id} {"bookId":"${two.id}"}`]);
    await undo();
    expect(await titles(one.id)).toEqual(['1:Arrival', '2:Storm', '3:Calm']);
    expect(await titles(two.id)).toEqual(['1:Years later']);
    expect((await requests()).at(-1)).toBe(`PUT /api/chapters/${a.id} {"bookId":"${one.id}","position":1}`);
    expect(await counted()).toBe(0);
  });

  it('refuses a book of another series and a trashed book, changing nothing', async () => {
    const { r, two, a } = await seed();
    const elsewhere = serverBook(newId(), { title: 'Elsewhere' });
    await db.books.put(elsewhere);
    await expect(r.moveChapter(a.id, elsewhere.id)).rejects.toThrow(RESTRUCTURE_MESSAGES.moveOtherSeries);
    await r.trashBook(two.id);
    await expect(r.moveChapter(a.id, two.id)).rejects.toThrow(RESTRUCTURE_MESSAGES.moveIntoTrashedBook);
    expect(await db.chapters.get(a.id)).toMatchObject({ bookId: a.bookId, position: 1 });
  });
});

describe('split and merge', () => {
  it('splits at the caret into two chapters in one transaction, counting no writing; the undo joins them again', async () => {
    const { r, one, a } = await seed();
    const { newChapterId, undo } = await r.splitChapter(a.id, 'It began.'.length);
    expect(await titles(one.id)).toEqual(['1:Arrival', '2:Arrival (continued)', '3:Storm', '4:Calm']);
    expect(await db.chapters.get(a.id)).toMatchObject({ content: 'It began.', wordCount: 2 });
    expect(await db.chapters.get(newChapterId)).toMatchObject({ content: 'The ship landed.', wordCount: 3, position: 2 });
    const sent = await requests();
    expect(sent).toHaveLength(3);
    expect(sent[0]).toBe(`PUT /api/chapters/${a.id} {"content":"It began.","writing":"restructure"}`);
    expect(sent[1]).toContain('POST /api/chapters');
    expect(sent[2]).toContain('POST /api/chapters/reorder');
    expect(await counted()).toBe(0);
    await undo();
    expect(await titles(one.id)).toEqual(['1:Arrival', '2:Storm', '3:Calm']);
    expect(await db.chapters.get(a.id)).toMatchObject({ content: 'It began.\nThe ship landed.' });
    expect(await db.chapters.get(newChapterId)).toBeUndefined();
  });

  it('refuses a split at the very start or end, writing nothing', async () => {
    const { r, a } = await seed();
    await expect(r.splitChapter(a.id, 0)).rejects.toThrow(RESTRUCTURE_MESSAGES.splitAtEdge);
    await expect(r.splitChapter(a.id, a.content.length)).rejects.toThrow(RESTRUCTURE_MESSAGES.splitAtEdge);
    expect(await db.outbox.count()).toBe(0);
  });

  it('merges with the next chapter (which goes to the Trash with its text); the undo separates them', async () => {
    const { r, one, a, b, series } = await seed();
    const { undo } = await r.mergeWithNext(a.id);
    expect(await titles(one.id)).toEqual(['1:Arrival', '3:Calm']);
    expect(await db.chapters.get(a.id)).toMatchObject({ content: 'It began.\nThe ship landed.\nRain fell.', wordCount: 7 });
    expect((await q.trashOfSeries(db, series.id)).map((e) => e.kind === 'chapters' && e.chapter.content)).toEqual(['Rain fell.']);
    expect(await counted()).toBe(0);
    await undo();
    expect(await titles(one.id)).toEqual(['1:Arrival', '2:Storm', '3:Calm']);
    expect(await db.chapters.get(a.id)).toMatchObject({ content: a.content });
    expect(await db.chapters.get(b.id)).toMatchObject({ trashedAt: null });
  });

  it('never merges across books, and an undo after new words is refused rather than dropping them', async () => {
    const { r, a, c } = await seed();
    await expect(r.mergeWithNext(c.id)).rejects.toThrow(RESTRUCTURE_MESSAGES.mergeAcrossBooks);
    const { undo } = await r.mergeWithNext(a.id);
    await createMutators(db).chapters.update(a.id, { content: 'It began.\nThe ship landed.\nRain fell.\nNew words.' });
    await expect(undo()).rejects.toThrow(UNDO_STALE_MESSAGE);
    expect(await db.chapters.get(a.id)).toMatchObject({ content: 'It began.\nThe ship landed.\nRain fell.\nNew words.' });
  });
});
