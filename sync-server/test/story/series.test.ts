import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES, bookSchema, newId, seriesSchema, upgradeMessage } from '@chronicler/schema';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { type StoryClient, expectError, storyClient } from '../support/story-client.ts';

let t: TestApp;
let me: StoryClient;
let other: StoryClient;

beforeEach(async () => {
  t = await createTestApp();
  me = storyClient(t.app, await signUp(t.app, { plan: 'wordsmith' }));
  other = storyClient(t.app, await signUp(t.app, { plan: 'wordsmith' }));
});
afterEach(async () => t.close());

describe('series', () => {
  it('creates with the spec defaults and answers the full row', async () => {
    const res = await me.post('/api/series', { title: '  The Long Road ', description: 'A journey' });
    expect(res.statusCode).toBe(201);
    const series = seriesSchema.parse(json(res));
    expect(series).toMatchObject({
      title: 'The Long Road',
      description: 'A journey',
      totalBooks: 3,
      currentBook: 1,
      coverImage: null,
      ownerId: me.author.user.id,
      deletedAt: null,
    });
    expect(series.rev).toBeGreaterThan(0);
    expect(series.createdAt).toBe(series.updatedAt);
    expect(await me.read('/api/series')).toEqual([series]);
    expect(await me.read(`/api/series/${series.id}`)).toEqual(series);
  });

  it('keeps the client-made id; a taken id is a 409 and changes nothing', async () => {
    const id = newId();
    const series = await me.create('/api/series', { id, title: 'Mine' });
    expect(series.id).toBe(id);
    expectError(await other.post('/api/series', { id, title: 'Theirs' }), 409, 'CONFLICT');
    expect(await other.read('/api/series')).toEqual([]);
    expect((await me.read(`/api/series/${id}`)).title).toBe('Mine');
  });

  it('answers the spec messages and rejects unknown fields', async () => {
    expectError(await me.post('/api/series', {}), 422, 'VALIDATION_FAILED', MESSAGES.series.titleRequired);
    expectError(await me.post('/api/series', { title: '   ' }), 422, 'VALIDATION_FAILED', 'Please provide a title for your series');
    expectError(await me.post('/api/series', { title: 'T', totalBooks: 0 }), 422, 'VALIDATION_FAILED', MESSAGES.series.totalBooksMin);
    const unknown = await me.post('/api/series', { title: 'T', ownerId: other.author.user.id });
    expectError(unknown, 422, 'VALIDATION_FAILED');
    expect(json(unknown).fields).toBeDefined();
    const series = await me.create('/api/series', { title: 'T' });
    expectError(await me.put(`/api/series/${series.id}`, { name: ' ' }), 422, 'VALIDATION_FAILED', 'Series name is required');
    expectError(await me.put(`/api/series/${series.id}`, { ownerId: other.author.user.id }), 422, 'VALIDATION_FAILED');
  });

  it('needs a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/series' });
    expectError(res, 401, 'UNAUTHENTICATED');
    const post = await t.app.inject({ method: 'POST', url: '/api/series', payload: { title: 'x' } });
    expectError(post, 401, 'UNAUTHENTICATED');
  });

  it('updates with the spec body (name and description)', async () => {
    const series = await me.create('/api/series', { title: 'Old' });
    const res = await me.put(`/api/series/${series.id}`, { name: 'New', description: 'Now with words' });
    expect(res.statusCode).toBe(200);
    const updated = json(res);
    expect(updated).toMatchObject({ id: series.id, title: 'New', description: 'Now with words', mergeStatus: 'applied' });
    expect(updated.rev).toBeGreaterThan(series.rev);
    expect(seriesSchema.parse(updated)).toBeTruthy();
  });

  it('keeps the author’s era order for the timeline, and refuses an unreasonable one', async () => {
    const series = await me.create('/api/series', { title: 'Ages' });
    expect(series.eraOrder).toEqual([]);
    const updated = json(await me.put(`/api/series/${series.id}`, { eraOrder: ['', 'age ash', 'age#1'] }));
    expect(updated.eraOrder).toEqual(['', 'age ash', 'age#1']);
    expect((await me.read(`/api/series/${series.id}`)).eraOrder).toEqual(['', 'age ash', 'age#1']);
    expectError(await me.put(`/api/series/${series.id}`, { eraOrder: ['x'.repeat(201)] }), 422, 'VALIDATION_FAILED', 'An era name can be at most 200 characters');
    expectError(await me.put(`/api/series/${series.id}`, { eraOrder: Array.from({ length: 201 }, (_, i) => `e${i}`) }), 422, 'VALIDATION_FAILED', 'At most 200 eras can be ordered');
    expectError(await me.put(`/api/series/${series.id}`, { eraOrder: 'age' }), 422, 'VALIDATION_FAILED');
  });

  it("hides another author's series (404) and leaves it unchanged", async () => {
    const series = await me.create('/api/series', { title: 'Private' });
    expectError(await other.get(`/api/series/${series.id}`), 404, 'NOT_FOUND', 'Not found');
    expectError(await other.put(`/api/series/${series.id}`, { name: 'Hacked' }), 404, 'NOT_FOUND');
    expectError(await other.del(`/api/series/${series.id}`), 404, 'NOT_FOUND');
    expectError(await other.get(`/api/series/${series.id}/books`), 404, 'NOT_FOUND');
    expectError(await other.get(`/api/series/not-an-id`), 404, 'NOT_FOUND');
    expect(await other.read('/api/series')).toEqual([]);
    expect(await me.read(`/api/series/${series.id}`)).toEqual(series);
  });

  it('limits an apprentice to one series and lets a wordsmith have more', async () => {
    const apprentice = storyClient(t.app, await signUp(t.app, { plan: 'apprentice' }));
    await apprentice.create('/api/series', { title: 'First' });
    expectError(await apprentice.post('/api/series', { title: 'Second' }), 403, 'PLAN_LIMIT', upgradeMessage('wordsmith'));
    expect(await apprentice.read('/api/series')).toHaveLength(1);
    for (const title of ['One', 'Two', 'Three']) await me.create('/api/series', { title });
    expect(await me.read('/api/series')).toHaveLength(3);
  });

  it('counts only live series against the limit', async () => {
    const apprentice = storyClient(t.app, await signUp(t.app, { plan: 'apprentice' }));
    const first = await apprentice.create('/api/series', { title: 'First' });
    expect((await apprentice.del(`/api/series/${first.id}`)).statusCode).toBe(200);
    await apprentice.create('/api/series', { title: 'Second' });
  });

  it('deletes a series and everything under it in one write', async () => {
    const { series, book, chapter } = await me.seriesWithChapter();
    const character = await me.create('/api/characters', { seriesId: series.id, name: 'Ann' });
    const friend = await me.create('/api/characters', { seriesId: series.id, name: 'Bo' });
    const relationship = await me.create('/api/character-relationships', {
      sourceCharacterId: character.id,
      targetCharacterId: friend.id,
      relationshipType: 'ally',
    });
    const location = await me.create('/api/locations', { seriesId: series.id, name: 'Harbour' });
    const event = await me.create('/api/timeline-events', { seriesId: series.id, title: 'Arrival', characterIds: [character.id] });

    const res = await me.del(`/api/series/${series.id}`);
    expect(res.statusCode).toBe(200);
    const tombstone = json(res);
    expect(tombstone).toMatchObject({ id: series.id, deletedAt: expect.any(String) });

    const { db } = t.app.deps.database;
    const tables = [
      ['books', book.id],
      ['chapters', chapter.id],
      ['characters', character.id],
      ['characters', friend.id],
      ['characterRelationships', relationship.id],
      ['locations', location.id],
      ['timelineEvents', event.id],
    ] as const;
    for (const [table, id] of tables) {
      const row = await db.selectFrom(table).select(['rev', 'deletedAt']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(row, `${table} ${id}`).toEqual({ rev: tombstone.rev, deletedAt: tombstone.deletedAt });
    }
    expectError(await me.get(`/api/series/${series.id}`), 404, 'NOT_FOUND');
    expectError(await me.get(`/api/chapters/${chapter.id}`), 404, 'NOT_FOUND');
    expectError(await me.del(`/api/series/${series.id}`), 404, 'NOT_FOUND');
    expect(await me.read('/api/series')).toEqual([]);
  });
});

