import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ERROR_CODES, PASTE_THRESHOLD_WORDS, addDays, newId, writingDay } from '@chronicler/schema';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { type StoryClient, expectError, storyClient } from '../support/story-client.ts';

let t: TestApp;
let me: StoryClient;
let other: StoryClient;

beforeEach(async () => {
  t = await createTestApp();
  me = storyClient(t.app, await signUp(t.app, { plan: 'apprentice' }));
  other = storyClient(t.app, await signUp(t.app, { plan: 'wordsmith' }));
});
afterEach(async () => t.close());

const words = (n: number, w = 'w') => Array.from({ length: n }, (_, i) => `${w}${i}`).join(' ');

async function save(client: StoryClient, chapterId: string, content: string, writing?: object, headers: Record<string, string> = {}) {
  const res = await client.put(`/api/chapters/${chapterId}`, { content, ...(writing ? { writing } : {}) }, headers);
  expect(res.statusCode, res.body).toBe(200);
  return json(res);
}

describe('writing statistics', () => {
  it('counts an author’s words per local day in their own time zone, attributed to the device time of the edit', async () => {
    // Tokyo (UTC+9) and Los Angeles (UTC−8 in November): the same instant is two different days.
    expect((await me.put('/api/user/settings', { timeZone: 'Asia/Tokyo' })).statusCode).toBe(200);
    expect((await other.put('/api/user/settings', { timeZone: 'America/Los_Angeles' })).statusCode).toBe(200);
    const instant = new Date(Date.now() - 60 * 60_000);
    const editedAt = instant.toISOString();
    const mine = await me.seriesWithChapter();
    const theirs = await other.seriesWithChapter();
    await save(me, mine.chapter.id, 'It began. And then the rain came down.', { editedAt });
    await save(other, theirs.chapter.id, 'It began. Slowly.', { editedAt });

    const myDay = writingDay(instant, 'Asia/Tokyo');
    const theirDay = writingDay(instant, 'America/Los_Angeles');
    expect(await me.read('/api/writing-stats?period=day')).toEqual([
      { period: 'day', date: myDay, wordsWritten: 6, wordsRemoved: 0, wordsPasted: 0, netWords: 6 },
    ]);
    expect(await other.read('/api/writing-stats?period=day')).toEqual([
      { period: 'day', date: theirDay, wordsWritten: 1, wordsRemoved: 0, wordsPasted: 0, netWords: 1 },
    ]);
  });

  it('words written offline days ago count for that day; an edit logged once never counts twice', async () => {
    const { chapter } = await me.seriesWithChapter();
    // The chapter was last saved (and acknowledged) a week ago; the author then wrote offline.
    const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString();
    await t.app.deps.database.db.updateTable('chapters').set({ updatedAt: weekAgo }).where('id', '=', chapter.id).execute();
    const monday = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const eventId = newId();
    await save(me, chapter.id, 'It began. One two three.', { editedAt: monday, eventId }, { 'x-base-rev': String(chapter.rev) });
    // The same edit replayed (without its request key) adds nothing.
    await save(me, chapter.id, 'It began. One two three four.', { editedAt: monday, eventId });
    const day = writingDay(monday, 'UTC');
    const stats = await me.read(`/api/writing-stats?period=day&from=${addDays(day, -1)}`);
    expect(stats).toEqual([expect.objectContaining({ date: day, wordsWritten: 3 })]);
  });

  it('an achievement earned by words written offline is earned when they were written', async () => {
    const { chapter } = await me.seriesWithChapter();
    const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString();
    await t.app.deps.database.db.updateTable('chapters').set({ updatedAt: weekAgo }).where('id', '=', chapter.id).execute();
    const monday = new Date(Date.now() - 2 * 86_400_000).toISOString();
    await save(me, chapter.id, `It began. ${words(400)}`, { editedAt: monday }, { 'x-base-rev': String(chapter.rev) });
    await save(me, chapter.id, `It began. ${words(400)} ${words(400, 'x')}`, { editedAt: monday });
    const earned = await me.read('/api/user-achievements');
    expect(earned.find((e: any) => e.achievementId === 'words-1000')).toBeUndefined();
    await save(me, chapter.id, `It began. ${words(400)} ${words(400, 'x')} ${words(300, 'y')}`, { editedAt: monday });
    expect((await me.read('/api/user-achievements')).find((e: any) => e.achievementId === 'words-1000')).toMatchObject({ earnedAt: new Date(monday).toISOString() });
  });

  it('a chapter created with text typed offline counts it when marked; an unmarked create (an import) does not', async () => {
    const { book } = await me.seriesWithChapter();
    await me.create('/api/chapters', { bookId: book.id, title: 'Imported', content: 'Ten words of imported text that nobody typed here today.' });
    expect(await me.read('/api/writing-stats')).toEqual([]);
    await me.create('/api/chapters', { bookId: book.id, title: 'Offline', content: 'Typed on the train.', writing: { kind: 'writing', eventId: newId() } });
    expect((await me.read('/api/writing-stats'))[0]).toMatchObject({ wordsWritten: 4 });
  });

  it('clamps device times in the future or before the last acknowledged save to the arrival', async () => {
    const { chapter } = await me.seriesWithChapter();
    const today = writingDay(new Date(), 'UTC');
    await save(me, chapter.id, 'It began. Far future.', { editedAt: '2099-01-01T00:00:00Z' });
    const after = await save(me, chapter.id, 'It began. Far future. Long ago.', { editedAt: '2001-01-01T00:00:00Z' }, { 'x-base-rev': String((await me.read(`/api/chapters/${chapter.id}`)).rev) });
    expect(after.wordCount).toBe(6);
    const stats = await me.read('/api/writing-stats?period=day');
    expect(stats).toEqual([expect.objectContaining({ date: today, wordsWritten: 4 })]);
  });

  it('restores, conflict accepts, imports and companion text are not writing; a paste is recorded but not counted', async () => {
    const { chapter } = await me.seriesWithChapter();
    await save(me, chapter.id, 'It began. Restored words here.', { kind: 'restore' });
    await save(me, chapter.id, 'It began. Restored words here. Accepted.', { kind: 'conflict-accept' });
    await save(me, chapter.id, 'It began. Restored words here. Accepted. Suggested text.', { kind: 'companion' });
    expect(await me.read('/api/writing-stats')).toEqual([]);
    await save(me, chapter.id, `It began. ${words(PASTE_THRESHOLD_WORDS + 10)}`);
    const [entry] = await me.read('/api/writing-stats');
    expect(entry).toMatchObject({ wordsWritten: 0, wordsPasted: PASTE_THRESHOLD_WORDS + 10 });
    await save(me, chapter.id, `It began. ${words(PASTE_THRESHOLD_WORDS + 10)} typed`);
    expect((await me.read('/api/writing-stats'))[0]).toMatchObject({ wordsWritten: 1 });
  });

  it('aggregates weeks and months and rejects bad ranges with a clear 4xx', async () => {
    const { chapter } = await me.seriesWithChapter();
    await save(me, chapter.id, 'It began. Two more.');
    const [week] = await me.read('/api/writing-stats?period=week');
    expect(week).toMatchObject({ period: 'week', wordsWritten: 2 });
    expect(json(await me.get('/api/writing-stats?period=month'))[0]).toMatchObject({ period: 'month', wordsWritten: 2 });
    expectError(await me.get('/api/writing-stats?from=2026-02-01&to=2026-01-01'), 422, ERROR_CODES.validation);
    expect((await me.get('/api/writing-stats?period=year')).statusCode).toBe(422);
    expect((await me.get('/api/writing-stats?from=yesterday')).statusCode).toBe(422);
  });

  it('the daily goal is a Wordsmith setting; bad settings are refused', async () => {
    expectError(await me.put('/api/writing-settings', { dailyGoal: 500 }), 403, ERROR_CODES.featureLocked);
    expect(json(await other.put('/api/writing-settings', { dailyGoal: 500, restDays: [0, 6, 0] }))).toMatchObject({ dailyGoal: 500, restDays: [0, 6] });
    expectError(await me.put('/api/writing-settings', { dayEndHour: 13 }), 422, ERROR_CODES.validation);
    expectError(await me.put('/api/writing-settings', { timeZone: 'Europe/Paris' }), 422, ERROR_CODES.validation); // the zone is on the user record
    expect(await other.read('/api/writing-settings')).toMatchObject({ dailyGoal: 500, dayEndHour: 4 });
  });

  it('statistics, earned achievements and settings reach their owner through the changes feed, and nobody else', async () => {
    const { chapter } = await me.seriesWithChapter();
    await save(me, chapter.id, 'It began. Feed words.');
    expect((await me.put('/api/writing-settings', { restDays: [6] })).statusCode).toBe(200);
    const mine = (await me.read('/api/sync/changes?since=0')).changes;
    expect(mine.writingStats).toEqual([expect.objectContaining({ userId: me.author.user.id, wordsWritten: 2 })]);
    expect(mine.userAchievements).toEqual([expect.objectContaining({ achievementId: 'chapters-1' })]);
    expect(mine.writingSettings).toEqual([expect.objectContaining({ restDays: [6] })]);
    const theirs = (await other.read('/api/sync/changes?since=0')).changes;
    expect([...theirs.writingStats, ...theirs.userAchievements, ...theirs.writingSettings]).toEqual([]);
  });
});

