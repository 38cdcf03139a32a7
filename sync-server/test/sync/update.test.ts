/**
 * Concurrent updates through the REST API (docs/sync-protocol.md#fields-merge,
 * #chapter-text-merge): two clients start from the same base revision and send their changes with
 * X-Base-Rev.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chapterConflictSchema } from '@chronicler/schema';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { type StoryClient, expectError, storyClient } from '../support/story-client.ts';

let t: TestApp;
let me: StoryClient;

beforeEach(async () => {
  t = await createTestApp();
  me = storyClient(t.app, await signUp(t.app, { plan: 'wordsmith' }));
});
afterEach(async () => t.close());

const based = (rev: number) => ({ 'x-base-rev': String(rev) });

async function putFrom(url: string, base: number, body: object) {
  const res = await me.put(url, body, based(base));
  expect(res.statusCode, res.body).toBe(200);
  return json(res);
}

describe('field merge', () => {
  it('keeps both when two clients change different fields of a book', async () => {
    const series = await me.create('/api/series', { title: 'S' });
    const book = await me.create('/api/books', { seriesId: series.id, title: 'Old title', description: 'Old blurb' });
    // Both clients send the whole form, each having changed one field.
    const first = await putFrom(`/api/books/${book.id}`, book.rev, { title: 'New title', description: 'Old blurb', status: 'in_progress' });
    expect(first.mergeStatus).toBe('fast-forward');
    const second = await putFrom(`/api/books/${book.id}`, book.rev, { title: 'Old title', description: 'New blurb', status: 'in_progress' });
    expect(second).toMatchObject({ title: 'New title', description: 'New blurb', mergeStatus: 'merged' });
    expect(second.rev).toBeGreaterThan(first.rev);
  });

  it('keeps both for a character, arrays included; the same field goes to the last arrival', async () => {
    const series = await me.create('/api/series', { title: 'S' });
    const ann = await me.create('/api/characters', { seriesId: series.id, name: 'Ann', bookAppearances: [1] });
    await putFrom(`/api/characters/${ann.id}`, ann.rev, { name: 'Ann', bookAppearances: [1, 2], goals: 'Find the map' });
    const merged = await putFrom(`/api/characters/${ann.id}`, ann.rev, { name: 'Anna', bookAppearances: [1], goals: 'Sail home' });
    expect(merged).toMatchObject({ name: 'Anna', bookAppearances: [1, 2], goals: 'Sail home', mergeStatus: 'merged' });
  });

  it('applies the body as is without X-Base-Rev, and when the base revision is unknown', async () => {
    const series = await me.create('/api/series', { title: 'S' });
    const book = await me.create('/api/books', { seriesId: series.id, title: 'T', description: 'D' });
    await me.put(`/api/books/${book.id}`, { description: 'D2' });
    const plain = json(await me.put(`/api/books/${book.id}`, { title: 'T', description: 'D' }));
    expect(plain).toMatchObject({ title: 'T', description: 'D', mergeStatus: 'applied' });
    // A base older than any snapshot of the row: every field counts as changed.
    const unknownBase = await putFrom(`/api/books/${book.id}`, 0, { title: 'T3', description: 'D3' });
    expect(unknownBase).toMatchObject({ title: 'T3', description: 'D3', mergeStatus: 'merged' });
  });

  it('refuses an X-Base-Rev that is not a whole number', async () => {
    const series = await me.create('/api/series', { title: 'S' });
    expectError(await me.put(`/api/series/${series.id}`, { name: 'x' }, { 'x-base-rev': 'abc' }), 400, 'BAD_REQUEST');
    expect((await me.read(`/api/series/${series.id}`)).title).toBe('S');
  });

  it('lets a delete win over a later non-text update', async () => {
    const series = await me.create('/api/series', { title: 'S' });
    const ann = await me.create('/api/characters', { seriesId: series.id, name: 'Ann' });
    const tombstone = json(await me.del(`/api/characters/${ann.id}`));
    const res = await putFrom(`/api/characters/${ann.id}`, ann.rev, { name: 'Anna' });
    expect(res).toMatchObject({ id: ann.id, name: 'Ann', mergeStatus: 'deleted', rev: tombstone.rev, deletedAt: tombstone.deletedAt });
    expect(res.conflictId).toBeUndefined();
    expectError(await me.get(`/api/characters/${ann.id}`), 404, 'NOT_FOUND');
  });
});

describe('chapter text', () => {
  const base = 'The ship left at dawn.\n\nRain fell on the deck.\n\nShe said nothing.';

  async function chapterWith(content: string) {
    const { chapter } = await me.seriesWithChapter();
    return putFrom(`/api/chapters/${chapter.id}`, chapter.rev, { content });
  }

  it('merges edits of different paragraphs cleanly', async () => {
    const chapter = await chapterWith(base);
    await putFrom(`/api/chapters/${chapter.id}`, chapter.rev, { content: base.replace('dawn', 'first light') });
    const merged = await putFrom(`/api/chapters/${chapter.id}`, chapter.rev, { title: 'Departure', content: base.replace('nothing', 'everything') });
    expect(merged).toMatchObject({
      title: 'Departure',
      content: 'The ship left at first light.\n\nRain fell on the deck.\n\nShe said everything.',
      wordCount: 14,
      mergeStatus: 'merged',
    });
    expect(merged.conflictId).toBeUndefined();
    expect(await me.read(`/api/chapters/${chapter.id}/conflicts`)).toEqual([]);
  });

  it('keeps the current text where both changed a paragraph, and the incoming text as a conflict copy', async () => {
    const chapter = await chapterWith(base);
    const current = base.replace('Rain fell', 'Snow fell');
    await putFrom(`/api/chapters/${chapter.id}`, chapter.rev, { content: current });
    const incoming = base.replace('Rain fell', 'Hail fell').replace('nothing', 'goodbye');
    // Sent from the author's phone: the copy says which device its text came from.
    const phone = 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0';
    const sent = await me.put(`/api/chapters/${chapter.id}`, { title: 'Mine', content: incoming }, { ...based(chapter.rev), 'user-agent': phone });
    expect(sent.statusCode, sent.body).toBe(200);
    const res = json(sent);
    expect(res).toMatchObject({
      mergeStatus: 'conflict',
      title: 'Mine',
      content: 'The ship left at dawn.\n\nSnow fell on the deck.\n\nShe said goodbye.',
      conflictId: expect.any(String),
    });

    const conflicts = await me.read(`/api/chapters/${chapter.id}/conflicts`);
    expect(conflicts).toHaveLength(1);
    const copy = chapterConflictSchema.parse(conflicts[0]);
    expect(copy).toMatchObject({
      id: res.conflictId,
      chapterId: chapter.id,
      seriesId: chapter.seriesId,
      baseRev: chapter.rev,
      title: 'Mine',
      content: incoming,
      authorId: me.author.user.id,
      reason: 'conflict',
      device: 'Firefox on Android',
      rev: res.rev,
    });

    // Resolving: the author applies the text they chose with a normal PUT, then dismisses the copy.
    const resolved = await putFrom(`/api/chapters/${chapter.id}`, res.rev, { content: incoming });
    expect(resolved).toMatchObject({ content: incoming, mergeStatus: 'fast-forward' });
    const dismissed = await me.del(`/api/chapter-conflicts/${copy.id}`);
    expect(dismissed.statusCode).toBe(200);
    expect(json(dismissed).deletedAt).not.toBeNull();
    expect(await me.read(`/api/chapters/${chapter.id}/conflicts`)).toEqual([]);
    expectError(await me.del(`/api/chapter-conflicts/${copy.id}`), 404, 'NOT_FOUND');
  });

  it('keeps text edited after the chapter was deleted as a recoverable copy', async () => {
    const chapter = await chapterWith(base);
    const tombstone = json(await me.del(`/api/chapters/${chapter.id}`));
    const late = base + '\n\nA paragraph written offline.';
    const res = await putFrom(`/api/chapters/${chapter.id}`, chapter.rev, { content: late });
    expect(res).toMatchObject({ mergeStatus: 'deleted', content: base, deletedAt: tombstone.deletedAt, conflictId: expect.any(String) });

    const { db } = t.app.deps.database;
    const copy = await db.selectFrom('chapterConflicts').selectAll().where('id', '=', res.conflictId).executeTakeFirstOrThrow();
    expect(copy).toMatchObject({ chapterId: chapter.id, content: late, reason: 'edited-after-delete', deletedAt: null, baseRev: chapter.rev });
    const stored = await db.selectFrom('chapters').select(['content', 'rev']).where('id', '=', chapter.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ content: base, rev: tombstone.rev });

    // An unchanged text on a deleted chapter keeps nothing.
    const again = await putFrom(`/api/chapters/${chapter.id}`, chapter.rev, { content: base, status: 'completed' });
    expect(again.mergeStatus).toBe('deleted');
    expect(again.conflictId).toBeUndefined();
  });

  it("another author's chapter cannot receive text or copies", async () => {
    const chapter = await chapterWith(base);
    const stranger = storyClient(t.app, await signUp(t.app, { plan: 'wordsmith' }));
    expectError(await stranger.put(`/api/chapters/${chapter.id}`, { content: 'mine now' }, based(chapter.rev)), 404, 'NOT_FOUND');
    const { db } = t.app.deps.database;
    expect(await db.selectFrom('chapterConflicts').selectAll().execute()).toEqual([]);
    expect((await me.read(`/api/chapters/${chapter.id}`)).content).toBe(base);
  });
});
