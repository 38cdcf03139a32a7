/** Places inside places (story/place-parent.ts, docs/decisions/0021-places-inside-places.md): nesting, moves, cycles, deletes. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PLACE_MESSAGES, locationSchema } from '@chronicler/schema';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { type StoryClient, expectError, storyClient } from '../support/story-client.ts';

let t: TestApp;
let me: StoryClient;
let other: StoryClient;
let series: any;

const place = (name: string, parentId: string | null = null, inSeries = series.id) => me.create('/api/locations', { seriesId: inSeries, name, parentId });
const parentsOf = async (seriesId = series.id) =>
  Object.fromEntries(
    (await me.read(`/api/series/${seriesId}/locations`)).map((l: { name: string; parentId: string | null }, _i: number, all: { id: string; name: string }[]) => [
      l.name,
      all.find((p) => p.id === l.parentId)?.name ?? null,
    ]),
  );

beforeEach(async () => {
  t = await createTestApp();
  // Loremaster: collaboration, for the viewer's case.
  me = storyClient(t.app, await signUp(t.app, { plan: 'loremaster' }));
  other = storyClient(t.app, await signUp(t.app, { plan: 'wordsmith' }));
  series = await me.create('/api/series', { title: 'Earthsea' });
});
afterEach(async () => t.close());

describe('a place inside a place', () => {
  it('is top level by default; nests three deep; a move keeps the places inside it', async () => {
    const top = locationSchema.parse(await me.create('/api/locations', { seriesId: series.id, name: 'Earthsea' }));
    expect(top.parentId).toBeNull();
    const archipelago = await place('Archipelago', top.id);
    const roke = await place('Roke', archipelago.id);
    const school = await place('The School', roke.id);
    expect(school.parentId).toBe(roke.id);
    expect(await me.read(`/api/locations/${roke.id}`)).toMatchObject({ parentId: archipelago.id });

    const kargad = await place('Kargad Lands');
    const moved = json(await me.put(`/api/locations/${roke.id}`, { parentId: kargad.id }));
    expect(moved).toMatchObject({ parentId: kargad.id, mergeStatus: 'applied' });
    expect(await parentsOf()).toEqual({ Earthsea: null, Archipelago: 'Earthsea', Roke: 'Kargad Lands', 'The School': 'Roke', 'Kargad Lands': null });

    // Back to the top level.
    expect(json(await me.put(`/api/locations/${roke.id}`, { parentId: null }))).toMatchObject({ parentId: null });
    // Other fields alone leave the parent as it is.
    expect(json(await me.put(`/api/locations/${school.id}`, { description: 'Where wizards learn' }))).toMatchObject({ parentId: roke.id });
  });

  it('refuses a place inside itself or inside one of its own places, with the message, and stores nothing', async () => {
    const earthsea = await place('Earthsea');
    const archipelago = await place('Archipelago', earthsea.id);
    const roke = await place('Roke', archipelago.id);
    expectError(await me.put(`/api/locations/${roke.id}`, { parentId: roke.id }), 422, 'VALIDATION_FAILED', PLACE_MESSAGES.cycle);
    expectError(await me.put(`/api/locations/${earthsea.id}`, { parentId: roke.id }), 422, 'VALIDATION_FAILED', PLACE_MESSAGES.cycle);
    expectError(await me.put(`/api/locations/${archipelago.id}`, { parentId: roke.id, name: 'Renamed' }), 422, 'VALIDATION_FAILED', PLACE_MESSAGES.cycle);
    expect(await parentsOf()).toEqual({ Earthsea: null, Archipelago: 'Earthsea', Roke: 'Archipelago' });
  });

  it('two devices moving places into each other: the first move is stored, the second refused — never a cycle', async () => {
    const gont = await place('Gont');
    const roke = await place('Roke');
    // Both devices read rev n of each, offline; each moves one into the other.
    const first = await me.put(`/api/locations/${gont.id}`, { parentId: roke.id }, { 'x-base-rev': String(gont.rev) });
    expect(first.statusCode).toBe(200);
    const second = await me.put(`/api/locations/${roke.id}`, { parentId: gont.id }, { 'x-base-rev': String(roke.rev) });
    expectError(second, 422, 'VALIDATION_FAILED', PLACE_MESSAGES.cycle);
    expect(await parentsOf()).toEqual({ Gont: 'Roke', Roke: null });
  });

  it("refuses a parent of another series or another author's, as an unknown one, with one message", async () => {
    const elsewhere = await me.create('/api/series', { title: 'Middle-earth' });
    const shire = await place('The Shire', null, elsewhere.id);
    expectError(await me.post('/api/locations', { seriesId: series.id, name: 'Hobbiton', parentId: shire.id }), 422, 'VALIDATION_FAILED', PLACE_MESSAGES.otherSeries);
    const roke = await place('Roke');
    expectError(await me.put(`/api/locations/${roke.id}`, { parentId: shire.id }), 422, 'VALIDATION_FAILED', PLACE_MESSAGES.otherSeries);
    const theirs = await other.create('/api/locations', { seriesId: (await other.create('/api/series', { title: 'Theirs' })).id, name: 'Secret' });
    const foreign = await me.put(`/api/locations/${roke.id}`, { parentId: theirs.id });
    const unknown = await me.put(`/api/locations/${roke.id}`, { parentId: '01900000-0000-7000-8000-000000000000' });
    expectError(foreign, 422, 'VALIDATION_FAILED', PLACE_MESSAGES.otherSeries);
    expect(unknown.body).toBe(foreign.body);
    expectError(await me.post('/api/locations', { seriesId: series.id, name: 'Bad', parentId: 'not-an-id' }), 422, 'VALIDATION_FAILED');
    expect(await parentsOf()).toEqual({ Roke: null });
  });

  it('deleting a place moves the places inside it up to its parent, in the same write; none is deleted', async () => {
    const earthsea = await place('Earthsea');
    const archipelago = await place('Archipelago', earthsea.id);
    const roke = await place('Roke', archipelago.id);
    await place('Havnor', archipelago.id);
    await place('The School', roke.id);
    const deleted = json(await me.del(`/api/locations/${archipelago.id}`));
    expect(deleted.deletedAt).not.toBeNull();
    expect(await parentsOf()).toEqual({ Earthsea: null, Roke: 'Earthsea', Havnor: 'Earthsea', 'The School': 'Roke' });
    // The children's move rode on the delete's seq.
    const roke2 = await me.read(`/api/locations/${roke.id}`);
    expect(roke2.rev).toBe(deleted.rev);
    // A top-level place's children go to the top level.
    await me.del(`/api/locations/${earthsea.id}`);
    expect(await parentsOf()).toEqual({ Roke: null, Havnor: null, 'The School': 'Roke' });
  });

  it('a parent another device deleted first: the new or moved place goes where that delete put its children', async () => {
    const earthsea = await place('Earthsea');
    const archipelago = await place('Archipelago', earthsea.id);
    const roke = await place('Roke', archipelago.id);
    const selidor = await place('Selidor');
    await me.del(`/api/locations/${roke.id}`);
    await me.del(`/api/locations/${archipelago.id}`);
    // Created offline inside Roke, which is gone, as is Archipelago: up to Earthsea.
    expect(await me.create('/api/locations', { seriesId: series.id, name: 'The School', parentId: roke.id })).toMatchObject({ parentId: earthsea.id, deletedAt: null });
    expect(json(await me.put(`/api/locations/${selidor.id}`, { parentId: archipelago.id }))).toMatchObject({ parentId: earthsea.id });
    await me.del(`/api/locations/${earthsea.id}`);
    expect(json(await me.put(`/api/locations/${selidor.id}`, { parentId: roke.id }))).toMatchObject({ parentId: null });
  });

  it('a viewer sees the nesting but cannot move, nest or delete a place', async () => {
    const earthsea = await place('Earthsea');
    const roke = await place('Roke', earthsea.id);
    const viewer = await signUp(t.app, { email: `viewer-${Date.now()}@example.com` });
    const invite = json(await me.post(`/api/collaboration/series/${series.id}/invites`, { inviteeEmail: viewer.user.email, role: 'viewer' }));
    const reader = storyClient(t.app, viewer);
    expect((await reader.post(`/api/collaboration/invites/${invite.id}/accept`, {})).statusCode).toBe(200);
    expect(await reader.read(`/api/locations/${roke.id}`)).toMatchObject({ parentId: earthsea.id });
    expectError(await reader.put(`/api/locations/${roke.id}`, { parentId: null }), 403, 'FORBIDDEN');
    // Refused for the role before anything is said about the parent.
    expectError(await reader.put(`/api/locations/${earthsea.id}`, { parentId: roke.id }), 403, 'FORBIDDEN');
    expectError(await reader.post('/api/locations', { seriesId: series.id, name: 'Gont', parentId: earthsea.id }), 403, 'FORBIDDEN');
    expectError(await reader.del(`/api/locations/${earthsea.id}`), 403, 'FORBIDDEN');
    // An outsider hears nothing of the place at all.
    expectError(await other.put(`/api/locations/${roke.id}`, { parentId: null }), 404, 'NOT_FOUND');
    expect(await parentsOf()).toEqual({ Earthsea: null, Roke: 'Earthsea' });
  });
});
