/**
 * Reorders replayed from an offline outbox after another device deleted some of the rows they name
 * (story/dangling.ts): deleted ids are ignored, the live chapters of the book end at 1..n, chapters
 * the request did not name follow the named ones; an id the caller cannot see still fails the whole
 * request with 404 and changes nothing.
 */
import fc from 'fast-check';
import { type BatchResult, newId } from '@chronicler/schema';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../support/helpers.ts';
import { expectError, type StoryClient } from '../support/story-client.ts';
import { type Author, bothOrders, ok2xx, remove, twoAuthors } from '../support/dangling-world.ts';

const positionsOf = (chapters: Array<{ id: string; position: number }>) => chapters.map((c) => [c.id, c.position]);

async function bookWithChapters(me: StoryClient, count: number) {
  const series = await me.create('/api/series', { title: 'Saga' });
  const book = await me.create('/api/books', { seriesId: series.id, title: 'Book' });
  const chapters = [];
  for (let i = 1; i <= count; i++) chapters.push(await me.create('/api/chapters', { bookId: book.id, title: `Chapter ${i}` }));
  return { series, book, chapters };
}

describe('chapter reorder naming chapters deleted elsewhere', () => {
  let w: Author;
  afterEach(async () => w?.t.close());

  it('orders the live chapters, ignores the deleted one, appends chapters it did not name, 1..n', async () => {
    w = await twoAuthors();
    const { book, chapters: [c1, c2, c3] } = await bookWithChapters(w.me, 3);
    // Offline: the author drags c3 to the top. Meanwhile another device deletes c1 and adds c4.
    await remove(w.me, `/api/chapters/${c1.id}`);
    const c4 = await w.me.create('/api/chapters', { bookId: book.id, title: 'Added elsewhere' });
    const res = await w.me.post('/api/chapters/reorder', {
      chapters: [
        { id: c3.id, position: 1 },
        { id: c1.id, position: 2 },
        { id: c2.id, position: 3 },
      ],
    });
    const { chapters } = ok2xx(res);
    expect(positionsOf(chapters)).toEqual([
      [c3.id, 1],
      [c2.id, 2],
      [c4.id, 3],
    ]);
    const list = await w.me.read(`/api/books/${book.id}/chapters`);
    expect(positionsOf(list)).toEqual(positionsOf(chapters));
    // The deleted chapter stays a tombstone, untouched by the reorder.
    const stored = await w.t.app.deps.database.db.selectFrom('chapters').selectAll().where('id', '=', c1.id).executeTakeFirstOrThrow();
    expect(stored.deletedAt).not.toBeNull();
  });

  it('answers 200 with the remaining chapters when every named chapter was deleted, and with none when the book was', async () => {
    w = await twoAuthors();
    const { book, chapters: [c1, c2, c3] } = await bookWithChapters(w.me, 3);
    await remove(w.me, `/api/chapters/${c2.id}`);
    const onlyDeleted = ok2xx(await w.me.post('/api/chapters/reorder', { chapters: [{ id: c2.id, position: 1 }] }));
    expect(positionsOf(onlyDeleted.chapters)).toEqual([
      [c1.id, 1],
      [c3.id, 2],
    ]);
    await remove(w.me, `/api/books/${book.id}`);
    const bookGone = await w.me.post('/api/chapters/reorder', { chapters: [{ id: c3.id, position: 1 }, { id: c1.id, position: 2 }] });
    expect(ok2xx(bookGone)).toEqual({ chapters: [] });
  });

  it("still answers 404 for another author's chapter, deleted or not, and for an unknown id, changing nothing", async () => {
    w = await twoAuthors();
    const { book, chapters: [c1, c2] } = await bookWithChapters(w.me, 2);
    const theirs = await bookWithChapters(w.other, 2);
    await remove(w.other, `/api/chapters/${theirs.chapters[0].id}`);
    const before = await w.me.read(`/api/books/${book.id}/chapters`);
    const theirsBefore = await w.other.read(`/api/books/${theirs.book.id}/chapters`);
    for (const stranger of [theirs.chapters[0].id, theirs.chapters[1].id, newId()]) {
      const res = await w.me.post('/api/chapters/reorder', { chapters: [{ id: c2.id, position: 1 }, { id: stranger, position: 2 }, { id: c1.id, position: 3 }] });
      expectError(res, 404, 'NOT_FOUND');
      // Nothing of theirs in the answer: a foreign id reads exactly like an unknown one.
      expect(res.body).not.toContain(theirs.book.id);
    }
    expect(await w.me.read(`/api/books/${book.id}/chapters`)).toEqual(before);
    expect(await w.other.read(`/api/books/${theirs.book.id}/chapters`)).toEqual(theirsBefore);
    // Only foreign ids, one of them deleted: 404 too (a tombstone is no way in).
    expectError(await w.me.post('/api/chapters/reorder', { chapters: [{ id: theirs.chapters[0].id, position: 1 }] }), 404, 'NOT_FOUND');
  });

  it('keeps the validation errors: repeated ids, two live books, a malformed body', async () => {
    w = await twoAuthors();
    const { series, chapters: [c1, c2] } = await bookWithChapters(w.me, 2);
    const otherBook = await w.me.create('/api/books', { seriesId: series.id, title: 'Two' });
    const elsewhere = await w.me.create('/api/chapters', { bookId: otherBook.id, title: 'X' });
    await remove(w.me, `/api/chapters/${c2.id}`);
    expectError(await w.me.post('/api/chapters/reorder', { chapters: [{ id: c1.id, position: 1 }, { id: elsewhere.id, position: 2 }] }), 422, 'VALIDATION_FAILED');
    expectError(await w.me.post('/api/chapters/reorder', { chapters: [{ id: c2.id, position: 1 }, { id: c2.id, position: 2 }] }), 422, 'VALIDATION_FAILED');
    expectError(await w.me.post('/api/chapters/reorder', { chapters: [{ id: c1.id }] }), 422, 'VALIDATION_FAILED');
    expectError(await w.me.post('/api/chapters/reorder', { chapters: [{ id: c1.id, position: 1, bookId: otherBook.id }] }), 422, 'VALIDATION_FAILED');
    // A deleted chapter of another book of the same series is simply ignored.
    await remove(w.me, `/api/chapters/${elsewhere.id}`);
    ok2xx(await w.me.post('/api/chapters/reorder', { chapters: [{ id: elsewhere.id, position: 1 }, { id: c1.id, position: 2 }] }));
  });

  it('converges: the delete before or after the reorder leaves the same rows', async () => {
    const { deletedFirst, deletedAfter } = await bothOrders({
      async setup(me, id) {
        await me.create('/api/series', { id: id('series'), title: 'Saga' });
        await me.create('/api/books', { id: id('book'), seriesId: id('series'), title: 'Book' });
        for (const n of [1, 2, 3, 4]) await me.create('/api/chapters', { id: id(`c${n}`), bookId: id('book'), title: `Chapter ${n}` });
      },
      remove: (me, id) => remove(me, `/api/chapters/${id('c2')}`),
      write: (me, id) =>
        me.post('/api/chapters/reorder', {
          chapters: ['c4', 'c2', 'c1', 'c3'].map((name, i) => ({ id: id(name), position: i + 1 })),
        }),
    });
    expect(deletedFirst.state).toEqual(deletedAfter.state);
    const live = (deletedFirst.state.chapters as Array<{ id: string; position?: number }>).filter((c) => c.position !== undefined);
    expect(live.map((c) => c.position).sort()).toEqual([1, 2, 3]);
  });
});

