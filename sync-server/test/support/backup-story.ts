/**
 * The story of the backup tests (backup*.test.ts): an author with two series, edits, a world and a
 * timeline; their archive; what they see, ids aside (what a restore must bring back).
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, expect } from 'vitest';
import { type ChangesResponse, SERIES_SCOPED_KINDS, type PlanName } from '@chronicler/schema';
import { type TestApp, createTestApp, signUp } from './helpers.ts';
import { type StoryClient, storyClient } from './story-client.ts';

/** Starts fresh test servers on demand, each closed after its test (call once, at a test file's top level). */
export function testServers(): () => Promise<TestApp> {
  let servers: TestApp[] = [];
  beforeEach(() => {
    servers = [];
  });
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
  return async () => {
    const t = await createTestApp();
    servers.push(t);
    return t;
  };
}

export async function author(t: TestApp, plan: PlanName = 'legendary', displayName?: string): Promise<StoryClient> {
  return storyClient(t.app, await signUp(t.app, { plan, ...(displayName ? { displayName } : {}) }));
}

/** A two-book series with edits (chapter history), a world and a timeline; and a second series. */
export async function seed(me: StoryClient) {
  const series = await me.create('/api/series', { title: 'The Glass Kingdoms', description: 'Two sisters.', totalBooks: 2 });
  const one = await me.create('/api/books', { seriesId: series.id, title: 'The Salt Crown' });
  const two = await me.create('/api/books', { seriesId: series.id, title: 'The Iron Tide' });
  const c1 = await me.create('/api/chapters', { bookId: one.id, title: 'Salt and Ash', content: 'The first paragraph.\n“Where’s the crown?” — gone.' });
  const edited = await me.put(`/api/chapters/${c1.id}`, {
    content: 'The first paragraph.\n“Where’s the crown?” — gone.\n\n* * *\n\nMorning.',
    synopsis: 'Mara finds the *map*.',
    notes: 'Check the **tide** tables.\nAnd the moon.',
  });
  expect(edited.statusCode, edited.body).toBe(200);
  await me.create('/api/chapters', { bookId: one.id, title: 'The Harbour', content: 'Gulls.' });
  const c3 = await me.create('/api/chapters', { bookId: two.id, title: 'Iron Rising', content: 'Book two.' });
  const mara = await me.create('/api/characters', { seriesId: series.id, name: 'Mara', role: 'protagonist', bookAppearances: [1, 2], isProtagonist: true });
  const ilse = await me.create('/api/characters', { seriesId: series.id, name: 'Ilse' });
  const sisters = await me.create('/api/character-relationships', { sourceCharacterId: mara.id, targetCharacterId: ilse.id, relationshipType: 'family', description: 'Sisters' });
  const city = await me.create('/api/locations', { seriesId: series.id, name: 'Saltmere', locationType: 'city' });
  const breaks = await me.create('/api/timeline-events', { seriesId: series.id, title: 'The crown breaks', bookId: two.id, chapterId: c3.id, locationId: city.id, characterIds: [mara.id, ilse.id], isPlotPoint: true });
  // Canon over time: a death recorded by its event, a place, a relationship ending, a city destroyed.
  const at = { seriesId: series.id, bookId: two.id, chapterId: c3.id };
  await me.create('/api/canon-changes', { ...at, entityKind: 'character', entityId: ilse.id, field: 'status', value: 'deceased', timelineEventId: breaks.id, note: 'Under the crown' });
  await me.create('/api/canon-changes', { ...at, entityKind: 'character', entityId: mara.id, field: 'whereabouts', value: 'the harbour', locationId: city.id });
  await me.create('/api/canon-changes', { ...at, entityKind: 'relationship', entityId: sisters.id, field: 'status', value: 'ended' });
  await me.create('/api/canon-changes', { ...at, entityKind: 'location', entityId: city.id, field: 'state', value: 'destroyed' });
  const other = await me.create('/api/series', { title: 'Short Stories' });
  // The author's own rows: a pasted save (recorded, not counted), writing settings; the saves and
  // creates above logged words and earned achievements.
  const pasted = await me.put(`/api/chapters/${c3.id}`, { content: `Book two.\n${'word '.repeat(600)}` });
  expect(pasted.statusCode, pasted.body).toBe(200);
  expect((await me.put('/api/writing-settings', { dayEndHour: 3, restDays: [0], freezesPerMonth: 2, dailyGoal: 750 })).statusCode).toBe(200);
  return { series, one, two, c1, other };
}

