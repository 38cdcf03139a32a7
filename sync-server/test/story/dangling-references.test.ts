/**
 * Creates and updates replayed from an offline outbox that name a row another device deleted first
 * (story/dangling.ts): a relationship to a deleted character is stored tombstoned, a timeline
 * event drops its reference to a deleted book / chapter / location / character, a create under a
 * deleted series or book is stored tombstoned — each the same rows as when the delete comes after.
 * Rows the caller cannot see still answer as before (404, or 422 for event references).
 */
import { type BatchResult, characterRelationshipSchema, newId, timelineEventSchema } from '@chronicler/schema';
import { afterEach, describe, expect, it } from 'vitest';
import { json } from '../support/helpers.ts';
import { expectError, type StoryClient } from '../support/story-client.ts';
import { type Author, bothOrders, idBook, ok2xx, remove, twoAuthors } from '../support/dangling-world.ts';

type Id = (name: string) => string;

/** A series with two books (a chapter in each), three characters, two locations and an event. */
async function storyWorld(me: StoryClient, id: Id): Promise<void> {
  await me.create('/api/series', { id: id('series'), title: 'Saga' });
  for (const b of ['book1', 'book2']) {
    await me.create('/api/books', { id: id(b), seriesId: id('series'), title: b });
    await me.create('/api/chapters', { id: id(`${b}-ch`), bookId: id(b), title: `${b} chapter`, content: 'Words.' });
  }
  for (const c of ['ann', 'bob', 'cy']) await me.create('/api/characters', { id: id(c), seriesId: id('series'), name: c });
  for (const l of ['keep', 'tower']) await me.create('/api/locations', { id: id(l), seriesId: id('series'), name: l });
  await me.create('/api/timeline-events', { id: id('event'), seriesId: id('series'), title: 'Before', bookId: id('book2'), characterIds: [id('cy')] });
}

describe('character relationships naming a character deleted elsewhere', () => {
  for (const side of ['target', 'source'] as const) {
    it(`a create whose ${side} was deleted is stored tombstoned, the same rows as delete-after`, async () => {
      const { deletedFirst, deletedAfter } = await bothOrders({
        setup: storyWorld,
        remove: (me, id) => remove(me, `/api/characters/${id('bob')}`),
        write: (me, id) =>
          me.post('/api/character-relationships', {
            id: id('rel'),
            sourceCharacterId: side === 'target' ? id('ann') : id('bob'),
            targetCharacterId: side === 'target' ? id('bob') : id('ann'),
            relationshipType: 'ally',
            description: 'Met on the road',
          }),
      });
      expect(deletedFirst.state).toEqual(deletedAfter.state);
      // The answer is the tombstoned row: the client applies it and the relationship is gone.
      const answer = characterRelationshipSchema.parse(deletedFirst.answer);
      expect(answer.deletedAt).not.toBeNull();
      expect(answer).toMatchObject({ relationshipType: 'ally', description: 'Met on the road' });
      expect(deletedFirst.state.characterRelationships).toEqual([{ id: answer.id, deleted: true }]);
    });
  }

  let w: Author;
  afterEach(async () => w?.t.close());

  it('is 201 with deletedAt, not listed, and later updates of it answer mergeStatus deleted', async () => {
    w = await twoAuthors();
    const series = await w.me.create('/api/series', { title: 'S' });
    const ann = await w.me.create('/api/characters', { seriesId: series.id, name: 'Ann' });
    const bob = await w.me.create('/api/characters', { seriesId: series.id, name: 'Bob' });
    const live = await w.me.create('/api/character-relationships', { sourceCharacterId: ann.id, targetCharacterId: bob.id, relationshipType: 'enemy' });
    await remove(w.me, `/api/characters/${bob.id}`);
    const res = await w.me.post('/api/character-relationships', { sourceCharacterId: ann.id, targetCharacterId: bob.id, relationshipType: 'family' });
    expect(res.statusCode, res.body).toBe(201);
    const created = json(res);
    expect(created.deletedAt).not.toBeNull();
    expect(await w.me.read(`/api/series/${series.id}/character-relationships`)).toEqual([]);
    // The relationship that existed before the delete went with it; an update to either answers 'deleted'.
    for (const rel of [live, created]) {
      const update = ok2xx(await w.me.put(`/api/character-relationships/${rel.id}`, { description: 'Reconciled' }, { 'x-base-rev': String(rel.rev) }));
      expect(update).toMatchObject({ id: rel.id, mergeStatus: 'deleted' });
      expect(update.deletedAt).not.toBeNull();
    }
  });

  it("keeps 404 for another author's character (deleted or not), 422 across series, 403 without the feature", async () => {
    w = await twoAuthors();
    const series = await w.me.create('/api/series', { title: 'S' });
    const second = await w.me.create('/api/series', { title: 'S2' });
    const ann = await w.me.create('/api/characters', { seriesId: series.id, name: 'Ann' });
    const elsewhere = await w.me.create('/api/characters', { seriesId: second.id, name: 'Far' });
    const theirSeries = await w.other.create('/api/series', { title: 'Theirs' });
    const theirLive = await w.other.create('/api/characters', { seriesId: theirSeries.id, name: 'Spy' });
    const theirGone = await w.other.create('/api/characters', { seriesId: theirSeries.id, name: 'Ghost' });
    await remove(w.other, `/api/characters/${theirGone.id}`);
    for (const stranger of [theirLive.id, theirGone.id, newId()]) {
      expectError(await w.me.post('/api/character-relationships', { sourceCharacterId: ann.id, targetCharacterId: stranger, relationshipType: 'ally' }), 404, 'NOT_FOUND');
      expectError(await w.me.post('/api/character-relationships', { sourceCharacterId: stranger, targetCharacterId: ann.id, relationshipType: 'ally' }), 404, 'NOT_FOUND');
    }
    await remove(w.me, `/api/characters/${elsewhere.id}`);
    expectError(
      await w.me.post('/api/character-relationships', { sourceCharacterId: ann.id, targetCharacterId: elsewhere.id, relationshipType: 'ally' }),
      422,
      'VALIDATION_FAILED',
    );
    const db = w.t.app.deps.database.db;
    await db.updateTable('users').set({ plan: 'apprentice' }).where('id', '=', w.me.author.user.id).execute();
    const bob = await w.me.create('/api/characters', { seriesId: series.id, name: 'Bob' });
    await remove(w.me, `/api/characters/${bob.id}`);
    expectError(await w.me.post('/api/character-relationships', { sourceCharacterId: ann.id, targetCharacterId: bob.id, relationshipType: 'ally' }), 403, 'FEATURE_LOCKED');
    expect(await db.selectFrom('characterRelationships').selectAll().execute()).toEqual([]);
  });
});

