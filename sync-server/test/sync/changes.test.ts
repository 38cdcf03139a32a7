import type { FastifyInstance } from 'fastify';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ChangesResponse,
  ENTITY_KINDS,
  userRecordSchema,
  userAchievementSchema,
  writingSettingsSchema,
  writingStatSchema,
  entitlementSchema,
  canonChangeSchema,
  worldEntrySchema,
  bookSchema,
  chapterConflictSchema,
  aiSuggestionSchema,
  chapterSchema,
  characterRelationshipSchema,
  characterSchema,
  locationSchema,
  seriesSchema,
  timelineEventSchema,
} from '@chronicler/schema';
import { type TestApp, createTestApp, json, onPostgres, signUp } from '../support/helpers.ts';
import { grantEntitlement } from '../../src/billing/store.ts';
import { runServerWrite } from '../../src/sync/mutation.ts';
import { insertBook, insertChapter, insertCharacter, seedMembership, seedSeries, seedTouch, seedWrite } from '../support/sync-seed.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function pull(app: FastifyInstance, cookie: string, since: number, limit?: number): Promise<ChangesResponse> {
  const query = limit === undefined ? `since=${since}` : `since=${since}&limit=${limit}`;
  const res = await app.inject({ method: 'GET', url: `/api/sync/changes?${query}`, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return json<ChangesResponse>(res);
}

function idsOf(page: ChangesResponse, kind: keyof ChangesResponse['changes']): string[] {
  return page.changes[kind].map((r) => r.id);
}

describe('GET /api/sync/changes', () => {
  it('needs a session and validates the query', async () => {
    t = await createTestApp();
    expect((await t.app.inject({ method: 'GET', url: '/api/sync/changes' })).statusCode).toBe(401);
    const { cookie } = await signUp(t.app);
    for (const query of ['since=-1', 'since=abc', 'limit=0', 'limit=10001', 'since=0&extra=1']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/sync/changes?${query}`, headers: { cookie } });
      expect(res.statusCode, query).toBe(422);
      expect(json(res).code).toBe('VALIDATION_FAILED');
    }
  });

  it('answers every kind, and the current seq as the cursor when nothing changed', async () => {
    t = await createTestApp();
    const { cookie } = await signUp(t.app);
    const first = await pull(t.app, cookie, 0);
    expect(Object.keys(first.changes).sort()).toEqual([...ENTITY_KINDS].sort());
    expect(first).toMatchObject({ scopeAdded: [], scopeRemoved: [], hasMore: false });
    // Another author's write moves the global seq; the cursor follows so nobody rescans it.
    const other = await signUp(t.app);
    const seq = await seedWrite(t.app, [], async () => {});
    await seedSeries(t.app, other.user.id);
    const again = await pull(t.app, cookie, first.cursor);
    expect(again.cursor).toBeGreaterThan(seq);
    expect(ENTITY_KINDS.every((k) => again.changes[k].length === 0)).toBe(true);
  });

  it('returns exactly the rows changed after the cursor, latest state, tombstones included', async () => {
    t = await createTestApp();
    const { user, cookie } = await signUp(t.app);
    const seriesId = await seedSeries(t.app, user.id);
    let bookId = '';
    const chapterIds: string[] = [];
    await seedWrite(t.app, [seriesId], async (w) => {
      bookId = await insertBook(w, seriesId);
      for (let i = 0; i < 3; i++) chapterIds.push(await insertChapter(w, seriesId, bookId, `Chapter ${i}`, 'some words here', i + 1));
      await insertCharacter(w, seriesId, 'Ada');
    });
    const full = await pull(t.app, cookie, 0);
    expect(idsOf(full, 'series')).toEqual([seriesId]);
    expect(idsOf(full, 'books')).toEqual([bookId]);
    expect(idsOf(full, 'chapters').sort()).toEqual([...chapterIds].sort());
    // JSON columns and flags travel as the entity schema says, not as stored TEXT/INTEGER.
    expect(full.changes.characters[0]).toMatchObject({ name: 'Ada', bookAppearances: [1, 3], isProtagonist: true });
    expect(full.changes.chapters[0]).toMatchObject({ seriesId, bookId, wordCount: 3, deletedAt: null });

    const editSeq = await seedTouch(t.app, 'chapters', chapterIds[1]!, seriesId, 'update');
    const deleteSeq = await seedTouch(t.app, 'chapters', chapterIds[2]!, seriesId, 'delete');
    const delta = await pull(t.app, cookie, full.cursor);
    expect(delta.changes.chapters.map((c) => [c.id, c.rev])).toEqual([
      [chapterIds[1], editSeq],
      [chapterIds[2], deleteSeq],
    ]);
    expect(delta.changes.chapters[0]!.title).toBe(`edited at ${editSeq}`);
    expect(delta.changes.chapters[1]!.deletedAt).not.toBeNull();
    expect(idsOf(delta, 'series')).toEqual([]);
    expect(delta.cursor).toBe(deleteSeq);

    // A deleted series is a tombstone in the owner's feed, not a scope removal.
    await seedTouch(t.app, 'series', seriesId, seriesId, 'delete');
    const afterDelete = await pull(t.app, cookie, delta.cursor);
    expect(afterDelete.changes.series.map((s) => s.deletedAt !== null)).toEqual([true]);
    expect(afterDelete.scopeRemoved).toEqual([]);
  });

  it('serialises every kind exactly as the REST reads answer it (registry wire shape)', async () => {
    t = await createTestApp();
    const { headers, cookie, user } = await signUp(t.app, { plan: 'legendary' });
    const tricky = 'Ünïcødé — “quotes” "double" \\ back\\slash \t tab \u0001 ctrl 😀 </script> \u2028 line';
    const post = async (url: string, payload: object) => {
      const res = await t!.app.inject({ method: 'POST', url, headers, payload });
      expect(res.statusCode, res.body).toBe(201);
      return json(res);
    };
    const series = await post('/api/series', { title: tricky, description: 'd', coverImage: null });
    const book = await post('/api/books', { seriesId: series.id, title: 'Book', description: tricky });
    const chapter = await post('/api/chapters', { bookId: book.id, title: 'One', content: `${tricky}\n\nSecond paragraph.` });
    const hero = await post('/api/characters', { seriesId: series.id, name: 'Hero', bookAppearances: [3, 1], isProtagonist: true, avatar: null });
    const foe = await post('/api/characters', { seriesId: series.id, name: 'Foe', isProtagonist: false, age: tricky });
    await post('/api/character-relationships', { sourceCharacterId: hero.id, targetCharacterId: foe.id, relationshipType: 'enemy' });
    const place = await post('/api/locations', { seriesId: series.id, name: 'Keep', bookAppearances: [2] });
    await post('/api/timeline-events', {
      seriesId: series.id, title: 'Battle', characterIds: [hero.id, foe.id], locationId: place.id, bookId: book.id, isPlotPoint: true,
    });
    await post('/api/timeline-events', { seriesId: series.id, title: 'Quiet', characterIds: [], flashback: true });
    await post('/api/canon-changes', { seriesId: series.id, entityKind: 'character', entityId: foe.id, field: 'status', value: 'deceased', bookId: book.id, chapterId: chapter.id, note: tricky });
    await post('/api/canon-changes', { seriesId: series.id, entityKind: 'character', entityId: hero.id, field: 'whereabouts', locationId: place.id, bookId: book.id, chapterId: chapter.id });
    const folk = await post('/api/world-entries', { seriesId: series.id, category: 'culture', name: 'Reed folk', description: tricky, tags: ['river'], characterIds: [hero.id], locationIds: [place.id] });
    await post('/api/world-entries', { seriesId: series.id, category: 'politics', name: 'Guild', leaderId: foe.id, allyIds: [folk.id] });
    await post('/api/ai/suggestion', { seriesId: series.id, bookId: book.id, type: 'conflict' });
    // An entitlement (user-scoped), granted through billing's write path as the verified webhook does.
    await runServerWrite(t.app.deps, (write) => grantEntitlement(write, { userId: user.id, kind: 'gift-subscription', source: 'pi_wire_shape', now: Date.now() }));
    // Two edits from the same base: the second conflicts and leaves a conflict copy.
    const edit = (content: string) =>
      t!.app.inject({ method: 'PUT', url: `/api/chapters/${chapter.id}`, headers: { ...headers, 'x-base-rev': String(chapter.rev) }, payload: { content } });
    expect((await edit('First rewrite.')).statusCode).toBe(200);
    expect((await edit('Second rewrite.')).statusCode).toBe(200);

    expect((await t.app.inject({ method: 'PUT', url: '/api/writing-settings', headers, payload: { restDays: [0] } })).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'GET', url: '/api/sync/changes?since=0', headers: { cookie } });
    const page = json<ChangesResponse>(res);
    const schemas = {
      series: seriesSchema, books: bookSchema, chapters: chapterSchema, characters: characterSchema,
      characterRelationships: characterRelationshipSchema, locations: locationSchema, timelineEvents: timelineEventSchema,
      chapterConflicts: chapterConflictSchema, users: userRecordSchema,
      writingStats: writingStatSchema, userAchievements: userAchievementSchema, writingSettings: writingSettingsSchema,
      aiSuggestions: aiSuggestionSchema,
      entitlements: entitlementSchema,
      canonChanges: canonChangeSchema,
      worldEntries: worldEntrySchema,
    };
    // Writing progress rows have no REST list of wire rows (test/progress/progress.test.ts covers their feed).
    const restList: Partial<Record<keyof typeof schemas, string>> = {
      series: '/api/series',
      books: `/api/series/${series.id}/books`,
      chapters: `/api/books/${book.id}/chapters`,
      characters: `/api/series/${series.id}/characters`,
      characterRelationships: `/api/series/${series.id}/character-relationships`,
      locations: `/api/series/${series.id}/locations`,
      timelineEvents: `/api/series/${series.id}/timeline`,
      chapterConflicts: `/api/chapters/${chapter.id}/conflicts`,
      // The author's own record (a user-scoped kind): what GET /api/user answers, as one row.
      users: '/api/user',
      aiSuggestions: `/api/ai/suggestions?seriesId=${series.id}`,
      // Entitlements: the author's own, as the billing status lists them.
      entitlements: '/api/billing/status',
      canonChanges: `/api/series/${series.id}/canon-changes`,
      worldEntries: `/api/series/${series.id}/world-entries`,
    };
    for (const kind of ENTITY_KINDS) {
      const rows = page.changes[kind] as { id: string }[];
      expect(rows.length, kind).toBeGreaterThan(0);
      for (const row of rows) expect(schemas[kind].strict().safeParse(row).success, `${kind} ${JSON.stringify(row)}`).toBe(true);
      const url = restList[kind];
      if (url === undefined) continue;
      const listed = json<{ id: string }[] | { conflicts: { id: string }[] }>(
        await t.app.inject({ method: 'GET', url, headers: { cookie } }),
      );
      const restRows = Array.isArray(listed) ? listed : kind === 'users' ? [listed as unknown as { id: string }] : Object.values(listed).find(Array.isArray)!;
      const byId = (list: { id: string }[]) => [...list].sort((a, b) => (a.id < b.id ? -1 : 1));
      // Chapter lists may leave the text out; compare field by field what the list carries.
      const expected = byId(restRows);
      const actual = byId(rows).map((row, i) => Object.fromEntries(Object.keys(expected[i] ?? {}).map((k) => [k, (row as never)[k]])));
      expect(actual, kind).toEqual(expected);
    }
    expect(page.changes.series[0]!.title).toBe(tricky);
    expect(page.changes.characters.find((c) => c.id === hero.id)).toMatchObject({ bookAppearances: [1, 3], isProtagonist: true });
    expect(page.changes.timelineEvents.find((e) => e.title === 'Battle')).toMatchObject({ characterIds: [hero.id, foe.id], isPlotPoint: true, flashback: false });
    expect(page.changes.timelineEvents.find((e) => e.title === 'Quiet')).toMatchObject({ flashback: true });
    expect(page.changes.chapters[0]).toMatchObject({ flashback: false });
    expect(page.changes.canonChanges.find((c) => c.entityId === foe.id)).toMatchObject({ field: 'status', value: 'deceased', note: tricky, locationId: null });
    expect(page.changes.worldEntries.find((e) => e.name === 'Guild')).toMatchObject({ leaderId: foe.id, allyIds: [folk.id], characterIds: [], danger: 'unknown' });
    expect(page.changes.worldEntries.find((e) => e.name === 'Reed folk')).toMatchObject({ description: tricky, tags: ['river'], characterIds: [hero.id], locationIds: [place.id] });
    expect(page.changes.canonChanges.find((c) => c.entityId === hero.id)).toMatchObject({ field: 'whereabouts', value: '', locationId: place.id });
  });

  it("never shows another author's series", async () => {
    t = await createTestApp();
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const mine = await seedSeries(t.app, alice.user.id);
    const theirs = await seedSeries(t.app, bob.user.id);
    await seedWrite(t.app, [theirs], async (w) => {
      const b = await insertBook(w, theirs);
      await insertChapter(w, theirs, b, 'Secret', 'not for alice');
    });
    await seedTouch(t.app, 'series', theirs, theirs, 'update');
    const page = await pull(t.app, alice.cookie, 0);
    expect(JSON.stringify(page)).not.toContain(theirs);
    expect(JSON.stringify(page)).not.toContain('Secret');
    expect(idsOf(page, 'series')).toEqual([mine]);
  });

  it('sends a whole series when the caller joins it, and revokes it on removal', async () => {
    t = await createTestApp();
    const owner = await signUp(t.app);
    const guest = await signUp(t.app);
    const seriesId = await seedSeries(t.app, owner.user.id);
    await seedWrite(t.app, [seriesId], async (w) => {
      const b = await insertBook(w, seriesId);
      await insertChapter(w, seriesId, b, 'Old chapter');
    });
    const before = await pull(t.app, guest.cookie, 0);
    expect(before.changes.chapters).toEqual([]);

    const joinSeq = await seedMembership(t.app, seriesId, guest.user.id, true);
    const joined = await pull(t.app, guest.cookie, before.cursor);
    expect(joined.scopeAdded).toEqual([seriesId]);
    // Rows written long before the cursor still come: the guest never had them.
    expect(joined.changes.chapters.map((c) => c.title)).toEqual(['Old chapter']);
    expect(idsOf(joined, 'series')).toEqual([seriesId]);
    expect(joined.cursor).toBe(joinSeq);

    const editSeq = await seedTouch(t.app, 'series', seriesId, seriesId, 'update');
    const edited = await pull(t.app, guest.cookie, joined.cursor);
    expect(edited.scopeAdded).toEqual([]);
    expect(edited.changes.series.map((s) => s.rev)).toEqual([editSeq]);
    expect(edited.changes.chapters).toEqual([]);

    await seedMembership(t.app, seriesId, guest.user.id, false);
    await seedTouch(t.app, 'series', seriesId, seriesId, 'update');
    const revoked = await pull(t.app, guest.cookie, edited.cursor);
    expect(revoked.scopeRemoved).toEqual([seriesId]);
    expect(ENTITY_KINDS.every((k) => revoked.changes[k].length === 0)).toBe(true);
  });

  it('pages without splitting a seq; a seq larger than the limit goes whole', async () => {
    t = await createTestApp();
    const { user, cookie } = await signUp(t.app);
    const seriesId = await seedSeries(t.app, user.id);
    let bigSeq = 0;
    bigSeq = await seedWrite(t.app, [seriesId], async (w) => {
      const b = await insertBook(w, seriesId);
      for (let i = 0; i < 7; i++) await insertChapter(w, seriesId, b, `Chapter ${i}`);
    });
    const p1 = await pull(t.app, cookie, 0, 3);
    // seq 1 (the series) has one row, the running count passes 3 inside the 8-row seq: all of it.
    expect(p1.changes.series).toHaveLength(1);
    expect(p1.changes.chapters).toHaveLength(7);
    expect(p1.cursor).toBe(bigSeq);
    expect(p1.hasMore).toBe(false);

    const s2 = await seedTouch(t.app, 'series', seriesId, seriesId, 'update');
    const s3 = await seedTouch(t.app, 'books', p1.changes.books[0]!.id, seriesId, 'update');
    const a = await pull(t.app, cookie, p1.cursor, 1);
    expect(a).toMatchObject({ cursor: s2, hasMore: true });
    const b = await pull(t.app, cookie, a.cursor, 1);
    expect(b).toMatchObject({ cursor: s3, hasMore: false });
    expect(b.changes.books.map((r) => r.rev)).toEqual([s3]);
  });
});

// ---------------------------------------------------------------------------------------------
// Property: random writes, random limits — the pages walked from a cursor add up to one big read.

type Op =
  | { kind: 'series'; owner: 0 | 1 }
  | { kind: 'chapters'; series: number; count: number }
  | { kind: 'touch'; row: number; change: 'update' | 'delete' }
  | { kind: 'member'; series: number; live: boolean };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('series' as const), owner: fc.constantFrom(0 as const, 1 as const) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('chapters' as const), series: fc.nat(), count: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('touch' as const), row: fc.nat(), change: fc.constantFrom('update' as const, 'delete' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('member' as const), series: fc.nat(), live: fc.boolean() }) },
);

interface Row {
  table: 'series' | 'books' | 'chapters';
  id: string;
  seriesId: string;
}

type LocalState = Map<string, { kind: string; row: { id: string; rev: number; seriesId?: string } }>;

/** Applies one page the way a client does: upsert rows, drop removed series. */
function applyPage(state: LocalState, page: ChangesResponse): void {
  for (const seriesId of page.scopeRemoved) {
    for (const [key, v] of state) if (v.row.seriesId === seriesId || v.row.id === seriesId) state.delete(key);
  }
  for (const kind of ENTITY_KINDS) {
    for (const row of page.changes[kind] as { id: string; rev: number }[]) state.set(`${kind}:${row.id}`, { kind, row });
  }
}

describe('changes feed paging (property)', () => {
  it('walking pages of any size equals one big read, and never splits a seq', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb, { minLength: 1, maxLength: 25 }),
        fc.array(opArb, { minLength: 0, maxLength: 25 }),
        fc.integer({ min: 1, max: 12 }),
        async (before, after, limit) => {
          const app = (await createTestApp()).app;
          try {
            const users = [await signUp(app), await signUp(app)];
            const [me] = users;
            const rows: Row[] = [];
            const seriesIds: string[] = [];
            const run = async (op: Op) => {
              if (op.kind === 'series') {
                const id = await seedSeries(app, users[op.owner]!.user.id);
                seriesIds.push(id);
                rows.push({ table: 'series', id, seriesId: id });
              } else if (op.kind === 'chapters' && seriesIds.length > 0) {
                const seriesId = seriesIds[op.series % seriesIds.length]!;
                await seedWrite(app, [seriesId], async (w) => {
                  const bookId = await insertBook(w, seriesId);
                  rows.push({ table: 'books', id: bookId, seriesId });
                  for (let i = 0; i < op.count; i++) rows.push({ table: 'chapters', id: await insertChapter(w, seriesId, bookId, `c${i}`), seriesId });
                });
              } else if (op.kind === 'touch' && rows.length > 0) {
                const row = rows[op.row % rows.length]!;
                await seedTouch(app, row.table, row.id, row.seriesId, op.change);
              } else if (op.kind === 'member' && seriesIds.length > 0) {
                await seedMembership(app, seriesIds[op.series % seriesIds.length]!, me!.user.id, op.live);
              }
            };
            for (const op of before) await run(op);
            const start = (await pull(app, me!.cookie, 0)).cursor;
            for (const op of after) await run(op);

            for (const since of [0, start]) {
              const big = await pull(app, me!.cookie, since, 10_000);
              expect(big.hasMore).toBe(false);
              const expected: LocalState = new Map();
              applyPage(expected, big);

              const walked: LocalState = new Map();
              let cursor = since;
              let previous = since;
              for (let guard = 0; ; guard++) {
                expect(guard).toBeLessThan(500);
                const page = await pull(app, me!.cookie, cursor, limit);
                const pageRows = ENTITY_KINDS.flatMap((k) => page.changes[k] as { id: string; rev: number; seriesId?: string }[]);
                for (const row of pageRows) {
                  expect(row.rev).toBeLessThanOrEqual(page.cursor);
                  // A row of a series already in scope comes in the page whose window holds its
                  // rev; only a newly added series brings older rows along.
                  const seriesId = row.seriesId ?? row.id;
                  if (!page.scopeAdded.includes(seriesId)) expect(row.rev).toBeGreaterThan(previous);
                }
                // Fewer than `limit` rows before the last seq of a page, or the page would have ended sooner.
                if (page.hasMore && page.scopeAdded.length === 0 && page.scopeRemoved.length === 0) {
                  expect(pageRows.filter((r) => r.rev < page.cursor).length).toBeLessThan(limit);
                }
                applyPage(walked, page);
                expect(page.cursor).toBeGreaterThanOrEqual(cursor);
                previous = page.cursor;
                cursor = page.cursor;
                if (!page.hasMore) break;
              }
              expect(cursor).toBe(big.cursor);
              const norm = (s: LocalState) => [...s.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
              expect(norm(walked)).toEqual(norm(expected));
            }
          } finally {
            await app.close();
          }
        },
      ),
      // On PostgreSQL each run opens a database and makes every write a round trip: a quarter of
      // the runs keeps the file within its time on a busy machine (the property is the same).
      { numRuns: onPostgres ? 25 : 100 },
    );
  }, 120_000);
});
