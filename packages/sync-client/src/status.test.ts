import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChroniclerDb } from './db.ts';
import { createMutators } from './mutators.ts';
import { deadLetterText, deadLetterTitle, deadLettersJson } from './problems.ts';
import { bindStatusToDb, createSyncStatusStore, isSyncBusy } from './status.ts';
import { QUOTA_MESSAGE, isQuotaError, reportStorageError, requestPersistentStorage, setStorageErrorTarget } from './storage.ts';
import { freshDb, serverBook, serverChapter, serverSeries } from './testing/fixtures.ts';

let db: ChroniclerDb;
afterEach(() => {
  db?.close();
  vi.unstubAllGlobals();
});

async function seeded() {
  db = freshDb();
  await db.open();
  const series = serverSeries();
  const book = serverBook(series.id);
  const chapter = serverChapter(book);
  await db.series.put(series);
  await db.books.put(book);
  await db.chapters.put(chapter);
  return { series, book, chapter, m: createMutators(db) };
}

describe('status store', () => {
  it('counts unsynced and in-flight changes live from the outbox, and lists dead letters', async () => {
    const { m, chapter } = await seeded();
    const store = createSyncStatusStore();
    const unbind = bindStatusToDb(db, store);
    await m.chapters.update(chapter.id, { title: 'One' });
    await m.books.create({ seriesId: chapter.seriesId, title: 'Two' });
    await vi.waitFor(() => expect(store.getState().pendingCount).toBe(2));
    expect(isSyncBusy(store)).toBe(false);
    await db.outbox.toCollection().first((e) => db.outbox.update(e!.seq!, { status: 'inflight' }));
    await vi.waitFor(() => expect(isSyncBusy(store)).toBe(true));
    const entry = (await db.outbox.toArray())[0]!;
    await db.deadLetters.add({
      entry,
      status: 422,
      response: { message: 'Nope', code: 'VALIDATION_FAILED' },
      content: { entity: 'chapters', entityId: chapter.id, label: 'Chapter 1', text: 'Words', fields: { content: 'Words' } },
      createdAt: 1,
    });
    await vi.waitFor(() => expect(store.getState().deadLetters).toHaveLength(1));
    unbind();
  });
});

describe('storage durability', () => {
  it('recognises quota errors, bare or wrapped by Dexie', () => {
    expect(isQuotaError(new DOMException('full', 'QuotaExceededError'))).toBe(true);
    expect(isQuotaError({ name: 'AbortError', inner: { name: 'QuotaExceededError' } })).toBe(true);
    expect(isQuotaError(new Error('other'))).toBe(false);
  });

  it('a quota error in a mutation reaches the status store and is rethrown, never swallowed', async () => {
    const { m, chapter } = await seeded();
    const store = createSyncStatusStore();
    setStorageErrorTarget(store);
    db.outbox.hook('creating', () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    await expect(m.chapters.update(chapter.id, { content: 'x' })).rejects.toBeTruthy();
    expect(store.getState().lastError).toMatchObject({ kind: 'quota', message: QUOTA_MESSAGE });
    expect(reportStorageError(new Error('not quota'), store)).toBe(false);
  });

  it('asks for persistent storage once', async () => {
    await seeded();
    const persist = vi.fn(async () => false);
    vi.stubGlobal('navigator', { storage: { persist, persisted: async () => false } });
    expect(await requestPersistentStorage(db)).toBe(false);
    expect(await requestPersistentStorage(db)).toBe(false);
    expect(persist).toHaveBeenCalledTimes(1);
  });
});

describe('problems', () => {
  it('titles, copies and exports a dead letter with its text', async () => {
    const { m, chapter } = await seeded();
    await m.chapters.update(chapter.id, { content: 'My precious words' });
    const entry = (await db.outbox.toArray())[0]!;
    const letter = {
      id: 1,
      entry,
      status: 403,
      response: { message: 'Your role in this series does not allow this change', code: 'FORBIDDEN' as const },
      content: { entity: 'chapters' as const, entityId: chapter.id, label: 'Chapter 1', text: 'My precious words', fields: { content: 'My precious words' } },
      createdAt: Date.parse('2026-01-02T03:04:05Z'),
    };
    expect(deadLetterTitle(letter)).toBe('Changes to chapter “Chapter 1”');
    expect(deadLetterText(letter)).toBe('Chapter 1\n\nMy precious words');
    const exported = JSON.parse(deadLettersJson([letter]));
    expect(exported.refusedChanges[0]).toMatchObject({ text: 'My precious words', reason: letter.response.message, code: 'FORBIDDEN', status: 403 });
  });
});
