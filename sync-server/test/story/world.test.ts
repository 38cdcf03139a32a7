/** Characters, relationships and locations. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES, bookAppearanceMessage, characterRelationshipSchema, characterSchema, locationSchema, upgradeMessage } from '@chronicler/schema';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { type StoryClient, expectError, storyClient } from '../support/story-client.ts';

let t: TestApp;
let me: StoryClient;
let other: StoryClient;
let apprentice: StoryClient;
let series: any;

beforeEach(async () => {
  t = await createTestApp();
  me = storyClient(t.app, await signUp(t.app, { plan: 'wordsmith' }));
  other = storyClient(t.app, await signUp(t.app, { plan: 'wordsmith' }));
  apprentice = storyClient(t.app, await signUp(t.app, { plan: 'apprentice' }));
  series = await me.create('/api/series', { title: 'S' });
});
afterEach(async () => t.close());

describe('characters', () => {
  it('creates with defaults, lists, reads and updates partially', async () => {
    const ann = characterSchema.parse(
      await me.create('/api/characters', { seriesId: series.id, name: 'Ann', bookAppearances: [3, 1, 3], role: 'protagonist' }),
    );
    expect(ann).toMatchObject({
      seriesId: series.id,
      name: 'Ann',
      role: 'protagonist',
      status: 'alive',
      age: '',
      bookAppearances: [1, 3],
      isProtagonist: false,
      avatar: null,
      avatarUrl: null,
    });
    expect(await me.read(`/api/series/${series.id}/characters`)).toEqual([ann]);
    const res = await me.put(`/api/characters/${ann.id}`, { isProtagonist: true });
    expect(res.statusCode).toBe(200);
    const updated = json(res);
    expect(updated).toMatchObject({ isProtagonist: true, name: 'Ann', bookAppearances: [1, 3], mergeStatus: 'applied' });
    const { mergeStatus: _m, ...row } = updated;
    expect(await me.read(`/api/characters/${ann.id}`)).toEqual(row);
  });

  it('answers the spec messages and rejects unknown fields', async () => {
    expectError(await me.post('/api/characters', { seriesId: series.id }), 422, 'VALIDATION_FAILED', MESSAGES.character.nameRequired);
    expectError(await me.post('/api/characters', { name: 'Ann' }), 422, 'VALIDATION_FAILED', 'No series selected');
    expectError(await me.post('/api/characters', { seriesId: series.id, name: 'Ann', bookAppearances: [6] }), 422, 'VALIDATION_FAILED', bookAppearanceMessage(6));
    expectError(await me.post('/api/characters', { seriesId: series.id, name: 'Ann', mood: 'sad' }), 422, 'VALIDATION_FAILED');
    const ann = await me.create('/api/characters', { seriesId: series.id, name: 'Ann' });
    expectError(await me.put(`/api/characters/${ann.id}`, { seriesId: series.id }), 422, 'VALIDATION_FAILED');
    expectError(await me.put(`/api/characters/${ann.id}`, { name: ' ' }), 422, 'VALIDATION_FAILED', MESSAGES.character.nameRequired);
  });

  it("cannot add to or touch another author's characters", async () => {
    const ann = await me.create('/api/characters', { seriesId: series.id, name: 'Ann' });
    expectError(await other.post('/api/characters', { seriesId: series.id, name: 'Spy' }), 404, 'NOT_FOUND');
    expectError(await other.get(`/api/series/${series.id}/characters`), 404, 'NOT_FOUND');
    expectError(await other.get(`/api/characters/${ann.id}`), 404, 'NOT_FOUND');
    expectError(await other.put(`/api/characters/${ann.id}`, { name: 'Changed' }), 404, 'NOT_FOUND');
    expectError(await other.del(`/api/characters/${ann.id}`), 404, 'NOT_FOUND');
    expectError(await other.get(`/api/characters/${ann.id}/timeline`), 404, 'NOT_FOUND');
    expect(await me.read(`/api/series/${series.id}/characters`)).toEqual([ann]);
  });

  it('limits an apprentice to ten characters per series; a wordsmith has no limit', async () => {
    const mine = await apprentice.create('/api/series', { title: 'A' });
    for (let i = 1; i <= 10; i++) await apprentice.create('/api/characters', { seriesId: mine.id, name: `C${i}` });
    expectError(await apprentice.post('/api/characters', { seriesId: mine.id, name: 'C11' }), 403, 'PLAN_LIMIT', upgradeMessage('wordsmith'));
    expect(await apprentice.read(`/api/series/${mine.id}/characters`)).toHaveLength(10);
    for (let i = 1; i <= 11; i++) await me.create('/api/characters', { seriesId: series.id, name: `C${i}` });
  });

  it('deletes with its relationships and takes it off timeline events, in one write', async () => {
    const ann = await me.create('/api/characters', { seriesId: series.id, name: 'Ann' });
    const bo = await me.create('/api/characters', { seriesId: series.id, name: 'Bo' });
    const cy = await me.create('/api/characters', { seriesId: series.id, name: 'Cy' });
    const out = await me.create('/api/character-relationships', { sourceCharacterId: ann.id, targetCharacterId: bo.id, relationshipType: 'ally' });
    const back = await me.create('/api/character-relationships', { sourceCharacterId: cy.id, targetCharacterId: ann.id, relationshipType: 'enemy' });
    const keep = await me.create('/api/character-relationships', { sourceCharacterId: bo.id, targetCharacterId: cy.id, relationshipType: 'family' });
    const event = await me.create('/api/timeline-events', { seriesId: series.id, title: 'Meeting', characterIds: [ann.id, bo.id] });

    const res = await me.del(`/api/characters/${ann.id}`);
    expect(res.statusCode).toBe(200);
    const tombstone = json(res);
    expect(tombstone.deletedAt).not.toBeNull();
    expect(await me.read(`/api/series/${series.id}/character-relationships`)).toEqual([keep]);
    const { db } = t.app.deps.database;
    for (const id of [out.id, back.id]) {
      const row = await db.selectFrom('characterRelationships').select(['rev', 'deletedAt']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.rev).toBe(tombstone.rev);
      expect(row.deletedAt).not.toBeNull();
    }
    expect(await me.read(`/api/timeline-events/${event.id}`)).toMatchObject({ characterIds: [bo.id], rev: tombstone.rev });
    expectError(await me.get(`/api/characters/${ann.id}`), 404, 'NOT_FOUND');
  });
});

describe('character relationships', () => {
  it('creates, lists, updates and deletes', async () => {
    const ann = await me.create('/api/characters', { seriesId: series.id, name: 'Ann' });
    const bo = await me.create('/api/characters', { seriesId: series.id, name: 'Bo' });
    const rel = characterRelationshipSchema.parse(
      await me.create('/api/character-relationships', { sourceCharacterId: ann.id, targetCharacterId: bo.id, relationshipType: 'mentor' }),
    );
    expect(rel).toMatchObject({ seriesId: series.id, description: '', relationshipType: 'mentor' });
    expect(await me.read(`/api/series/${series.id}/character-relationships`)).toEqual([rel]);
    const res = await me.put(`/api/character-relationships/${rel.id}`, { relationshipType: 'romantic', description: 'Slowly' });
    expect(json(res)).toMatchObject({ relationshipType: 'romantic', description: 'Slowly', mergeStatus: 'applied' });
    expectError(await me.put(`/api/character-relationships/${rel.id}`, { sourceCharacterId: bo.id }), 422, 'VALIDATION_FAILED');
    const del = await me.del(`/api/character-relationships/${rel.id}`);
    expect(del.statusCode).toBe(200);
    expect(await me.read(`/api/series/${series.id}/character-relationships`)).toEqual([]);
  });

  it('refuses a character related to themselves, across series, or foreign characters', async () => {
    const ann = await me.create('/api/characters', { seriesId: series.id, name: 'Ann' });
    expectError(
      await me.post('/api/character-relationships', { sourceCharacterId: ann.id, targetCharacterId: ann.id, relationshipType: 'ally' }),
      422,
      'VALIDATION_FAILED',
      'A character cannot have a relationship with themselves',
    );
    const second = await me.create('/api/series', { title: 'S2' });
    const zed = await me.create('/api/characters', { seriesId: second.id, name: 'Zed' });
    expectError(
      await me.post('/api/character-relationships', { sourceCharacterId: ann.id, targetCharacterId: zed.id, relationshipType: 'ally' }),
      422,
      'VALIDATION_FAILED',
      'Both characters of a relationship must belong to the same series',
    );
    const theirSeries = await other.create('/api/series', { title: 'Theirs' });
    const theirs = await other.create('/api/characters', { seriesId: theirSeries.id, name: 'X' });
    expectError(
      await me.post('/api/character-relationships', { sourceCharacterId: ann.id, targetCharacterId: theirs.id, relationshipType: 'ally' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await other.post('/api/character-relationships', { sourceCharacterId: ann.id, targetCharacterId: theirs.id, relationshipType: 'ally' }),
      404,
      'NOT_FOUND',
    );
    expect(await me.read(`/api/series/${series.id}/character-relationships`)).toEqual([]);
  });

  it('needs relationship mapping on the plan to write, but never to read', async () => {
    const mine = await apprentice.create('/api/series', { title: 'A' });
    const ann = await apprentice.create('/api/characters', { seriesId: mine.id, name: 'Ann' });
    const bo = await apprentice.create('/api/characters', { seriesId: mine.id, name: 'Bo' });
    const body = { sourceCharacterId: ann.id, targetCharacterId: bo.id, relationshipType: 'ally' };
    expectError(await apprentice.post('/api/character-relationships', body), 403, 'FEATURE_LOCKED', upgradeMessage('wordsmith'));
    expect(await apprentice.read(`/api/series/${mine.id}/character-relationships`)).toEqual([]);

    // Made while on a higher plan, then downgraded: still readable, no longer writable.
    await t.app.deps.database.db.updateTable('users').set({ plan: 'wordsmith' }).where('id', '=', apprentice.author.user.id).execute();
    const rel = await apprentice.create('/api/character-relationships', body);
    await t.app.deps.database.db.updateTable('users').set({ plan: 'apprentice' }).where('id', '=', apprentice.author.user.id).execute();
    expect(await apprentice.read(`/api/series/${mine.id}/character-relationships`)).toEqual([rel]);
    expectError(await apprentice.put(`/api/character-relationships/${rel.id}`, { description: 'x' }), 403, 'FEATURE_LOCKED');
    expectError(await apprentice.del(`/api/character-relationships/${rel.id}`), 403, 'FEATURE_LOCKED');
  });
});

describe('book appearances', () => {
  it("take the series' own books: Books 6 and 7 of a seven-book saga, never a book it does not have", async () => {
    for (let i = 1; i <= 7; i++) await me.create('/api/books', { seriesId: series.id, title: `Book ${i}` });
    const ann = await me.create('/api/characters', { seriesId: series.id, name: 'Ann', bookAppearances: [7, 6, 1] });
    expect(ann.bookAppearances).toEqual([1, 6, 7]);
    const quay = await me.create('/api/locations', { seriesId: series.id, name: 'Quay', bookAppearances: [7] });
    expect(quay.bookAppearances).toEqual([7]);
    expectError(await me.post('/api/characters', { seriesId: series.id, name: 'Bo', bookAppearances: [8] }), 422, 'VALIDATION_FAILED', bookAppearanceMessage(8));
    expectError(await me.put(`/api/characters/${ann.id}`, { bookAppearances: [6, 9] }), 422, 'VALIDATION_FAILED', bookAppearanceMessage(9));
    expectError(await me.put(`/api/locations/${quay.id}`, { bookAppearances: [8] }), 422, 'VALIDATION_FAILED', bookAppearanceMessage(8));
    expect(json(await me.put(`/api/locations/${quay.id}`, { bookAppearances: [2, 6] }))).toMatchObject({ bookAppearances: [2, 6], mergeStatus: 'applied' });
  });

  it("keep the spec's five valid in any series, so rows written before stay as they are", async () => {
    const ann = await me.create('/api/characters', { seriesId: series.id, name: 'Ann', bookAppearances: [4, 5] });
    expect(ann.bookAppearances).toEqual([4, 5]);
    expect(json(await me.put(`/api/characters/${ann.id}`, { name: 'Anna' }))).toMatchObject({ bookAppearances: [4, 5], name: 'Anna' });
  });
});

describe('locations', () => {
  it('creates with defaults, lists, reads, updates and deletes', async () => {
    const harbour = locationSchema.parse(await me.create('/api/locations', { seriesId: series.id, name: 'Harbour', bookAppearances: [2] }));
    expect(harbour).toMatchObject({ locationType: 'general', importance: 'secondary', description: '', image: null, bookAppearances: [2] });
    expect(await me.read(`/api/series/${series.id}/locations`)).toEqual([harbour]);
    expect(await me.read(`/api/locations/${harbour.id}`)).toEqual(harbour);
    const res = await me.put(`/api/locations/${harbour.id}`, { locationType: 'city', importance: 'main' });
    expect(json(res)).toMatchObject({ name: 'Harbour', locationType: 'city', importance: 'main', mergeStatus: 'applied' });
    const event = await me.create('/api/timeline-events', { seriesId: series.id, title: 'Landing', locationId: harbour.id });
    expect((await me.del(`/api/locations/${harbour.id}`)).statusCode).toBe(200);
    expect(await me.read(`/api/series/${series.id}/locations`)).toEqual([]);
    expect(await me.read(`/api/timeline-events/${event.id}`)).toMatchObject({ locationId: null });
  });

  it('keeps the author’s "always include" mark: unmarked by default, set on create or update, in the sync feed', async () => {
    const plain = locationSchema.parse(await me.create('/api/locations', { seriesId: series.id, name: 'Quay' }));
    expect(plain.alwaysInclude).toBe(false);
    const marked = locationSchema.parse(await me.create('/api/locations', { seriesId: series.id, name: 'Mill', alwaysInclude: true }));
    expect(marked.alwaysInclude).toBe(true);
    expect(json(await me.put(`/api/locations/${plain.id}`, { alwaysInclude: true }))).toMatchObject({ alwaysInclude: true, name: 'Quay' });
    expect(json(await me.put(`/api/locations/${marked.id}`, { alwaysInclude: false }))).toMatchObject({ alwaysInclude: false });
    expect(await me.read(`/api/locations/${plain.id}`)).toMatchObject({ alwaysInclude: true });
    const feed = await me.read('/api/sync/changes?since=0');
    const synced = Object.fromEntries(feed.changes.locations.map((l: { name: string; alwaysInclude: boolean }) => [l.name, l.alwaysInclude]));
    expect(synced).toEqual({ Quay: true, Mill: false });
    expectError(await me.put(`/api/locations/${plain.id}`, { alwaysInclude: 'yes' }), 422, 'VALIDATION_FAILED');
  });

  it('answers the spec messages', async () => {
    expectError(await me.post('/api/locations', { seriesId: series.id }), 422, 'VALIDATION_FAILED', MESSAGES.location.nameRequired);
    expectError(await me.post('/api/locations', { name: 'X' }), 422, 'VALIDATION_FAILED', 'No series selected');
    expectError(await me.post('/api/locations', { seriesId: series.id, name: 'X', locationType: 'moon' }), 422, 'VALIDATION_FAILED');
    expectError(await me.post('/api/locations', { seriesId: series.id, name: 'X', mapCoordinates: [1, 2] }), 422, 'VALIDATION_FAILED');
  });

  it("cannot add to or touch another author's locations", async () => {
    const harbour = await me.create('/api/locations', { seriesId: series.id, name: 'Harbour' });
    expectError(await other.post('/api/locations', { seriesId: series.id, name: 'Spy' }), 404, 'NOT_FOUND');
    expectError(await other.get(`/api/series/${series.id}/locations`), 404, 'NOT_FOUND');
    expectError(await other.get(`/api/locations/${harbour.id}`), 404, 'NOT_FOUND');
    expectError(await other.put(`/api/locations/${harbour.id}`, { name: 'Changed' }), 404, 'NOT_FOUND');
    expectError(await other.del(`/api/locations/${harbour.id}`), 404, 'NOT_FOUND');
    expect(await me.read(`/api/series/${series.id}/locations`)).toEqual([harbour]);
  });

  it('limits an apprentice to ten locations per series; a wordsmith has no limit', async () => {
    const mine = await apprentice.create('/api/series', { title: 'A' });
    for (let i = 1; i <= 10; i++) await apprentice.create('/api/locations', { seriesId: mine.id, name: `L${i}` });
    expectError(await apprentice.post('/api/locations', { seriesId: mine.id, name: 'L11' }), 403, 'PLAN_LIMIT', upgradeMessage('wordsmith'));
    expect(await apprentice.read(`/api/series/${mine.id}/locations`)).toHaveLength(10);
    for (let i = 1; i <= 11; i++) await me.create('/api/locations', { seriesId: series.id, name: `L${i}` });
  });
});