describe('chapter delete', () => {
  it('closes the gap it leaves in the same write', async () => {
    const w = await twoAuthors();
    try {
      const { book, chapters: [c1, c2, c3] } = await bookWithChapters(w.me, 3);
      const deleted = ok2xx(await w.me.del(`/api/chapters/${c1.id}`));
      const list = await w.me.read(`/api/books/${book.id}/chapters`);
      expect(positionsOf(list)).toEqual([
        [c2.id, 1],
        [c3.id, 2],
      ]);
      expect(list.every((c: { rev: number }) => c.rev === deleted.rev)).toBe(true);
      // The next chapter goes after the live ones, not onto a taken position.
      expect((await w.me.create('/api/chapters', { bookId: book.id, title: 'Next' })).position).toBe(3);
    } finally {
      await w.t.close();
    }
  });
});

describe('timeline reorder naming events deleted elsewhere', () => {
  it('takes the sent positions of the live events and ignores the deleted ones; foreign ids still 404', async () => {
    const w = await twoAuthors();
    try {
      const series = await w.me.create('/api/series', { title: 'Saga' });
      const events = [];
      for (const title of ['A', 'B', 'C']) events.push(await w.me.create('/api/timeline-events', { seriesId: series.id, title }));
      await remove(w.me, `/api/timeline-events/${events[1].id}`);
      const res = await w.me.post('/api/timeline-events/reorder', {
        events: [
          { id: events[2].id, position: 1 },
          { id: events[1].id, position: 2 },
          { id: events[0].id, position: 3 },
        ],
      });
      expect(ok2xx(res).events.map((e: { title: string; position: number }) => [e.title, e.position])).toEqual([
        ['C', 1],
        ['A', 3],
      ]);
      expect(ok2xx(await w.me.post('/api/timeline-events/reorder', { events: [{ id: events[1].id, position: 9 }] }))).toEqual({ events: [] });
      const theirSeries = await w.other.create('/api/series', { title: 'Theirs' });
      const theirs = await w.other.create('/api/timeline-events', { seriesId: theirSeries.id, title: 'T' });
      await remove(w.other, `/api/timeline-events/${theirs.id}`);
      expectError(await w.me.post('/api/timeline-events/reorder', { events: [{ id: events[0].id, position: 1 }, { id: theirs.id, position: 2 }] }), 404, 'NOT_FOUND');
      expect((await w.me.read(`/api/timeline-events/${events[0].id}`)).position).toBe(3);
    } finally {
      await w.t.close();
    }
  });
});

