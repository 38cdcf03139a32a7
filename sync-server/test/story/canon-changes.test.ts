/** Canon changes over the API (docs/decisions/0017-canon-changes.md), and the flashback mark. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canonChangeSchema } from '@chronicler/schema';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { type StoryClient, expectError, storyClient } from '../support/story-client.ts';

let t: TestApp;
let me: StoryClient;
let story: { series: any; one: any; two: any; siege: any; aftermath: any; council: any; mara: any; ilse: any; vell: any; bond: any };

beforeEach(async () => {
  t = await createTestApp();
  me = storyClient(t.app, await signUp(t.app, { plan: 'legendary' }));
  const series = await me.create('/api/series', { title: 'The Salt Road' });
  const one = await me.create('/api/books', { seriesId: series.id, title: 'Book One' });
  const two = await me.create('/api/books', { seriesId: series.id, title: 'Book Two' });
  const siege = await me.create('/api/chapters', { bookId: one.id, title: 'The Siege' });
  const aftermath = await me.create('/api/chapters', { bookId: one.id, title: 'Aftermath' });
  const council = await me.create('/api/chapters', { bookId: two.id, title: 'Council' });
  const mara = await me.create('/api/characters', { seriesId: series.id, name: 'Mara' });
  const ilse = await me.create('/api/characters', { seriesId: series.id, name: 'Ilse' });
  const vell = await me.create('/api/locations', { seriesId: series.id, name: 'Vell' });
  const bond = await me.create('/api/character-relationships', { sourceCharacterId: mara.id, targetCharacterId: ilse.id, relationshipType: 'ally' });
  story = { series, one, two, siege, aftermath, council, mara, ilse, vell, bond };
});
afterEach(async () => t.close());

const maraDies = () => ({
  seriesId: story.series.id, entityKind: 'character', entityId: story.mara.id, field: 'status', value: 'deceased', bookId: story.one.id, chapterId: story.siege.id,
});

describe('canon changes', () => {
  it('are created with their defaults, listed, read, updated and deleted', async () => {
    const change = canonChangeSchema.strict().parse(await me.create('/api/canon-changes', { ...maraDies(), note: 'Falls on the wall' }));
    expect(change).toMatchObject({ ...maraDies(), locationId: null, timelineEventId: null, date: '', note: 'Falls on the wall', deletedAt: null });
    expect(await me.read(`/api/series/${story.series.id}/canon-changes`)).toEqual([change]);
    expect(await me.read(`/api/canon-changes/${change.id}`)).toEqual(change);
    const updated = json(await me.put(`/api/canon-changes/${change.id}`, { value: 'missing', date: 'Third winter' }));
    expect(updated).toMatchObject({ value: 'missing', date: 'Third winter', field: 'status', mergeStatus: 'applied' });
    expect((await me.del(`/api/canon-changes/${change.id}`)).statusCode).toBe(200);
    expect(await me.read(`/api/series/${story.series.id}/canon-changes`)).toEqual([]);
    expectError(await me.get(`/api/canon-changes/${change.id}`), 404, 'NOT_FOUND');
  });

  it('refuse a field the entity does not have, a value the field does not take, and a place on anything but whereabouts', async () => {
    expectError(await me.post('/api/canon-changes', { ...maraDies(), field: 'mood' }), 422, 'VALIDATION_FAILED', 'A character has no field "mood" to change');
    expectError(await me.post('/api/canon-changes', { ...maraDies(), value: 'resting' }), 422, 'VALIDATION_FAILED', 'Must be one of: alive, deceased, missing, unknown');
    expectError(await me.post('/api/canon-changes', { ...maraDies(), field: 'birthYear', value: 'long ago' }), 422, 'VALIDATION_FAILED', 'Must be a year (a whole number)');
    expectError(await me.post('/api/canon-changes', { ...maraDies(), locationId: story.vell.id }), 422, 'VALIDATION_FAILED', 'Only a change of whereabouts names a place');
    expectError(await me.post('/api/canon-changes', { ...maraDies(), entityKind: 'location' }), 422, 'VALIDATION_FAILED');
    expectError(await me.post('/api/canon-changes', { ...maraDies(), chapterId: undefined }), 422, 'VALIDATION_FAILED', 'Choose the chapter where the change happens');
    expectError(await me.post('/api/canon-changes', { ...maraDies(), mood: 'grim' }), 422, 'VALIDATION_FAILED');
    // An update is checked against the stored field.
    const change = await me.create('/api/canon-changes', maraDies());
    expectError(await me.put(`/api/canon-changes/${change.id}`, { value: 'resting' }), 422, 'VALIDATION_FAILED', 'Must be one of: alive, deceased, missing, unknown');
    expectError(await me.put(`/api/canon-changes/${change.id}`, { field: 'name' }), 422, 'VALIDATION_FAILED');
  });

  it('record a place, a relationship ending and a location destroyed', async () => {
    const moved = await me.create('/api/canon-changes', { ...maraDies(), field: 'whereabouts', value: 'in the dungeons', locationId: story.vell.id });
    expect(moved).toMatchObject({ field: 'whereabouts', value: 'in the dungeons', locationId: story.vell.id });
    const ended = await me.create('/api/canon-changes', { ...maraDies(), entityKind: 'relationship', entityId: story.bond.id, field: 'status', value: 'ended' });
    expect(ended).toMatchObject({ entityKind: 'relationship', entityId: story.bond.id });
    await me.create('/api/canon-changes', { ...maraDies(), entityKind: 'location', entityId: story.vell.id, field: 'state', value: 'destroyed' });
    expect(await me.read(`/api/series/${story.series.id}/canon-changes`)).toHaveLength(3);
  });

  it('keep every id inside the change’s series (422), and the chapter inside the book named with it', async () => {
    const elsewhere = await me.create('/api/series', { title: 'Elsewhere' });
    const stranger = await me.create('/api/characters', { seriesId: elsewhere.id, name: 'Stranger' });
    expectError(await me.post('/api/canon-changes', { ...maraDies(), entityId: stranger.id }), 422, 'VALIDATION_FAILED', 'The character must belong to the same series as the change');
    // The id of a relationship named as a character's is no character of the series.
    expectError(await me.post('/api/canon-changes', { ...maraDies(), entityId: story.bond.id }), 422, 'VALIDATION_FAILED');
    expectError(await me.post('/api/canon-changes', { ...maraDies(), bookId: story.two.id }), 422, 'VALIDATION_FAILED', "The chapter must belong to the change's book");
  });

  it('follow a chapter named alone to its book, and a moved chapter keeps its changes', async () => {
    const change = await me.create('/api/canon-changes', maraDies());
    const reanchored = json(await me.put(`/api/canon-changes/${change.id}`, { chapterId: story.council.id }));
    expect(reanchored).toMatchObject({ chapterId: story.council.id, bookId: story.two.id });
    // The chapter moves back into Book One: the change's chapter is unchanged (the resolver reads the chapter's book).
    expect((await me.put(`/api/chapters/${story.council.id}`, { bookId: story.one.id })).statusCode).toBe(200);
    expect(await me.read(`/api/canon-changes/${change.id}`)).toMatchObject({ chapterId: story.council.id });
  });

  it('go with their character, relationship or place; stay (unanchored) when their chapter or book goes; lose a deleted event or place', async () => {
    const event = await me.create('/api/timeline-events', { seriesId: story.series.id, title: 'Mara dies' });
    const death = await me.create('/api/canon-changes', { ...maraDies(), timelineEventId: event.id });
    const ilseThere = await me.create('/api/canon-changes', { ...maraDies(), entityId: story.ilse.id, field: 'whereabouts', value: '', locationId: story.vell.id, chapterId: story.aftermath.id });
    const bondEnds = await me.create('/api/canon-changes', { ...maraDies(), entityKind: 'relationship', entityId: story.bond.id, value: 'ended', chapterId: story.aftermath.id });

    expect((await me.del(`/api/timeline-events/${event.id}`)).statusCode).toBe(200);
    expect(await me.read(`/api/canon-changes/${death.id}`)).toMatchObject({ timelineEventId: null });
    expect((await me.del(`/api/chapters/${story.siege.id}`)).statusCode).toBe(200);
    expect(await me.read(`/api/canon-changes/${death.id}`)).toMatchObject({ chapterId: story.siege.id, bookId: story.one.id, deletedAt: null });
    expect((await me.del(`/api/locations/${story.vell.id}`)).statusCode).toBe(200);
    expect(await me.read(`/api/canon-changes/${ilseThere.id}`)).toMatchObject({ locationId: null, field: 'whereabouts' });

    expect((await me.del(`/api/characters/${story.mara.id}`)).statusCode).toBe(200);
    const left = (await me.read(`/api/series/${story.series.id}/canon-changes`)).map((c: any) => c.id);
    // Mara's death went with her, and the relationship's end with the relationship (it went with Mara).
    expect(left).toEqual([ilseThere.id]);
    expectError(await me.get(`/api/canon-changes/${bondEnds.id}`), 404, 'NOT_FOUND');
  });

  it('made for a character another device deleted first are stored already deleted (201), as the delete would have left them', async () => {
    expect((await me.del(`/api/characters/${story.mara.id}`)).statusCode).toBe(200);
    const res = await me.post('/api/canon-changes', maraDies());
    expect(res.statusCode).toBe(201);
    expect(json(res).deletedAt).not.toBeNull();
    // A deleted chapter is kept: the change is stored, unanchored.
    expect((await me.del(`/api/chapters/${story.aftermath.id}`)).statusCode).toBe(200);
    const unanchored = await me.create('/api/canon-changes', { ...maraDies(), entityId: story.ilse.id, chapterId: story.aftermath.id });
    expect(unanchored).toMatchObject({ chapterId: story.aftermath.id, deletedAt: null });
  });

  it('are read by a viewer, who cannot write them', async () => {
    const change = await me.create('/api/canon-changes', maraDies());
    const viewer = await signUp(t.app, { email: `viewer-${Date.now()}@example.com` });
    const invite = json(await me.post(`/api/collaboration/series/${story.series.id}/invites`, { inviteeEmail: viewer.user.email, role: 'viewer' }));
    const reader = storyClient(t.app, viewer);
    expect((await reader.post(`/api/collaboration/invites/${invite.id}/accept`, {})).statusCode).toBe(200);
    expect(await reader.read(`/api/series/${story.series.id}/canon-changes`)).toEqual([change]);
    expectError(await reader.post('/api/canon-changes', { ...maraDies(), entityId: story.ilse.id }), 403, 'FORBIDDEN');
    expectError(await reader.put(`/api/canon-changes/${change.id}`, { value: 'alive' }), 403, 'FORBIDDEN');
    expectError(await reader.del(`/api/canon-changes/${change.id}`), 403, 'FORBIDDEN');
  });
});

describe('the flashback mark', () => {
  it('is false by default and set on a chapter and an event, at creation or later', async () => {
    expect(story.siege.flashback).toBe(false);
    const memory = await me.create('/api/chapters', { bookId: story.one.id, title: 'What the river took', flashback: true });
    expect(memory.flashback).toBe(true);
    expect(json(await me.put(`/api/chapters/${story.siege.id}`, { flashback: true }))).toMatchObject({ flashback: true });
    const event = await me.create('/api/timeline-events', { seriesId: story.series.id, title: 'The old war', flashback: true });
    expect(event.flashback).toBe(true);
    expect(json(await me.put(`/api/timeline-events/${event.id}`, { flashback: false }))).toMatchObject({ flashback: false });
  });
});