describe('books', () => {
  it('places new books after the live ones, ignoring the client position', async () => {
    const series = await me.create('/api/series', { title: 'S' });
    const first = await me.create('/api/books', { seriesId: series.id, title: 'One', position: 9 });
    const second = await me.create('/api/books', { seriesId: series.id, title: 'Two', description: 'More', status: 'planning' });
    expect(bookSchema.parse(first)).toMatchObject({ position: 1, status: 'in_progress', wordCount: 0, description: '', seriesId: series.id });
    expect(second).toMatchObject({ position: 2, status: 'planning', description: 'More' });
    expect(await me.read(`/api/series/${series.id}/books`)).toEqual([first, second]);
    expect(await me.read(`/api/books/${first.id}`)).toEqual(first);
  });

  it('answers the spec messages', async () => {
    const series = await me.create('/api/series', { title: 'S' });
    expectError(await me.post('/api/books', { title: 'B' }), 422, 'VALIDATION_FAILED', MESSAGES.book.seriesRequired);
    expectError(await me.post('/api/books', { seriesId: series.id }), 422, 'VALIDATION_FAILED', 'Please provide a title for your book');
    expectError(await me.post('/api/books', { seriesId: series.id, title: ' ' }), 422, 'VALIDATION_FAILED', 'Please provide a title for your book');
    expectError(await me.post('/api/books', { seriesId: series.id, title: 'B', colour: 'red' }), 422, 'VALIDATION_FAILED');
    expectError(await me.post('/api/books', { seriesId: series.id, title: 'B', status: 'done' }), 422, 'VALIDATION_FAILED');
  });

  it("cannot add to, read, change or delete another author's books", async () => {
    const series = await me.create('/api/series', { title: 'S' });
    const book = await me.create('/api/books', { seriesId: series.id, title: 'B' });
    expectError(await other.post('/api/books', { seriesId: series.id, title: 'Sneaky' }), 404, 'NOT_FOUND');
    expectError(await other.get(`/api/books/${book.id}`), 404, 'NOT_FOUND');
    expectError(await other.put(`/api/books/${book.id}`, { title: 'Hacked' }), 404, 'NOT_FOUND');
    expectError(await other.del(`/api/books/${book.id}`), 404, 'NOT_FOUND');
    expectError(await other.get(`/api/books/${book.id}/chapters`), 404, 'NOT_FOUND');
    expect(await me.read(`/api/series/${series.id}/books`)).toEqual([book]);
  });

  it('updates title, description and status', async () => {
    const series = await me.create('/api/series', { title: 'S' });
    const book = await me.create('/api/books', { seriesId: series.id, title: 'B' });
    const res = await me.put(`/api/books/${book.id}`, { title: 'B2', description: 'D', status: 'completed' });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ title: 'B2', description: 'D', status: 'completed', mergeStatus: 'applied' });
    expectError(await me.put(`/api/books/${book.id}`, { title: '' }), 422, 'VALIDATION_FAILED', MESSAGES.book.titleRequired);
  });

  it('limits an apprentice to three books per series; a wordsmith has no limit', async () => {
    const apprentice = storyClient(t.app, await signUp(t.app, { plan: 'apprentice' }));
    const series = await apprentice.create('/api/series', { title: 'S' });
    for (const title of ['1', '2', '3']) await apprentice.create('/api/books', { seriesId: series.id, title });
    expectError(await apprentice.post('/api/books', { seriesId: series.id, title: '4' }), 403, 'PLAN_LIMIT', upgradeMessage('wordsmith'));
    expect(await apprentice.read(`/api/series/${series.id}/books`)).toHaveLength(3);

    const mine = await me.create('/api/series', { title: 'S' });
    for (const title of ['1', '2', '3', '4', '5']) await me.create('/api/books', { seriesId: mine.id, title });
    expect(await me.read(`/api/series/${mine.id}/books`)).toHaveLength(5);
  });

  it('deletes a book with its chapters in one write and renumbers nothing else', async () => {
    const { series, book, chapter } = await me.seriesWithChapter();
    const keep = await me.create('/api/books', { seriesId: series.id, title: 'Two' });
    const event = await me.create('/api/timeline-events', { seriesId: series.id, title: 'E', bookId: book.id, chapterId: chapter.id });
    const res = await me.del(`/api/books/${book.id}`);
    expect(res.statusCode).toBe(200);
    const tombstone = json(res);
    expect(tombstone.deletedAt).not.toBeNull();
    const stored = await t.app.deps.database.db.selectFrom('chapters').select(['rev', 'deletedAt']).where('id', '=', chapter.id).executeTakeFirstOrThrow();
    expect(stored.rev).toBe(tombstone.rev);
    expect(stored.deletedAt).toBe(tombstone.deletedAt);
    // The event stays, without its references to what was deleted.
    expect(await me.read(`/api/timeline-events/${event.id}`)).toMatchObject({ bookId: null, chapterId: null, rev: tombstone.rev });
    expect(await me.read(`/api/series/${series.id}/books`)).toEqual([keep]);
    expectError(await me.get(`/api/books/${book.id}`), 404, 'NOT_FOUND');
    // A new book counts live ones only: it becomes number 2.
    expect((await me.create('/api/books', { seriesId: series.id, title: 'Three' })).position).toBe(2);
  });
});

