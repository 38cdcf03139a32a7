import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ChapterRevisionSummary, MESSAGES, chapterSchema, countWords } from '@chronicler/schema';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { type StoryClient, expectError, storyClient } from '../support/story-client.ts';

let t: TestApp;
let me: StoryClient;
let other: StoryClient;

beforeEach(async () => {
  t = await createTestApp();
  me = storyClient(t.app, await signUp(t.app, { plan: 'apprentice' }));
  other = storyClient(t.app, await signUp(t.app, { plan: 'apprentice' }));
});
afterEach(async () => t.close());

describe('chapters', () => {
  it('creates with the series from the stored book, counts the words itself, and places at count + 1', async () => {
    const { series, book, chapter } = await me.seriesWithChapter();
    expect(chapterSchema.parse(chapter)).toMatchObject({
      seriesId: series.id,
      bookId: book.id,
      title: 'Chapter 1',
      content: 'It began.',
      status: 'in_progress',
      position: 1,
      wordCount: 2,
    });
    const text = "Well-known don't — stop.";
    const second = await me.create('/api/chapters', { bookId: book.id, title: 'Two', content: text, wordCount: 999, status: 'draft' });
    expect(second).toMatchObject({ position: 2, wordCount: countWords(text), status: 'draft' });
    expect(second.wordCount).toBe(3); // "Well-known", "don't", "stop": the dash is no word
    const placed = await me.create('/api/chapters', { bookId: book.id, title: 'Prologue', position: 0 });
    expect(placed).toMatchObject({ position: 0, content: '', wordCount: 0 });
    const list = await me.read(`/api/books/${book.id}/chapters`);
    expect(list.map((c: any) => c.id)).toEqual([placed.id, chapter.id, second.id]);
    expect(list[2]).toEqual(second); // list items are full rows
    expect(await me.read(`/api/chapters/${chapter.id}`)).toEqual(chapter);
  });

  it('answers the spec messages', async () => {
    const { book, chapter } = await me.seriesWithChapter();
    expectError(await me.post('/api/chapters', { bookId: book.id }), 422, 'VALIDATION_FAILED', 'Please enter a title for the chapter');
    expectError(await me.post('/api/chapters', { bookId: book.id, title: '  ' }), 422, 'VALIDATION_FAILED', MESSAGES.chapter.titleRequired);
    expectError(await me.post('/api/chapters', { title: 'T' }), 422, 'VALIDATION_FAILED', MESSAGES.chapter.bookRequired);
    expectError(await me.post('/api/chapters', { bookId: book.id, title: 'T', seriesId: book.seriesId }), 422, 'VALIDATION_FAILED');
    expectError(await me.put(`/api/chapters/${chapter.id}`, { title: '' }), 422, 'VALIDATION_FAILED', 'Please enter a title for your chapter');
    // `bookId` is a move (story/trash.ts); a chapter's series is never the body's to set.
    expectError(await me.put(`/api/chapters/${chapter.id}`, { seriesId: book.seriesId }), 422, 'VALIDATION_FAILED');
    expectError(await me.put(`/api/chapters/${chapter.id}`, { bookId: 'not-an-id' }), 422, 'VALIDATION_FAILED', MESSAGES.chapter.bookRequired);
  });

  it('recounts words on every content save, whatever the client says', async () => {
    const { chapter } = await me.seriesWithChapter();
    const res = await me.put(`/api/chapters/${chapter.id}`, { content: 'one two three', wordCount: 1 });
    expect(json(res)).toMatchObject({ content: 'one two three', wordCount: 3, mergeStatus: 'applied' });
    const statusOnly = await me.put(`/api/chapters/${chapter.id}`, { status: 'completed', wordCount: 50 });
    expect(json(statusOnly)).toMatchObject({ status: 'completed', wordCount: 3 });
  });

  it('keeps the stored count equal to the editor count through saves that add, remove, rewrite and merge', async () => {
    const { chapter } = await me.seriesWithChapter();
    const saves = ['The first line.\n\nThe second line, longer.', 'The first line.', "Well-known don't — stop.\n\nA new close.", ''];
    let rev = chapter.rev;
    for (const content of saves) {
      const saved = json(await me.put(`/api/chapters/${chapter.id}`, { content }, { 'x-base-rev': String(rev) }));
      expect(saved.wordCount).toBe(countWords(content));
      rev = saved.rev;
    }
    // Two saves from one base, far apart in the text: the second is merged; the count is the merged text's.
    const base = 'Alpha one.\n\nMiddle stays.\n\nOmega two.';
    const start = json(await me.put(`/api/chapters/${chapter.id}`, { content: base }, { 'x-base-rev': String(rev) }));
    const first = json(await me.put(`/api/chapters/${chapter.id}`, { content: 'Alpha one, with four more words.\n\nMiddle stays.\n\nOmega two.' }, { 'x-base-rev': String(start.rev) }));
    const merged = json(await me.put(`/api/chapters/${chapter.id}`, { content: 'Alpha one.\n\nMiddle stays.\n\nOmega.' }, { 'x-base-rev': String(start.rev) }));
    expect(merged.mergeStatus).toBe('merged');
    expect(merged.content).toBe('Alpha one, with four more words.\n\nMiddle stays.\n\nOmega.');
    expect(merged.wordCount).toBe(countWords(merged.content));
    expect(first.wordCount).toBe(countWords(first.content));
    expect((await me.read(`/api/chapters/${chapter.id}`)).wordCount).toBe(9);
  });

  it("cannot touch another author's chapters or add to their books", async () => {
    const { book, chapter } = await me.seriesWithChapter();
    expectError(await other.post('/api/chapters', { bookId: book.id, title: 'Sneaky' }), 404, 'NOT_FOUND');
    expectError(await other.get(`/api/chapters/${chapter.id}`), 404, 'NOT_FOUND');
    expectError(await other.put(`/api/chapters/${chapter.id}`, { content: 'gone' }), 404, 'NOT_FOUND');
    expectError(await other.del(`/api/chapters/${chapter.id}`), 404, 'NOT_FOUND');
    expectError(await other.get(`/api/chapters/${chapter.id}/revisions`), 404, 'NOT_FOUND');
    expectError(await other.get(`/api/chapters/${chapter.id}/revisions/${chapter.rev}`), 404, 'NOT_FOUND');
    expectError(await other.get(`/api/chapters/${chapter.id}/conflicts`), 404, 'NOT_FOUND');
    expectError(await other.post('/api/chapters/reorder', { chapters: [{ id: chapter.id, position: 5 }] }), 404, 'NOT_FOUND');
    expect(await me.read(`/api/chapters/${chapter.id}`)).toEqual(chapter);
  });

  it('deletes a chapter (tombstone answer) and clears timeline references to it', async () => {
    const wordsmith = storyClient(t.app, await signUp(t.app, { plan: 'wordsmith' }));
    const { series, book, chapter } = await wordsmith.seriesWithChapter();
    const event = await wordsmith.create('/api/timeline-events', { seriesId: series.id, title: 'E', bookId: book.id, chapterId: chapter.id });
    const res = await wordsmith.del(`/api/chapters/${chapter.id}`);
    expect(res.statusCode).toBe(200);
    expect(chapterSchema.parse(json(res)).deletedAt).not.toBeNull();
    expectError(await wordsmith.get(`/api/chapters/${chapter.id}`), 404, 'NOT_FOUND');
    expect(await wordsmith.read(`/api/books/${book.id}/chapters`)).toEqual([]);
    expect(await wordsmith.read(`/api/timeline-events/${event.id}`)).toMatchObject({ bookId: book.id, chapterId: null });
  });
});

