import { afterEach, describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { type ChroniclerDb, createMutators } from '@chronicler/sync-client';
import { USER_ID, freshDb, serverBook, serverChapter, serverCharacter, serverSeries } from '@chronicler/sync-client/testing';
import { SEARCH_INDEX_VERSION } from '../model/engine';
import { changesOf } from './changes';
import { LiveIndex } from './live-index';
import { openSearchDb } from './store';

const opened: LiveIndex[] = [];
afterEach(() => {
  for (const live of opened.splice(0)) live.close();
});

async function seeded(factory = new IDBFactory()): Promise<{ db: ChroniclerDb; factory: IDBFactory; seriesId: string; chapterId: string }> {
  const db = freshDb(USER_ID, factory);
  const series = serverSeries({ title: 'The Lantern Cycle' });
  const book = serverBook(series.id, { title: 'Book One' });
  const chapter = serverChapter(book, { content: 'Élodie found the *silver* key.', title: 'The Stair' });
  await db.series.add(series);
  await db.books.add(book);
  await db.chapters.add(chapter);
  await db.characters.add(serverCharacter(series.id, { name: 'Mara Voss', aliases: ['the Ferryman'] }));
  return { db, factory, seriesId: series.id, chapterId: chapter.id };
}

async function open(factory: IDBFactory): Promise<LiveIndex> {
  const live = await LiveIndex.open({ userId: USER_ID, indexedDB: factory, IDBKeyRange, storeDelayMs: 0 });
  opened.push(live);
  return live;
}

const titles = (live: LiveIndex, query: string, seriesId: string | null) => live.search(query, { seriesId }).groups.flatMap((g) => g.results.map((r) => r.title));

describe('the live index', () => {
  it('is built from the local database and finds chapters and characters', async () => {
    const { factory, seriesId } = await seeded();
    const live = await open(factory);
    expect(live.origin).toBe('built');
    expect(titles(live, 'elodie', seriesId)).toEqual(['The Stair']);
    expect(titles(live, 'ferryman', seriesId)).toEqual(['Mara Voss']);
  });

  it('hears a save through the mutators at once (a local write path, offline)', async () => {
    const { db, factory, seriesId, chapterId } = await seeded();
    const live = await open(factory);
    const mutators = createMutators(db);
    await mutators.chapters.update(chapterId, { content: 'Anna found the brass key.' });
    await live.settled();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await live.settled();
    expect(titles(live, 'brass', seriesId)).toEqual(['The Stair']);
    expect(titles(live, 'silver', seriesId)).toEqual([]);
    await mutators.chapters.delete(chapterId);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await live.settled();
    expect(titles(live, 'brass', seriesId)).toEqual([]);
  });

  it('a reload reads the stored index instead of rebuilding, and re-reads rows changed meanwhile', async () => {
    const { db, factory, seriesId, chapterId } = await seeded();
    const first = await open(factory);
    await first.storeNow();
    first.close();
    // Changed while no index listened (another tab, before this one opened).
    const row = (await db.chapters.get(chapterId))!;
    await db.chapters.put({ ...row, content: 'The lamp went out.', rev: row.rev + 1, updatedAt: '2026-03-01T00:00:00.000Z' });
    const second = await open(factory);
    expect(second.origin).toBe('stored');
    expect(titles(second, 'lamp', seriesId)).toEqual(['The Stair']);
    expect(titles(second, 'silver', seriesId)).toEqual([]);
  });

  it('a stored index of another version, or unreadable, is rebuilt and never trusted', async () => {
    const { factory, seriesId } = await seeded();
    const store = openSearchDb(USER_ID, { indexedDB: factory, IDBKeyRange });
    await store.indexes.put({ key: 'index', version: SEARCH_INDEX_VERSION, json: '{"broken":', stamps: [], savedAt: 0 });
    const live = await open(factory);
    expect(live.origin).toBe('built');
    expect(titles(live, 'elodie', seriesId)).toEqual(['The Stair']);
    live.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await store.indexes.put({ key: 'index', version: SEARCH_INDEX_VERSION + 1, json: '{}', stamps: [], savedAt: 0 });
    const again = await open(factory);
    expect(again.origin).toBe('built');
    store.close();
  });
});

describe('changes from storage events', () => {
  it('names the keys written per table, and a cleared table as everything', () => {
    const changes = changesOf(
      {
        'idb://chronicler-u/chapters/': { from: 'b', to: 'b', d: 2, l: { from: 'a', to: 'a', d: 1 }, r: null },
        'idb://chronicler-u/chapters/bookId': { from: 'x', to: 'x', d: 1 },
        'idb://chronicler-u/books/': { from: '', to: [[]], d: 1 },
        'idb://other/chapters/': { from: 'z', to: 'z', d: 1 },
      },
      'chronicler-u',
    );
    expect(changes.get('chapters')).toEqual(new Set(['a', 'b']));
    expect(changes.get('books')).toBe('all');
    expect(changes.size).toBe(2);
    expect(changesOf({ all: {} }, 'chronicler-u').get('*')).toBe('all');
  });
});
