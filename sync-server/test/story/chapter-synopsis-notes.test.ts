/**
 * A chapter's synopsis and notes (docs/architecture.md#chapters): stored and answered on the chapter
 * routes, refused past their limits with the field's message, merged like any field, decided by the
 * stored rows (a stranger's id is 404), and never counted as writing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS, chapterSchema } from '@chronicler/schema';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { type StoryClient, expectError, storyClient } from '../support/story-client.ts';

let t: TestApp;
let me: StoryClient;
let stranger: StoryClient;

beforeEach(async () => {
  t = await createTestApp();
  me = storyClient(t.app, await signUp(t.app, { plan: 'apprentice' }));
  stranger = storyClient(t.app, await signUp(t.app, { plan: 'apprentice' }));
});
afterEach(async () => t.close());

const feedOf = (who: StoryClient) => who.read('/api/sync/changes?since=0&limit=10000');

describe('a chapter’s synopsis and notes', () => {
  it('are empty on a chapter made without them, stored on create and update, and travel in the feed', async () => {
    const { book, chapter } = await me.seriesWithChapter();
    expect(chapter).toMatchObject({ synopsis: '', notes: '' });
    const made = await me.create('/api/chapters', { bookId: book.id, title: 'Two', synopsis: 'Mara finds the *map*.', notes: 'Check the **tide** tables.\nSecond line.' });
    expect(chapterSchema.parse(made)).toMatchObject({ synopsis: 'Mara finds the *map*.', notes: 'Check the **tide** tables.\nSecond line.' });
    const saved = await me.put(`/api/chapters/${chapter.id}`, { synopsis: 'It begins.' }, { 'x-base-rev': String(chapter.rev) });
    expect(json(saved)).toMatchObject({ synopsis: 'It begins.', notes: '', content: 'It began.', mergeStatus: 'fast-forward' });
    expect(await me.read(`/api/chapters/${chapter.id}`)).toMatchObject({ synopsis: 'It begins.' });
    const rows = (await feedOf(me)).changes.chapters as { id: string; synopsis: string; notes: string }[];
    expect(rows.find((r) => r.id === made.id)).toMatchObject({ synopsis: 'Mara finds the *map*.', notes: 'Check the **tide** tables.\nSecond line.' });
  });

  it('merge field by field: a synopsis and a text saved on the same base both stay', async () => {
    const { chapter } = await me.seriesWithChapter();
    const base = { 'x-base-rev': String(chapter.rev) };
    expect((await me.put(`/api/chapters/${chapter.id}`, { content: 'It began again.' }, base)).statusCode).toBe(200);
    const merged = json(await me.put(`/api/chapters/${chapter.id}`, { synopsis: 'A start.', notes: 'Keep it short.' }, base));
    expect(merged).toMatchObject({ content: 'It began again.', synopsis: 'A start.', notes: 'Keep it short.', mergeStatus: 'merged' });
  });

  it('are refused past their limits with the field’s message, and nothing is stored', async () => {
    const { book, chapter } = await me.seriesWithChapter();
    const tooLongSynopsis = await me.put(`/api/chapters/${chapter.id}`, { synopsis: 's'.repeat(LIMITS.chapterSynopsis + 1) });
    expectError(tooLongSynopsis, 422, 'VALIDATION_FAILED', `Must be at most ${LIMITS.chapterSynopsis} characters`);
    expect(json(tooLongSynopsis).fields).toMatchObject({ synopsis: `Must be at most ${LIMITS.chapterSynopsis} characters` });
    expectError(
      await me.post('/api/chapters', { bookId: book.id, title: 'T', notes: 'n'.repeat(LIMITS.chapterNotes + 1) }),
      422,
      'VALIDATION_FAILED',
      `Must be at most ${LIMITS.chapterNotes} characters`,
    );
    expectError(await me.put(`/api/chapters/${chapter.id}`, { synopsis: 42 }), 422, 'VALIDATION_FAILED');
    expect((await me.put(`/api/chapters/${chapter.id}`, { synopsis: 's'.repeat(LIMITS.chapterSynopsis), notes: 'n'.repeat(LIMITS.chapterNotes) })).statusCode).toBe(200);
    expect(await me.read(`/api/chapters/${chapter.id}`)).toMatchObject({ synopsis: 's'.repeat(LIMITS.chapterSynopsis) });
  });

  it('are another author’s to change only with a part in the series: a stranger’s save answers 404 and changes nothing', async () => {
    const { chapter } = await me.seriesWithChapter();
    expectError(await stranger.put(`/api/chapters/${chapter.id}`, { synopsis: 'Mine now.' }), 404, 'NOT_FOUND');
    expect(await me.read(`/api/chapters/${chapter.id}`)).toMatchObject({ synopsis: '' });
  });

  it('are never counted as writing: the chapter’s words and the day’s statistics stay as they were', async () => {
    const { chapter } = await me.seriesWithChapter();
    const writing = { kind: 'writing', eventId: '0190a000-0000-7000-8000-00000000e001', editedAt: new Date().toISOString() };
    const before = (await feedOf(me)).changes.writingStats;
    const words = 'word '.repeat(300).trim();
    const saved = json(await me.put(`/api/chapters/${chapter.id}`, { synopsis: words, notes: `${words}\n${words}`, writing }));
    expect(saved.wordCount).toBe(chapter.wordCount);
    expect((await feedOf(me)).changes.writingStats).toEqual(before);
  });
});