describe('replayed through /api/sync/batch with an Idempotency-Key', () => {
  it('applies once and answers the same on replay', async () => {
    const w = await twoAuthors();
    try {
      const { book, chapters: [c1, c2, c3] } = await bookWithChapters(w.me, 3);
      await remove(w.me, `/api/chapters/${c2.id}`);
      const entries = [
        {
          method: 'POST' as const,
          path: '/api/chapters/reorder',
          headers: { idempotencyKey: `reorder-${book.id}` },
          body: { chapters: [{ id: c3.id, position: 1 }, { id: c2.id, position: 2 }, { id: c1.id, position: 3 }] },
        },
      ];
      const send = () => w.t.app.inject({ method: 'POST', url: '/api/sync/batch', headers: w.me.author.headers, payload: { entries } });
      const first = json<BatchResult[]>(await send());
      expect(first.map((r) => r.status)).toEqual([200]);
      expect(positionsOf((first[0]!.body as { chapters: Array<{ id: string; position: number }> }).chapters)).toEqual([
        [c3.id, 1],
        [c1.id, 2],
      ]);
      const listed = await w.me.read(`/api/books/${book.id}/chapters`);
      const again = json<BatchResult[]>(await send());
      expect(again).toEqual(first);
      expect(await w.me.read(`/api/books/${book.id}/chapters`)).toEqual(listed);
    } finally {
      await w.t.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Property: whatever mix of live, deleted, foreign and unknown ids, repeated ids and tied positions
// a reorder carries, it either fails whole (404 / 422, nothing changed) or leaves the book's live
// chapters at 1..n in the requested order; other authors' rows never change.

describe('chapter reorder property', () => {
  let w: Author;
  let foreign: { live: string[]; deleted: string[]; bookId: string };
  beforeAll(async () => {
    w = await twoAuthors();
    const theirs = await bookWithChapters(w.other, 3);
    await remove(w.other, `/api/chapters/${theirs.chapters[0].id}`);
    foreign = { live: theirs.chapters.slice(1).map((c) => c.id), deleted: [theirs.chapters[0].id], bookId: theirs.book.id };
  });
  afterAll(async () => w?.t.close());

  type Stranger = { kind: 'foreign'; index: number } | { kind: 'unknown' };
  const strangerArb: fc.Arbitrary<Stranger> = fc.oneof(
    fc.record({ kind: fc.constant('foreign' as const), index: fc.nat(2) }),
    fc.record({ kind: fc.constant('unknown' as const) }),
  );
  const caseArb = fc.integer({ min: 1, max: 6 }).chain((count) => {
    const indices = [...Array(count).keys()];
    return fc.record({
      count: fc.constant(count),
      /** Chapters another device deleted before the reorder arrives. */
      deleted: fc.subarray(indices),
      /** The author's chapters the reorder names, in request order (deleted ones included). */
      named: fc.shuffledSubarray(indices, { minLength: 1 }),
      strangers: fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(strangerArb, { minLength: 1, maxLength: 2 }) }),
      repeat: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      /** Sent positions, ties and gaps included. */
      positions: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 10, maxLength: 10 }),
      strangerAt: fc.nat(),
    });
  });
  const tally = { applied: 0, notFound: 0, invalid: 0 };

  const rowsOfBook = (bookId: string) =>
    w.t.app.deps.database.db.selectFrom('chapters').selectAll().where('bookId', '=', bookId).orderBy('id').execute();

  it('positions are always 1..n over the live chapters, in the requested order, or nothing changes', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ count, deleted, named: namedIndices, strangers, repeat, positions, strangerAt }) => {
        const { book, chapters } = await bookWithChapters(w.me, count);
        for (const index of deleted) await remove(w.me, `/api/chapters/${chapters[index]!.id}`);
        const liveBefore = await w.me.read<Array<{ id: string; position: number }>>(`/api/books/${book.id}/chapters`);
        const mineBefore = await rowsOfBook(book.id);
        const foreignBefore = await rowsOfBook(foreign.bookId);
        const foreignIds = [...foreign.live, ...foreign.deleted];
        const ids = namedIndices.map((index) => chapters[index]!.id as string);
        for (const stranger of strangers) {
          const id = stranger.kind === 'foreign' ? foreignIds[stranger.index % foreignIds.length]! : newId();
          ids.splice(strangerAt % (ids.length + 1), 0, id);
        }
        if (repeat) ids.push(ids[0]!);
        const body = { chapters: ids.map((id, i) => ({ id, position: positions[i % positions.length]! })) };
        const res = await w.me.post('/api/chapters/reorder', body);
        const repeated = new Set(ids).size !== ids.length;
        const stranger = strangers.length > 0;

        expect(await rowsOfBook(foreign.bookId)).toEqual(foreignBefore);
        if (repeated || stranger) {
          expect(res.statusCode, res.body).toBe(repeated ? 422 : 404);
          expect(await rowsOfBook(book.id)).toEqual(mineBefore);
          tally[repeated ? 'invalid' : 'notFound'] += 1;
          return;
        }
        expect(res.statusCode, res.body).toBe(200);
        // The model: named live chapters by sent position (ties in request order), then the rest as they were.
        const live = new Set(liveBefore.map((c) => c.id));
        const named = body.chapters
          .map((item, index) => ({ ...item, index }))
          .filter((item) => live.has(item.id))
          .sort((a, b) => a.position - b.position || a.index - b.index)
          .map((item) => item.id);
        const expected = [...named, ...liveBefore.map((c) => c.id).filter((id) => !named.includes(id))];
        const after = await w.me.read<Array<{ id: string; position: number }>>(`/api/books/${book.id}/chapters`);
        expect(positionsOf(after)).toEqual(expected.map((id, i) => [id, i + 1]));
        expect(positionsOf(json(res).chapters)).toEqual(positionsOf(after));
        // Tombstones are left as they were.
        const tombstones = (rows: Awaited<ReturnType<typeof rowsOfBook>>) => rows.filter((r) => r.deletedAt !== null);
        expect(tombstones(await rowsOfBook(book.id))).toEqual(tombstones(mineBefore));
        tally.applied += 1;
      }),
      { numRuns: 80 },
    );
    // Not vacuous: every outcome was reached, mostly the applied one.
    expect(tally.applied).toBeGreaterThanOrEqual(30);
    expect(tally.notFound).toBeGreaterThanOrEqual(3);
    expect(tally.invalid).toBeGreaterThanOrEqual(3);
  });
});