describe('timeline events naming rows deleted elsewhere', () => {
  const references = (id: Id) => ({
    bookId: id('book1'),
    chapterId: id('book1-ch'),
    locationId: id('tower'),
    characterIds: [id('ann'), id('bob'), id('cy')],
  });
  const deletions = async (me: StoryClient, id: Id) => {
    await remove(me, `/api/books/${id('book1')}`);
    await remove(me, `/api/locations/${id('tower')}`);
    await remove(me, `/api/characters/${id('bob')}`);
  };

  it('a create keeps the event and drops the deleted references, the same rows as delete-after', async () => {
    const { deletedFirst, deletedAfter, id } = await bothOrders({
      setup: storyWorld,
      remove: deletions,
      write: (me, id) => me.post('/api/timeline-events', { id: id('new'), seriesId: id('series'), title: 'Coronation', ...references(id) }),
    });
    expect(deletedFirst.state).toEqual(deletedAfter.state);
    const answer = timelineEventSchema.parse(deletedFirst.answer);
    expect(answer).toMatchObject({ title: 'Coronation', bookId: null, chapterId: null, locationId: null, deletedAt: null });
    expect(answer.characterIds).toEqual([id('ann'), id('cy')]);
  });

  it('an update does the same', async () => {
    const { deletedFirst, deletedAfter, id } = await bothOrders({
      setup: storyWorld,
      remove: deletions,
      write: (me, id) => me.put(`/api/timeline-events/${id('event')}`, { title: 'Renamed', ...references(id) }),
    });
    expect(deletedFirst.state).toEqual(deletedAfter.state);
    expect(deletedFirst.answer).toMatchObject({ title: 'Renamed', bookId: null, chapterId: null, locationId: null, characterIds: [id('ann'), id('cy')], mergeStatus: 'applied' });
  });

  it('a deleted chapter of a live book drops only the chapter; a live chapter of another (deleted) book is still refused', async () => {
    const w = await twoAuthors();
    try {
      const series = await w.me.create('/api/series', { title: 'S' });
      const book = await w.me.create('/api/books', { seriesId: series.id, title: 'B' });
      const gone = await w.me.create('/api/chapters', { bookId: book.id, title: 'Gone' });
      const otherBook = await w.me.create('/api/books', { seriesId: series.id, title: 'B2' });
      const otherChapter = await w.me.create('/api/chapters', { bookId: otherBook.id, title: 'Elsewhere' });
      await remove(w.me, `/api/chapters/${gone.id}`);
      const event = await w.me.create('/api/timeline-events', { seriesId: series.id, title: 'E', bookId: book.id, chapterId: gone.id });
      expect(event).toMatchObject({ bookId: book.id, chapterId: null });
      await remove(w.me, `/api/books/${book.id}`);
      // The named book is gone, but the chapter is live in another book: inconsistent in either order.
      expectError(
        await w.me.post('/api/timeline-events', { seriesId: series.id, title: 'F', bookId: book.id, chapterId: otherChapter.id }),
        422,
        'VALIDATION_FAILED',
        "The chapter must belong to the event's book",
      );
    } finally {
      await w.t.close();
    }
  });

  it("keeps 422 for another author's rows (deleted or not) and for rows of another series, and 404 for their series", async () => {
    const w = await twoAuthors();
    try {
      const series = await w.me.create('/api/series', { title: 'S' });
      const second = await w.me.create('/api/series', { title: 'S2' });
      const event = await w.me.create('/api/timeline-events', { seriesId: series.id, title: 'E' });
      const farBook = await w.me.create('/api/books', { seriesId: second.id, title: 'Far' });
      await remove(w.me, `/api/books/${farBook.id}`);
      const theirSeries = await w.other.create('/api/series', { title: 'T' });
      const theirBook = await w.other.create('/api/books', { seriesId: theirSeries.id, title: 'TB' });
      const theirPlace = await w.other.create('/api/locations', { seriesId: theirSeries.id, name: 'TL' });
      const theirHero = await w.other.create('/api/characters', { seriesId: theirSeries.id, name: 'TC' });
      await remove(w.other, `/api/books/${theirBook.id}`);
      await remove(w.other, `/api/locations/${theirPlace.id}`);
      await remove(w.other, `/api/characters/${theirHero.id}`);
      for (const refs of [{ bookId: theirBook.id }, { locationId: theirPlace.id }, { characterIds: [theirHero.id] }, { bookId: farBook.id }, { locationId: newId() }]) {
        expectError(await w.me.post('/api/timeline-events', { seriesId: series.id, title: 'X', ...refs }), 422, 'VALIDATION_FAILED');
        expectError(await w.me.put(`/api/timeline-events/${event.id}`, refs), 422, 'VALIDATION_FAILED');
      }
      await remove(w.other, `/api/series/${theirSeries.id}`);
      expectError(await w.me.post('/api/timeline-events', { seriesId: theirSeries.id, title: 'X' }), 404, 'NOT_FOUND');
      expect(await w.me.read(`/api/timeline-events/${event.id}`)).toEqual(event);
    } finally {
      await w.t.close();
    }
  });
});