describe('achievements', () => {
  it('serves the plan’s catalogue; Wordsmith sees the expanded ladder', async () => {
    const basic = await me.read('/api/achievements');
    const expanded = await other.read('/api/achievements');
    expect(basic.length).toBeGreaterThanOrEqual(30);
    expect(expanded.length).toBeGreaterThan(basic.length);
    expect(basic[0]).toMatchObject({ id: expect.any(String), name: expect.any(String), description: expect.any(String), icon: expect.any(String), type: 'streak', category: 'Streaks', requiredValue: 3 });
  });

  it('earns the first-chapter achievement after the write itself, with earnedAt and the nested achievement', async () => {
    await me.seriesWithChapter();
    const earned = await me.read('/api/user-achievements');
    expect(earned).toEqual([expect.objectContaining({ achievementId: 'chapters-1', earnedAt: expect.any(String), achievement: expect.objectContaining({ name: 'First Chapter' }) })]);
    expect(json(await me.post('/api/check-achievements', undefined))).toEqual([]);
  });

  it('earns the achievements of a create, and of a book marked completed, in the write itself', async () => {
    const series = await me.create('/api/series', { title: 'S' });
    const book = await me.create('/api/books', { seriesId: series.id, title: 'B' });
    await me.create('/api/characters', { seriesId: series.id, name: 'Ann' });
    await me.create('/api/locations', { seriesId: series.id, name: 'Harbour' });
    const earnedIds = async () => (await me.read('/api/user-achievements')).map((row: { achievementId: string }) => row.achievementId).sort();
    expect(await earnedIds()).toEqual(['characters-1', 'locations-1']);
    json(await me.put(`/api/books/${book.id}`, { status: 'revision' }));
    expect(await earnedIds()).toEqual(['characters-1', 'locations-1']);
    json(await me.put(`/api/books/${book.id}`, { status: 'completed' }));
    expect(await earnedIds()).toEqual(['books-1', 'characters-1', 'locations-1']);
  });

  it('earns once under concurrent checks and retries', async () => {
    // A day's figures written straight to the database: no write has evaluated them yet.
    const { db } = t.app.deps.database;
    const now = new Date().toISOString();
    const stat = { rev: 1, createdAt: now, updatedAt: now, deletedAt: null, userId: me.author.user.id, wordsRemoved: 0, wordsPasted: 0, edits: 1 };
    await db.insertInto('writingStats').values({ ...stat, id: newId(), day: '2026-01-01', wordsWritten: 1200 }).execute();
    const answers = await Promise.all(Array.from({ length: 6 }, () => me.post('/api/check-achievements', undefined)));
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    const earnedIds = answers.flatMap((res) => json<any[]>(res).map((a) => a.achievementId));
    expect(earnedIds.filter((id) => id === 'words-1000')).toHaveLength(1);
    const rows = await me.read('/api/user-achievements');
    expect(rows.filter((r: any) => r.achievementId === 'words-1000')).toHaveLength(1);
    // A retry with the same key answers the same array (the write path's idempotency).
    const key = { 'idempotency-key': newId() };
    const first = await me.post('/api/check-achievements', undefined, key);
    const again = await me.post('/api/check-achievements', undefined, key);
    expect(again.body).toBe(first.body);
  });

  it('a streak is earned by the save that brings its day to the goal, and after a goal change by the next save', async () => {
    // `other` is on Wordsmith (daily goals). Saves without X-Base-Rev have no lower clamp: their device times stand.
    const { chapter } = await other.seriesWithChapter();
    expect((await other.put('/api/writing-settings', { dailyGoal: 10 })).statusCode).toBe(200);
    let text = 'It began.';
    const write = async (count: number, daysAgo: number, tag: string) => {
      const editedAt = new Date(Date.now() - daysAgo * 86_400_000).toISOString();
      text = `${text} ${words(count, tag)}`;
      await save(other, chapter.id, text, { editedAt });
      return editedAt;
    };
    const streaks = async () => (await other.read('/api/user-achievements')).filter((e: any) => e.type === 'streak' || e.achievementId.startsWith('streak-'));

    await write(10, 3, 'a');
    await write(10, 2, 'b');
    await write(9, 1, 'c'); // yesterday below the goal: a run of two (then a frozen day)
    expect(await streaks()).toEqual([]);
    const reached = await write(1, 1, 'd'); // yesterday reaches it: three days
    expect(await streaks()).toEqual([expect.objectContaining({ achievementId: 'streak-3', earnedAt: reached })]);

    await write(10, 0, 'e'); // today: a run of four
    for (const daysAgo of [6, 5, 4]) await write(5, daysAgo, `f${daysAgo}`); // below the goal: nothing
    expect((await streaks()).map((e: any) => e.achievementId)).toEqual(['streak-3']);
    // With a goal of 5 the last seven days are a streak; the next save crosses no goal and still earns it.
    expect((await other.put('/api/writing-settings', { dailyGoal: 5 })).statusCode).toBe(200);
    const next = await write(1, 0, 'g');
    expect((await streaks()).map((e: any) => [e.achievementId, e.earnedAt])).toEqual([
      ['streak-7', next],
      ['streak-3', reached],
    ]);
  });

  it('no author sees another’s statistics, achievements or settings', async () => {
    const { chapter } = await me.seriesWithChapter();
    await save(me, chapter.id, 'It began. Mine alone.');
    expect(await other.read('/api/writing-stats')).toEqual([]);
    expect(await other.read('/api/user-achievements')).toEqual([]);
    expect(await other.read('/api/writing-settings')).toMatchObject({ userId: other.author.user.id });
    // Writing into another author's chapter is refused before anything is counted.
    expect((await other.put(`/api/chapters/${chapter.id}`, { content: 'stolen words' })).statusCode).toBe(404);
    expect(await other.read('/api/writing-stats')).toEqual([]);
  });

  it('asks for a session', async () => {
    for (const url of ['/api/writing-stats', '/api/achievements', '/api/user-achievements', '/api/writing-settings']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/check-achievements' })).statusCode).toBe(401);
  });
});
