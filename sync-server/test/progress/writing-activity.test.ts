import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ERROR_CODES, type WritingActivityAnswer, expandActivity, upgradeMessage } from '@chronicler/schema';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { type StoryClient, storyClient } from '../support/story-client.ts';

let t: TestApp;
let writer: StoryClient;
let apprentice: StoryClient;

beforeEach(async () => {
  t = await createTestApp();
  writer = storyClient(t.app, await signUp(t.app, { plan: 'wordsmith' }));
  apprentice = storyClient(t.app, await signUp(t.app, { plan: 'apprentice' }));
});
afterEach(async () => t.close());

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

describe('GET /api/writing-activity', () => {
  it('answers the caller’s counted saves by minute and chapter: no pastes, no imports, nobody else’s', async () => {
    const { chapter, series } = await writer.seriesWithChapter();
    const theirs = await apprentice.seriesWithChapter();
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    const put = async (client: StoryClient, id: string, content: string, writing: object) =>
      expect((await client.put(`/api/chapters/${id}`, { content, writing })).statusCode).toBe(200);
    await put(writer, chapter.id, `It began. ${words(10)}`, { editedAt: at(50) });
    await put(writer, chapter.id, `It began. ${words(15)}`, { editedAt: at(20) });
    await put(writer, chapter.id, `It began. ${words(900)}`, { editedAt: at(10) }); // a paste: recorded, not counted
    await put(writer, chapter.id, `It began. ${words(1000)}`, { editedAt: at(5), kind: 'import' });
    await put(apprentice, theirs.chapter.id, `It began. ${words(30)}`, { editedAt: at(5) });

    const res = await writer.get('/api/writing-activity');
    expect(res.statusCode, res.body).toBe(200);
    const answer = json(res) as WritingActivityAnswer;
    expect(answer.chapters).toEqual([{ id: chapter.id, seriesId: series.id }]);
    expect(expandActivity(answer).map((s) => s.words)).toEqual([10, 5]);
  });

  it('a plan without analytics is refused with the upgrade message', async () => {
    const res = await apprentice.get('/api/writing-activity');
    expect(res.statusCode).toBe(403);
    expect(json(res)).toMatchObject({ code: ERROR_CODES.featureLocked, message: upgradeMessage('wordsmith') });
  });

  it('a new author has no activity', async () => {
    expect(json(await writer.get('/api/writing-activity'))).toEqual({ chapters: [], minutes: [] });
  });

  it('anonymous callers are asked to sign in', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/writing-activity' })).statusCode).toBe(401);
  });
});