describe('creates under a series or book deleted elsewhere', () => {
  const cases: Array<{ name: string; remove: string; write: (id: Id) => [string, Record<string, unknown>] }> = [
    { name: 'chapter in a deleted book', remove: 'books/book1', write: (id) => ['/api/chapters', { id: id('new'), bookId: id('book1'), title: 'Late', content: 'Written offline.' }] },
    { name: 'book in a deleted series', remove: 'series/series', write: (id) => ['/api/books', { id: id('new'), seriesId: id('series'), title: 'Late' }] },
    { name: 'character in a deleted series', remove: 'series/series', write: (id) => ['/api/characters', { id: id('new'), seriesId: id('series'), name: 'Late' }] },
    { name: 'location in a deleted series', remove: 'series/series', write: (id) => ['/api/locations', { id: id('new'), seriesId: id('series'), name: 'Late' }] },
    {
      name: 'timeline event in a deleted series',
      remove: 'series/series',
      write: (id) => ['/api/timeline-events', { id: id('new'), seriesId: id('series'), title: 'Late', bookId: id('book2'), characterIds: [id('ann')] }],
    },
  ];
  for (const c of cases) {
    it(`a ${c.name} is stored tombstoned (201, deletedAt set), the same rows as delete-after`, async () => {
      const { deletedFirst, deletedAfter } = await bothOrders({
        setup: storyWorld,
        remove: (me, id) => {
          const [path, name] = c.remove.split('/') as [string, string];
          return remove(me, `/api/${path}/${id(name)}`);
        },
        write: (me, id) => me.post(...c.write(id)),
      });
      expect(deletedFirst.state).toEqual(deletedAfter.state);
      expect(deletedFirst.answer.deletedAt).not.toBeNull();
      expect(deletedAfter.answer.deletedAt).toBeNull();
    });
  }

  it("keeps 404 under another author's series or book, deleted or not", async () => {
    const w = await twoAuthors();
    try {
      const theirs = await w.other.create('/api/series', { title: 'T' });
      const theirBook = await w.other.create('/api/books', { seriesId: theirs.id, title: 'TB' });
      await remove(w.other, `/api/series/${theirs.id}`);
      expectError(await w.me.post('/api/chapters', { bookId: theirBook.id, title: 'X' }), 404, 'NOT_FOUND');
      for (const [path, body] of [['/api/characters', { name: 'X' }], ['/api/locations', { name: 'X' }], ['/api/timeline-events', { title: 'X' }]] as const) {
        expectError(await w.me.post(path, { seriesId: theirs.id, ...body }), 404, 'NOT_FOUND');
      }
      const db = w.t.app.deps.database.db;
      expect(await db.selectFrom('chapters').select('id').execute()).toEqual([]);
      expect(await db.selectFrom('characters').select('id').execute()).toEqual([]);
    } finally {
      await w.t.close();
    }
  });
});