describe('chapter reorder', () => {
  it('takes the sent positions in one write and lists the chapters in the new order', async () => {
    const { book, chapter: c1 } = await me.seriesWithChapter();
    const c2 = await me.create('/api/chapters', { bookId: book.id, title: 'Two' });
    const c3 = await me.create('/api/chapters', { bookId: book.id, title: 'Three' });
    const res = await me.post('/api/chapters/reorder', {
      chapters: [
        { id: c3.id, position: 1 },
        { id: c1.id, position: 2 },
        { id: c2.id, position: 3 },
      ],
    });
    expect(res.statusCode).toBe(200);
    const { chapters } = json(res);
    expect(chapters.map((c: any) => [c.id, c.position])).toEqual([
      [c3.id, 1],
      [c1.id, 2],
      [c2.id, 3],
    ]);
    const revs = new Set(chapters.map((c: any) => c.rev));
    expect(revs.size).toBe(1); // one write, one seq
    const list = await me.read(`/api/books/${book.id}/chapters`);
    expect(list.map((c: any) => c.id)).toEqual([c3.id, c1.id, c2.id]);
    expect(list.map((c: any) => c.position)).toEqual([1, 2, 3]);
  });

  it('refuses chapters of two books (422) or an unknown id (404) and changes nothing', async () => {
    const { series, chapter } = await me.seriesWithChapter();
    const otherBook = await me.create('/api/books', { seriesId: series.id, title: 'Two' });
    const elsewhere = await me.create('/api/chapters', { bookId: otherBook.id, title: 'X' });
    expectError(
      await me.post('/api/chapters/reorder', { chapters: [{ id: chapter.id, position: 2 }, { id: elsewhere.id, position: 1 }] }),
      422,
      'VALIDATION_FAILED',
      'All chapters of a reorder must belong to the same book',
    );
    const theirs = await other.seriesWithChapter();
    expectError(
      await me.post('/api/chapters/reorder', { chapters: [{ id: chapter.id, position: 2 }, { id: theirs.chapter.id, position: 1 }] }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await me.post('/api/chapters/reorder', { chapters: [{ id: chapter.id, position: 2 }, { id: chapter.id, position: 1 }] }),
      422,
      'VALIDATION_FAILED',
    );
    expectError(await me.post('/api/chapters/reorder', { chapters: [] }), 422, 'VALIDATION_FAILED');
    expect(await me.read(`/api/chapters/${chapter.id}`)).toEqual(chapter);
    expect(await other.read(`/api/chapters/${theirs.chapter.id}`)).toEqual(theirs.chapter);
  });
});

describe('chapter revisions', () => {
  it('keeps one revision per save, newest first, each readable as saved', async () => {
    const { chapter } = await me.seriesWithChapter();
    const saves = ['First draft of the scene.', 'Second draft, longer than the first one.', 'Third.'];
    const written = [];
    for (const content of saves) written.push(json(await me.put(`/api/chapters/${chapter.id}`, { content })));

    const list = await me.read<ChapterRevisionSummary[]>(`/api/chapters/${chapter.id}/revisions`);
    expect(list).toHaveLength(4); // the create and three saves
    expect(list.map((r) => r.rev)).toEqual([written[2].rev, written[1].rev, written[0].rev, chapter.rev]);
    expect(list[0]).toEqual({
      rev: written[2].rev,
      createdAt: written[2].updatedAt,
      title: 'Chapter 1',
      wordCount: 1,
      authorId: me.author.user.id,
    });
    const older = await me.read(`/api/chapters/${chapter.id}/revisions/${written[1].rev}`);
    const { mergeStatus: _m, ...savedRow } = written[1];
    expect(older).toEqual(savedRow);
    expect(older.content).toBe(saves[1]);
    expect(await me.read(`/api/chapters/${chapter.id}/revisions?limit=1&before=${written[2].rev}`)).toEqual([list[1]]);
    expectError(await me.get(`/api/chapters/${chapter.id}/revisions/${chapter.rev + 1000}`), 404, 'NOT_FOUND');
    expectError(await me.get(`/api/chapters/${chapter.id}/revisions?limit=0`), 422, 'VALIDATION_FAILED');
  });
});
