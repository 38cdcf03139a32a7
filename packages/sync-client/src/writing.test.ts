import { afterEach, describe, expect, it } from 'vitest';
import { type WritingStat, newId, writingDay } from '@chronicler/schema';
import type { ChroniclerDb } from './db.ts';
import { createMutators } from './mutators.ts';
import { freshDb, manualClock, serverBook, serverChapter, serverSeries } from './testing/fixtures.ts';
import { readProgress, writingStatsTable } from './writing.ts';

let db: ChroniclerDb;
afterEach(() => db?.close());

const UTC = { timeZone: 'UTC', dayEndHour: 0 };

async function seed(content = 'It began.') {
  db = freshDb();
  await db.open();
  const series = serverSeries();
  const book = serverBook(series.id);
  const chapter = serverChapter(book, { rev: 7, content, wordCount: 2 });
  await db.series.put(series);
  await db.books.put(book);
  await db.chapters.put(chapter);
  const clock = manualClock();
  return { chapter, clock, m: createMutators(db, { now: clock.now }) };
}

describe('chapter saves carry a writing mark', () => {
  it('a text save gets an event id, the device time and kind writing; the mark never lands on the chapter row', async () => {
    const { m, chapter, clock } = await seed();
    await m.chapters.update(chapter.id, { content: 'It began. Then more.' });
    const [entry] = await db.outbox.toArray();
    expect((entry!.body as any).writing).toEqual({ kind: 'writing', eventId: expect.any(String), editedAt: new Date(clock.now()).toISOString() });
    expect(await db.chapters.get(chapter.id)).not.toHaveProperty('writing');
    await m.chapters.update(chapter.id, { title: 'Renamed' });
    expect((await db.outbox.toArray()).map((e) => (e.body as any).title)).toEqual(['Renamed']); // coalesced, no mark needed
  });

  it('a restore is never coalesced into writing (or the reverse), and saves in different quarter hours stay apart', async () => {
    const { m, chapter, clock } = await seed();
    await m.chapters.update(chapter.id, { content: 'It began. One.' });
    await m.chapters.update(chapter.id, { content: 'It began. One two.' });
    expect(await db.outbox.count()).toBe(1);
    await m.chapters.update(chapter.id, { content: 'Old text restored.', writing: { kind: 'restore' } });
    expect(await db.outbox.count()).toBe(2);
    clock.advance(16 * 60_000);
    await m.chapters.update(chapter.id, { content: 'Old text restored. Typed later.' });
    expect(await db.outbox.count()).toBe(3);
  });
});

describe('conflict accepts are marked', () => {
  it('resolving a conflict copy with its text saves the chapter as a conflict-accept', async () => {
    const { m, chapter } = await seed();
    const copy = { id: newId(), rev: 9, createdAt: '', updatedAt: '', deletedAt: null, seriesId: chapter.seriesId, chapterId: chapter.id, baseRev: 7, title: chapter.title, content: 'Their text wins here.', authorId: null, reason: 'conflict' };
    await db.chapterConflicts.put(copy as never);
    await m.conflicts.resolve(copy.id, { content: copy.content });
    const save = (await db.outbox.toArray()).find((e) => e.entity === 'chapters');
    expect((save!.body as any).writing).toMatchObject({ kind: 'conflict-accept' });
    expect((await readProgress(db, UTC)).dailyWords.size).toBe(0);
  });
});

describe('readProgress: Words Today rises while offline', () => {
  it('adds the outbox’s counted words to the synced day figure; restores add nothing', async () => {
    const { m, chapter, clock } = await seed();
    const today = writingDay(clock.now(), 'UTC', 0);
    const stat: WritingStat = {
      id: newId(), rev: 3, createdAt: '', updatedAt: '', deletedAt: null, userId: db.userId, day: today, wordsWritten: 100, wordsRemoved: 0, wordsPasted: 0, edits: 4,
    };
    await writingStatsTable(db).put(stat);
    expect((await readProgress(db, UTC)).dailyWords.get(today)).toBe(100);
    await m.chapters.update(chapter.id, { content: 'It began. Three new words.' });
    expect((await readProgress(db, UTC)).dailyWords.get(today)).toBe(103);
    await m.chapters.update(chapter.id, { content: 'It began. Three new words. Four more words here.' });
    expect((await readProgress(db, UTC)).dailyWords.get(today)).toBe(107);
    await m.chapters.update(chapter.id, { content: 'Restored long ago text with many words in it.', writing: { kind: 'restore' } });
    expect((await readProgress(db, UTC)).dailyWords.get(today)).toBe(107);
  });

  it('a chapter made offline and typed into before it was sent counts its typed words', async () => {
    const { m, chapter, clock } = await seed();
    const made = await m.chapters.create({ bookId: chapter.bookId, title: 'Offline chapter' });
    await m.chapters.update(made.id, { content: 'Five words typed right here.' });
    expect(await db.outbox.count()).toBe(1); // folded into the create
    expect((await readProgress(db, UTC)).dailyWords.get(writingDay(clock.now(), 'UTC', 0))).toBe(5);
  });

  it('words written offline on an earlier day stay on that day', async () => {
    const { m, chapter, clock } = await seed();
    const monday = writingDay(clock.now(), 'UTC', 0);
    await m.chapters.update(chapter.id, { content: 'It began. Monday words.' });
    clock.advance(2 * 86_400_000);
    const progress = await readProgress(db, UTC);
    expect(progress.dailyWords.get(monday)).toBe(2);
    expect(progress.dailyWords.size).toBe(1);
  });
});