describe('an offline outbox replayed through /api/sync/batch with Idempotency-Keys', () => {
  it('answers 2xx for every entry naming deleted rows, and the same again on replay with nothing applied twice', async () => {
    const w = await twoAuthors();
    try {
      const id = idBook();
      await storyWorld(w.me, id);
      // The other device, first.
      await remove(w.me, `/api/characters/${id('bob')}`);
      await remove(w.me, `/api/books/${id('book1')}`);
      await remove(w.me, `/api/locations/${id('tower')}`);
      const entries = [
        { method: 'POST' as const, path: '/api/character-relationships', body: { id: id('rel'), sourceCharacterId: id('ann'), targetCharacterId: id('bob'), relationshipType: 'ally' } },
        { method: 'PUT' as const, path: `/api/character-relationships/${id('rel')}`, body: { description: 'Edited offline' } },
        { method: 'POST' as const, path: '/api/timeline-events', body: { id: id('new'), seriesId: id('series'), title: 'Late', bookId: id('book1'), locationId: id('tower') } },
        { method: 'PUT' as const, path: `/api/timeline-events/${id('event')}`, body: { characterIds: [id('bob'), id('cy')] } },
        { method: 'POST' as const, path: '/api/chapters', body: { id: id('late'), bookId: id('book1'), title: 'Late chapter', content: 'Offline words.' } },
        { method: 'POST' as const, path: '/api/chapters/reorder', body: { chapters: [{ id: id('late'), position: 1 }, { id: id('book1-ch'), position: 2 }] } },
      ].map((entry, i) => ({ ...entry, headers: { idempotencyKey: `outbox-${i}-${id('series')}` } }));
      const send = async () => {
        const res = await w.t.app.inject({ method: 'POST', url: '/api/sync/batch', headers: w.me.author.headers, payload: { entries } });
        expect(res.statusCode, res.body).toBe(200);
        return json<BatchResult[]>(res);
      };
      const first = await send();
      expect(first.map((r) => r.status)).toEqual([201, 200, 201, 200, 201, 200]);
      const bodies = first.map((r) => r.body as Record<string, any>);
      expect(bodies[0]!.deletedAt).not.toBeNull();
      expect(bodies[1]).toMatchObject({ mergeStatus: 'deleted' });
      expect(bodies[2]).toMatchObject({ bookId: null, locationId: null, deletedAt: null });
      expect(bodies[3]).toMatchObject({ characterIds: [id('cy')] });
      expect(bodies[4]!.deletedAt).not.toBeNull();
      expect(bodies[5]).toEqual({ chapters: [] });

      const { db } = w.t.app.deps.database;
      const seq = async () => (await db.selectFrom('syncState').select('value').where('name', '=', 'seq').executeTakeFirstOrThrow()).value;
      const seqBefore = await seq();
      const again = await send();
      expect(again).toEqual(first);
      expect(await seq()).toBe(seqBefore);
      expect(await db.selectFrom('timelineEvents').select('id').where('title', '=', 'Late').execute()).toHaveLength(1);
    } finally {
      await w.t.close();
    }
  });
});
