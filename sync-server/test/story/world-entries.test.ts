/** World entries over the API (docs/decisions/0020-world-entries.md): fields, links, the gate, the cascade. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { upgradeMessage, worldEntrySchema } from '@chronicler/schema';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { type StoryClient, expectError, storyClient } from '../support/story-client.ts';

let t: TestApp;
let me: StoryClient;
let story: { series: any; mara: any; ilse: any; saltmere: any };

const unique = (who: string) => `${who}_${Date.now()}_${Math.random().toString(36).slice(2)}@example.com`;

beforeEach(async () => {
  t = await createTestApp();
  me = storyClient(t.app, await signUp(t.app, { plan: 'wordsmith', email: unique('owner') }));
  const series = await me.create('/api/series', { title: 'The Salt Road' });
  await me.create('/api/books', { seriesId: series.id, title: 'Book One' });
  const mara = await me.create('/api/characters', { seriesId: series.id, name: 'Mara' });
  const ilse = await me.create('/api/characters', { seriesId: series.id, name: 'Ilse' });
  const saltmere = await me.create('/api/locations', { seriesId: series.id, name: 'Saltmere' });
  story = { series, mara, ilse, saltmere };
});
afterEach(async () => t.close());

const entries = () => me.read(`/api/series/${story.series.id}/world-entries`);

describe('world entries', () => {
  it('are created with their defaults, listed, read, updated and deleted', async () => {
    const culture = worldEntrySchema.strict().parse(
      await me.create('/api/world-entries', {
        seriesId: story.series.id, category: 'culture', name: '  Reed folk ', description: 'They sing *to* the tide', language: 'Reed-speech', tags: ['river', 'River'], bookAppearances: [1],
        characterIds: [story.mara.id], locationIds: [story.saltmere.id],
      }),
    );
    expect(culture).toMatchObject({
      name: 'Reed folk', description: 'They sing *to* the tide', language: 'Reed-speech', tags: ['river'], bookAppearances: [1],
      characterIds: [story.mara.id], locationIds: [story.saltmere.id], entryIds: [], leaderId: null, danger: 'unknown', summary: '',
    });
    expect(await entries()).toEqual([culture]);
    expect(await me.read(`/api/world-entries/${culture.id}`)).toEqual(culture);
    const updated = json(await me.put(`/api/world-entries/${culture.id}`, { beliefs: 'The tide remembers', tags: ['river', 'song'] }));
    expect(updated).toMatchObject({ beliefs: 'The tide remembers', tags: ['river', 'song'], language: 'Reed-speech', mergeStatus: 'applied' });
    expect((await me.del(`/api/world-entries/${culture.id}`)).statusCode).toBe(200);
    expect(await entries()).toEqual([]);
    expectError(await me.get(`/api/world-entries/${culture.id}`), 404, 'NOT_FOUND');
  });

  it('hold an entry of every kind with its own fields', async () => {
    const base = { seriesId: story.series.id };
    const magic = await me.create('/api/world-entries', { ...base, category: 'magicSystem', name: 'Saltcraft', source: 'The sea', costs: 'Memory', limitations: 'Only at high tide' });
    const beast = await me.create('/api/world-entries', { ...base, category: 'floraFauna', name: 'Marsh wyrm', habitat: 'Reed beds', danger: 'deadly', locationIds: [story.saltmere.id] });
    const loom = await me.create('/api/world-entries', { ...base, category: 'technology', name: 'Tide loom', era: 'Second Age' });
    const guild = await me.create('/api/world-entries', {
      ...base, category: 'politics', name: 'Salt Guild', goals: 'Own the coast', leaderId: story.mara.id, allyIds: [magic.id], enemyIds: [beast.id], entryIds: [loom.id],
    });
    expect(guild).toMatchObject({ leaderId: story.mara.id, allyIds: [magic.id], enemyIds: [beast.id], entryIds: [loom.id] });
    expect((await entries()).map((e: any) => e.category)).toEqual(['magicSystem', 'floraFauna', 'technology', 'politics']);
  });

  it("refuse an empty name with the category's message, another category's field, and a link to itself", async () => {
    const base = { seriesId: story.series.id, category: 'culture' };
    expectError(await me.post('/api/world-entries', { ...base, name: ' ' }), 422, 'VALIDATION_FAILED', 'Culture name is required');
    expectError(await me.post('/api/world-entries', { ...base, category: 'politics', name: '' }), 422, 'VALIDATION_FAILED', 'Faction name is required');
    expectError(await me.post('/api/world-entries', { ...base, name: 'Reed folk', danger: 'high' }), 422, 'VALIDATION_FAILED', 'A culture has no danger; it belongs to species');
    expectError(await me.post('/api/world-entries', { ...base, category: 'dragons', name: 'Reed folk' }), 422, 'VALIDATION_FAILED');
    expectError(await me.post('/api/world-entries', { ...base, name: 'Reed folk', mood: 'grim' }), 422, 'VALIDATION_FAILED');
    const culture = await me.create('/api/world-entries', { ...base, name: 'Reed folk' });
    expectError(await me.put(`/api/world-entries/${culture.id}`, { name: '' }), 422, 'VALIDATION_FAILED', 'Name is required');
    expectError(await me.put(`/api/world-entries/${culture.id}`, { era: 'Later' }), 422, 'VALIDATION_FAILED', 'A culture has no era; it belongs to technologies');
    expectError(await me.put(`/api/world-entries/${culture.id}`, { entryIds: [culture.id] }), 422, 'VALIDATION_FAILED', 'An entry cannot link to itself');
    expectError(await me.put(`/api/world-entries/${culture.id}`, { category: 'politics' }), 422, 'VALIDATION_FAILED');
    expectError(await me.post('/api/world-entries', { ...base, name: 'Far folk', bookAppearances: [9] }), 422, 'VALIDATION_FAILED');
    expect(await me.read(`/api/world-entries/${culture.id}`)).toMatchObject({ name: 'Reed folk', entryIds: [] });
  });

  it('drop a link to a row deleted first, and lose links when their targets are deleted', async () => {
    const wyrm = await me.create('/api/world-entries', { seriesId: story.series.id, category: 'floraFauna', name: 'Marsh wyrm' });
    expect((await me.del(`/api/characters/${story.ilse.id}`)).statusCode).toBe(200);
    // Ilse was deleted on another device before this write arrived: the link is dropped, the entry kept.
    const guild = await me.create('/api/world-entries', {
      seriesId: story.series.id, category: 'politics', name: 'Salt Guild', leaderId: story.ilse.id, characterIds: [story.mara.id, story.ilse.id], enemyIds: [wyrm.id], locationIds: [story.saltmere.id],
    });
    expect(guild).toMatchObject({ leaderId: null, characterIds: [story.mara.id] });
    // The cascade: a deleted character, place or entry leaves every entry's links.
    await me.del(`/api/characters/${story.mara.id}`);
    await me.del(`/api/locations/${story.saltmere.id}`);
    await me.del(`/api/world-entries/${wyrm.id}`);
    expect(await me.read(`/api/world-entries/${guild.id}`)).toMatchObject({ characterIds: [], locationIds: [], enemyIds: [], name: 'Salt Guild' });
  });

  it('go with their series', async () => {
    const entry = await me.create('/api/world-entries', { seriesId: story.series.id, category: 'technology', name: 'Tide loom' });
    expect((await me.del(`/api/series/${story.series.id}`)).statusCode).toBe(200);
    expectError(await me.get(`/api/world-entries/${entry.id}`), 404, 'NOT_FOUND');
  });

  it("need advanced world building on the owner's plan to write; an apprentice still reads", async () => {
    const entry = await me.create('/api/world-entries', { seriesId: story.series.id, category: 'culture', name: 'Reed folk' });
    await t.app.deps.database.db.updateTable('users').set({ plan: 'apprentice' }).where('id', '=', story.series.ownerId).execute();
    const locked = upgradeMessage('wordsmith');
    expectError(await me.post('/api/world-entries', { seriesId: story.series.id, category: 'culture', name: 'Marsh folk' }), 403, 'FEATURE_LOCKED', locked);
    expectError(await me.put(`/api/world-entries/${entry.id}`, { summary: 'Changed' }), 403, 'FEATURE_LOCKED', locked);
    expectError(await me.del(`/api/world-entries/${entry.id}`), 403, 'FEATURE_LOCKED', locked);
    expect(await entries()).toMatchObject([{ name: 'Reed folk', summary: '' }]);
    // Deleting a linked character is not a world entry write: it still cleans the links.
    await t.app.deps.database.db.updateTable('users').set({ plan: 'wordsmith' }).where('id', '=', story.series.ownerId).execute();
    await me.put(`/api/world-entries/${entry.id}`, { characterIds: [story.mara.id] });
    await t.app.deps.database.db.updateTable('users').set({ plan: 'apprentice' }).where('id', '=', story.series.ownerId).execute();
    expect((await me.del(`/api/characters/${story.mara.id}`)).statusCode).toBe(200);
    expect(await me.read(`/api/world-entries/${entry.id}`)).toMatchObject({ characterIds: [] });
  });

  it('let an editor of a shared series write and a viewer only read', async () => {
    // Sharing a series needs collaboration (Loremaster).
    await t.app.deps.database.db.updateTable('users').set({ plan: 'loremaster' }).where('id', '=', story.series.ownerId).execute();
    const entry = await me.create('/api/world-entries', { seriesId: story.series.id, category: 'culture', name: 'Reed folk' });
    const join = async (role: 'editor' | 'viewer') => {
      const email = unique(role);
      const member = storyClient(t.app, await signUp(t.app, { plan: 'apprentice', email }));
      const invite = json(await me.post(`/api/collaboration/series/${story.series.id}/invites`, { inviteeEmail: email, role }));
      expect((await member.post(`/api/collaboration/invites/${invite.id}/accept`, {})).statusCode).toBe(200);
      return member;
    };
    const viewer = await join('viewer');
    expect(await viewer.read(`/api/series/${story.series.id}/world-entries`)).toMatchObject([{ name: 'Reed folk' }]);
    expect((await viewer.put(`/api/world-entries/${entry.id}`, { summary: 'Mine' })).statusCode).toBe(403);
    expect((await viewer.post('/api/world-entries', { seriesId: story.series.id, category: 'culture', name: 'Marsh folk' })).statusCode).toBe(403);
    // The owner's plan governs the series: an apprentice editor writes in a Loremaster's series.
    const editor = await join('editor');
    expect(json(await editor.put(`/api/world-entries/${entry.id}`, { summary: 'River people' }))).toMatchObject({ summary: 'River people' });
  });
});
