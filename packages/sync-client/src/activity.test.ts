import { afterEach, describe, expect, it } from 'vitest';
import type { ChroniclerDb } from './db.ts';
import { seriesActivity } from './activity.ts';
import { freshDb, serverBook, serverChapter, serverCharacter, serverSeries } from './testing/fixtures.ts';

let db: ChroniclerDb;
afterEach(() => db?.close());

describe('seriesActivity', () => {
  it('lists chapters written and completed, books completed, characters and places added, newest first', async () => {
    db = freshDb();
    await db.open();
    const series = serverSeries();
    const other = serverSeries();
    const book = serverBook(series.id, { title: 'Tehanu', status: 'completed', updatedAt: '2026-03-05T00:00:00.000Z' });
    await db.series.bulkPut([series, other]);
    await db.books.put(book);
    await db.chapters.bulkPut([
      serverChapter(book, { title: 'Written', wordCount: 1200, status: 'in_progress', updatedAt: '2026-03-04T00:00:00.000Z' }),
      serverChapter(book, { title: 'Done', wordCount: 10, status: 'completed', updatedAt: '2026-03-06T00:00:00.000Z' }),
      serverChapter(book, { title: 'Empty', wordCount: 0, status: 'in_progress', updatedAt: '2026-03-07T00:00:00.000Z' }),
    ]);
    await db.characters.bulkPut([
      serverCharacter(series.id, { name: 'Tenar', createdAt: '2026-03-03T00:00:00.000Z' }),
      serverCharacter(other.id, { name: 'Elsewhere', createdAt: '2026-03-09T00:00:00.000Z' }),
    ]);
    await db.locations.put({
      id: '0190a6f0-0000-7000-8000-0000000000aa', rev: 1, createdAt: '2026-03-08T00:00:00.000Z', updatedAt: '2026-03-08T00:00:00.000Z', deletedAt: null,
      seriesId: series.id, name: 'Gont', type: 'island', description: '', importance: 'main', bookAppearances: [], imageUrl: null,
    } as never);
    const items = await seriesActivity(db, series.id);
    expect(items.map((i) => [i.kind, i.description])).toEqual([
      ['location-added', 'Added place Gont'],
      ['chapter-completed', 'Completed chapter "Done"'],
      ['book-completed', 'Completed book "Tehanu"'],
      // Its length, never "Wrote 1,200 words": the chapter may have been imported.
      ['chapter-written', 'Updated "Written" · 1,200 words'],
      ['character-added', 'Added character Tenar'],
    ]);
    expect(await seriesActivity(db, series.id, 2)).toHaveLength(2);
  });
});