describe('revs', () => {
  it('strictly increase across writes, and a replayed create applies once', async () => {
    const revs: number[] = [];
    const series = await me.create('/api/series', { title: 'S' });
    revs.push(series.rev);
    const book = await me.create('/api/books', { seriesId: series.id, title: 'B' });
    revs.push(book.rev);
    revs.push(json(await me.put(`/api/books/${book.id}`, { title: 'B2' })).rev);
    revs.push(json(await me.put(`/api/series/${series.id}`, { name: 'S2' })).rev);
    revs.push(json(await me.del(`/api/books/${book.id}`)).rev);
    for (let i = 1; i < revs.length; i++) expect(revs[i]).toBeGreaterThan(revs[i - 1]!);

    const key = { 'idempotency-key': 'create-book-1' };
    const body = { seriesId: series.id, title: 'Once' };
    const first = await me.post('/api/books', body, key);
    const replay = await me.post('/api/books', body, key);
    expect(first.statusCode).toBe(201);
    expect(replay.statusCode).toBe(201);
    expect(json(replay)).toEqual(json(first));
    expect(await me.read(`/api/series/${series.id}/books`)).toHaveLength(1);
  });
});

describe('shared series (membership rows, as collaboration will write them)', () => {
  async function share(seriesId: string, userId: string, role: 'viewer' | 'editor' | 'admin') {
    const now = new Date().toISOString();
    await t.app.deps.database.db
      .insertInto('seriesMembers')
      .values({ seriesId, userId, role, rev: 0, createdAt: now, updatedAt: now, deletedAt: null })
      .execute();
  }

  it('lets a member see the series; an editor writes content under the owner plan; a viewer only reads', async () => {
    const owner = storyClient(t.app, await signUp(t.app, { plan: 'apprentice' }));
    const editor = storyClient(t.app, await signUp(t.app, { plan: 'legendary' }));
    const viewer = storyClient(t.app, await signUp(t.app, { plan: 'legendary' }));
    const { series, book, chapter } = await owner.seriesWithChapter();
    await share(series.id, editor.author.user.id, 'editor');
    await share(series.id, viewer.author.user.id, 'viewer');

    expect((await editor.read('/api/series')).map((s: any) => s.id)).toEqual([series.id]);
    expect(await viewer.read(`/api/chapters/${chapter.id}`)).toEqual(chapter);
    expectError(await viewer.put(`/api/chapters/${chapter.id}`, { content: 'x' }), 403, 'FORBIDDEN');
    expectError(await viewer.post('/api/books', { seriesId: series.id, title: 'B2' }), 403, 'FORBIDDEN');

    const edited = await editor.put(`/api/chapters/${chapter.id}`, { content: 'Edited by a collaborator.' });
    expect(json(edited)).toMatchObject({ content: 'Edited by a collaborator.', mergeStatus: 'applied' });
    // The owner's plan governs: the editor's Legendary plan does not lift the apprentice's limits or gates.
    await editor.create('/api/books', { seriesId: series.id, title: 'Two' });
    await editor.create('/api/books', { seriesId: series.id, title: 'Three' });
    expectError(await editor.post('/api/books', { seriesId: series.id, title: 'Four' }), 403, 'PLAN_LIMIT');
    expectError(await editor.post('/api/timeline-events', { seriesId: series.id, title: 'E' }), 403, 'FEATURE_LOCKED');
    // Only the owner deletes the series; members may not rename it unless admin.
    expectError(await editor.del(`/api/series/${series.id}`), 403, 'FORBIDDEN');
    expectError(await editor.put(`/api/series/${series.id}`, { name: 'Renamed' }), 403, 'FORBIDDEN');
    expect((await owner.read(`/api/books/${book.id}`)).title).toBe('Book One');

    // A revoked membership hides everything again.
    await t.app.deps.database.db
      .updateTable('seriesMembers')
      .set({ deletedAt: new Date().toISOString() })
      .where('userId', '=', editor.author.user.id)
      .execute();
    expectError(await editor.get(`/api/chapters/${chapter.id}`), 404, 'NOT_FOUND');
    expect(await editor.read('/api/series')).toEqual([]);
  });
});
