/**
 * A revision is worth listing only when a chapter's text or title changed.
 * Reorders and status changes still keep their snapshot (the merge base of later updates).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChapterRevisionSummary } from '@chronicler/schema';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { type StoryClient, storyClient } from '../support/story-client.ts';

let t: TestApp;
let me: StoryClient;

beforeEach(async () => {
  t = await createTestApp();
  me = storyClient(t.app, await signUp(t.app, { plan: 'apprentice' }));
});
afterEach(async () => t.close());

const history = (id: string) => me.read<ChapterRevisionSummary[]>(`/api/chapters/${id}/revisions`);

describe('the revision history of a chapter', () => {
  it('gains no entry when the chapters are reordered, however often', async () => {
    const { book, chapter: c1 } = await me.seriesWithChapter();
    const c2 = await me.create('/api/chapters', { bookId: book.id, title: 'Two', content: 'Second chapter words.' });
    for (const order of [
      [c2.id, c1.id],
      [c1.id, c2.id],
    ]) {
      const res = await me.post('/api/chapters/reorder', { chapters: order.map((id, i) => ({ id, position: i + 1 })) });
      expect(res.statusCode).toBe(200);
    }
    expect(await history(c1.id)).toHaveLength(1);
    expect(await history(c2.id)).toHaveLength(1);
  });

  it('gains an entry for a new text or title, not for a status change alone', async () => {
    const { chapter } = await me.seriesWithChapter();
    json(await me.put(`/api/chapters/${chapter.id}`, { status: 'completed' }));
    expect(await history(chapter.id)).toHaveLength(1);
    json(await me.put(`/api/chapters/${chapter.id}`, { title: 'The Ford' }));
    json(await me.put(`/api/chapters/${chapter.id}`, { content: 'It began at the ford.' }));
    const list = await history(chapter.id);
    expect(list.map((r) => r.title)).toEqual(['The Ford', 'The Ford', 'Chapter 1']);
    expect(list.map((r) => r.wordCount)).toEqual([5, 2, 2]);
  });

  it('still merges a text edit based on a reorder that is not listed', async () => {
    const { book, chapter } = await me.seriesWithChapter();
    const text = 'First paragraph.\n\nSecond paragraph.';
    const saved = json(await me.put(`/api/chapters/${chapter.id}`, { content: text }));
    const second = await me.create('/api/chapters', { bookId: book.id, title: 'Two' });
    const reordered = json(
      await me.post('/api/chapters/reorder', {
        chapters: [
          { id: second.id, position: 1 },
          { id: chapter.id, position: 2 },
        ],
      }),
    ).chapters.find((c: { id: string }) => c.id === chapter.id);
    expect(reordered.rev).toBeGreaterThan(saved.rev);
    // Another device changes the first paragraph meanwhile.
    json(await me.put(`/api/chapters/${chapter.id}`, { content: 'First paragraph, revised.\n\nSecond paragraph.' }));
    // This device, based on the reorder's rev, adds to the second paragraph: both edits are kept.
    const merged = json(
      await me.put(`/api/chapters/${chapter.id}`, { content: 'First paragraph.\n\nSecond paragraph, longer.' }, { 'x-base-rev': String(reordered.rev) }),
    );
    expect(merged.content).toBe('First paragraph, revised.\n\nSecond paragraph, longer.');
  });
});