export async function download(me: StoryClient): Promise<Uint8Array> {
  const res = await me.get('/api/backup');
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/zip');
  expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="chronicler-backup-.+-\d{4}-\d{2}-\d{2}\.zip"$/);
  return new Uint8Array(res.rawPayload);
}

export const restore = (me: StoryClient, archive: Uint8Array): Promise<LightMyRequestResponse> =>
  me.post('/api/backup/restore', { archive: Buffer.from(archive).toString('base64') });

export async function changes(me: StoryClient): Promise<ChangesResponse> {
  return me.read('/api/sync/changes?since=0&limit=10000');
}

/**
 * Everything the author sees, with ids replaced by stable labels (kind + creation order) and the
 * server's own stamps (rev, updatedAt) and the owner left out: what must survive a restore. Their
 * own rows too (daily statistics, earned achievements, writing settings), field by field, ids and
 * owner aside; their account record is the account's, not the archive's.
 */
export async function picture(me: StoryClient) {
  const feed = await changes(me);
  const labels = new Map<string, string>();
  for (const kind of SERIES_SCOPED_KINDS) {
    // Rows made in the same millisecond are told apart by their names, not their ids: a restore
    // into another account remaps the ids.
    const nameOf = (r: object) => String((r as { title?: string; name?: string }).title ?? (r as { name?: string }).name ?? '');
    const rows = [...feed.changes[kind]]
      .filter((r) => !r.deletedAt)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || nameOf(a).localeCompare(nameOf(b)) || a.id.localeCompare(b.id));
    rows.forEach((r, i) => labels.set(r.id, `${kind}#${i}`));
  }
  const relabel = (value: unknown): unknown =>
    typeof value === 'string' && labels.has(value) ? labels.get(value) : Array.isArray(value) ? value.map(relabel) : value;
  const out: Record<string, unknown[]> = {};
  for (const kind of SERIES_SCOPED_KINDS) {
    out[kind] = feed.changes[kind]
      .filter((r) => !r.deletedAt)
      .map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !['rev', 'updatedAt', 'ownerId', 'authorId'].includes(k)).map(([k, v]) => [k, relabel(v)])))
      .sort((a, b) => String(a.id).localeCompare(String(b.id)));
  }
  const own = (kind: 'writingStats' | 'userAchievements' | 'writingSettings', key: string) =>
    (feed.changes[kind] as unknown as Record<string, unknown>[])
      .filter((r) => !r.deletedAt)
      .map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !['id', 'rev', 'updatedAt', 'userId'].includes(k))))
      .sort((a, b) => String(a[key]).localeCompare(String(b[key])));
  const author = { writingStats: own('writingStats', 'day'), userAchievements: own('userAchievements', 'achievementId'), writingSettings: own('writingSettings', 'dayEndHour') };
  const history: Record<string, unknown[]> = {};
  for (const c of feed.changes.chapters.filter((r) => !r.deletedAt)) {
    const revisions = await me.read<{ rev: number; createdAt: string; title: string; wordCount: number }[]>(`/api/chapters/${c.id}/revisions?limit=100`);
    history[labels.get(c.id)!] = revisions.map(({ createdAt, title, wordCount }) => ({ createdAt, title, wordCount })).slice(1);
  }
  return { rows: out, history, author };
}

