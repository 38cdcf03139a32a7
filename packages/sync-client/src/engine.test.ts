import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Chapter, backoffMs, parseRetryAfter } from '@chronicler/schema';
import type { ChroniclerDb } from './db.ts';
import { LAST_SYNCED_REFRESH_MS, type SyncEngineOptions, type SyncEvent, createSyncEngine } from './engine.ts';
import { createMutators } from './mutators.ts';
import { createSyncStatusStore } from './status.ts';
import {
  type Call,
  type Reply,
  freshDb,
  manualClock,
  page,
  scriptedFetch,
  serverBook,
  serverChapter,
  serverCharacter,
  serverSeries,
} from './testing/fixtures.ts';

let db: ChroniclerDb;
afterEach(() => db?.close());

async function setup(handler: (call: Call) => Reply | Promise<Reply>, extra: Partial<SyncEngineOptions> = {}) {
  db = freshDb();
  await db.open();
  const series = serverSeries();
  const book = serverBook(series.id);
  const chapter = serverChapter(book, { rev: 7 });
  await db.series.put(series);
  await db.books.put(book);
  await db.chapters.put(chapter);
  await db.syncState.update('state', { cursor: 7 });
  const clock = manualClock();
  const status = createSyncStatusStore();
  const fetch = scriptedFetch(handler);
  const events: SyncEvent[] = [];
  const onAuthRequired = vi.fn();
  const engine = createSyncEngine({
    db,
    fetch,
    baseUrl: 'http://test.local',
    onAuthRequired,
    now: clock.now,
    random: () => 0.5,
    locks: null,
    eventSource: null,
    status,
    platform: { window: null, document: null },
    timers: { setTimeout: () => 0, clearTimeout: () => undefined, setInterval: () => 0, clearInterval: () => undefined },
    ...extra,
  });
  engine.on((e) => events.push(e));
  return { series, book, chapter, clock, status, fetch, engine, events, onAuthRequired, m: createMutators(db, { now: clock.now }) };
}

const emptyPull = (cursor = 7): Reply => ({ status: 200, body: page({}, cursor) });

describe('push', () => {
  it('sends entries in order with the sync headers, then pulls', async () => {
    const t = await setup((call) => {
      if (call.method === 'GET') return emptyPull();
      if (call.method === 'POST') {
        const b = call.body as { id: string; title: string };
        return { status: 201, body: serverChapter(serverBook(b.id), { ...(call.body as object), rev: 8, wordCount: 0 }) };
      }
      return { status: 200, body: { ...serverChapter(serverBook('x'), { id: call.path.split('/').pop()!, rev: 9 }), mergeStatus: 'fast-forward' } };
    });
    await t.m.chapters.update(t.chapter.id, { title: 'First' });
    await t.engine.sync();
    const put = t.fetch.calls[0]!;
    expect(put.method).toBe('PUT');
    expect(put.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(put.headers['X-Client-Id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(put.headers['X-Mutation-Id']).toBe('1');
    expect(put.headers['X-Base-Rev']).toBe('7');
    expect(t.fetch.calls.at(-1)!.path).toBe('/api/sync/changes?since=7&limit=2000');
    expect(await db.outbox.count()).toBe(0);
    expect(await db.shadows.count()).toBe(0);
  });

  it('2xx: stores the answer and replays later pending work on top (rebase); pending text is never overwritten', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const t = await setup(async (call) => {
      if (call.method === 'GET') return emptyPull(20);
      await gate;
      // The server answers the create with its own position, word count and stamps.
      const body = call.body as Chapter;
      return { status: 201, body: { ...serverChapter(serverBook('x'), body), seriesId: t.series.id, bookId: t.book.id, rev: 12, position: 9, wordCount: 3, content: body.content } };
    });
    const ch = await t.m.chapters.create({ bookId: t.book.id, title: 'New', content: 'one two three' });
    const syncing = t.engine.sync();
    await vi.waitFor(async () => expect((await db.outbox.toArray())[0]!.status).toBe('inflight'));
    // Typed while the create was on the wire: a second entry, chained to the create's answer.
    await t.m.chapters.update(ch.id, { content: 'one two three four' });
    await t.m.chapters.update(ch.id, { title: 'Renamed' }); // coalesced into the pending update
    release();
    await syncing;
    expect(t.fetch.calls.filter((c) => c.method !== 'GET')).toHaveLength(2);
    const second = t.fetch.calls.find((c) => c.method === 'PUT')!;
    expect(second.headers['X-Base-Rev']).toBe('12');
    expect(second.body).toEqual({ content: 'one two three four', title: 'Renamed', writing: expect.objectContaining({ kind: 'writing' }) });
  });

  it('rebase keeps pending fields over the acknowledged row', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let seenWhenPutArrived: Chapter | undefined;
    const t = await setup(async (call) => {
      if (call.method === 'GET') return emptyPull(20);
      if (call.method === 'PUT') {
        seenWhenPutArrived = await db.chapters.get(call.path.split('/').pop()!);
        return { status: 500 };
      }
      await gate;
      return { status: 201, body: { ...(call.body as object), seriesId: t.series.id, rev: 12, position: 9, wordCount: 3, createdAt: 'c', updatedAt: 'u', deletedAt: null } };
    });
    const ch = await t.m.chapters.create({ bookId: t.book.id, title: 'New', content: 'one two three' });
    const pushing = t.engine.push();
    await vi.waitFor(async () => expect((await db.outbox.toArray())[0]!.status).toBe('inflight'));
    await t.m.chapters.update(ch.id, { content: 'mine, not yet sent' });
    release();
    await pushing;
    // The server's row (rev, position, stamps) with the unsent text on top.
    expect(seenWhenPutArrived).toMatchObject({ rev: 12, position: 9, createdAt: 'c', content: 'mine, not yet sent', wordCount: 4 });
    expect(await db.shadows.get(['chapters', ch.id])).toMatchObject({ rev: 12, row: { content: 'one two three' } });
  });

  it('4xx: dead-letters the entry and its dependants, reverts them, keeps the text, tells the UI', async () => {
    const t = await setup((call) => {
      if (call.method === 'GET') return emptyPull();
      if (call.path === '/api/books') return { status: 403, body: { message: 'Your plan allows 3 books per series', code: 'PLAN_LIMIT' } };
      return { status: 500 };
    });
    const book = await t.m.books.create({ seriesId: t.series.id, title: 'Book Four' });
    const ch = await t.m.chapters.create({ bookId: book.id, title: 'Opening', content: 'The words I wrote.' });
    await t.m.chapters.reorder({ chapters: [{ id: ch.id, position: 3 }, { id: t.chapter.id, position: 2 }] });
    // After the reorder (it touches the new chapter): its own entry, not folded into the create.
    await t.m.chapters.update(ch.id, { content: 'The words I wrote, and more.' });
    await t.m.chapters.update(t.chapter.id, { title: 'Unrelated' }); // must survive
    await t.m.books.delete(book.id);
    const errorKinds: string[] = [];
    t.status.subscribe((s) => s.lastError && errorKinds.push(s.lastError.kind));
    const result = await t.engine.push();
    expect(result.rejected).toBe(1);
    expect(await db.books.get(book.id)).toBeUndefined();
    expect(await db.chapters.get(ch.id)).toBeUndefined();
    const letters = await db.deadLetters.orderBy('id').toArray();
    expect(letters.map((l) => [l.entry.kind, l.entry.entity, l.status])).toEqual([
      ['create', 'books', 403],
      ['create', 'chapters', 0],
      ['update', 'chapters', 0],
    ]);
    expect(letters[0]!.response).toEqual({ message: 'Your plan allows 3 books per series', code: 'PLAN_LIMIT' });
    expect(letters[1]!.content).toMatchObject({ label: 'Opening', text: 'The words I wrote.' });
    expect(letters[2]!.content.text).toBe('The words I wrote, and more.');
    expect(letters[2]!.causedBy).toBe(letters[0]!.entry.idemKey);
    // The unrelated update stays; the reorder lost the rejected chapter; the delete of the book is moot.
    const left = await db.outbox.orderBy('seq').toArray();
    expect(left.map((e) => e.kind)).toEqual(['reorder', 'update']);
    expect(left[0]!.body).toEqual({ chapters: [{ id: t.chapter.id, position: 2 }] });
    expect((await db.chapters.get(t.chapter.id))!).toMatchObject({ title: 'Unrelated', position: 2 });
    expect(t.events.filter((e) => e.type === 'problem')).toHaveLength(3);
    expect(errorKinds).toContain('rejected');
  });

  it('4xx on an update reverts it to the server state', async () => {
    const t = await setup((call) =>
      call.method === 'GET' ? emptyPull() : { status: 422, body: { message: 'Title required', code: 'VALIDATION_FAILED' } },
    );
    await t.m.chapters.update(t.chapter.id, { content: 'Rejected words' });
    await t.engine.push();
    expect((await db.chapters.get(t.chapter.id))!.content).toBe('It began.');
    expect((await db.deadLetters.toArray())[0]!.content.text).toBe('Rejected words');
    expect(await db.shadows.count()).toBe(0);
  });

  it('401 pauses syncing, asks for sign-in and drops nothing; resume continues', async () => {
    let signedIn = false;
    const t = await setup((call) => {
      if (!signedIn) return { status: 401, body: { message: 'Please sign in to continue', code: 'UNAUTHENTICATED' } };
      if (call.method === 'GET') return emptyPull();
      return { status: 200, body: { ...t.chapter, title: 'Saved', rev: 8, mergeStatus: 'fast-forward' } };
    });
    await t.m.chapters.update(t.chapter.id, { title: 'Saved' });
    await t.engine.sync();
    expect(t.onAuthRequired).toHaveBeenCalledTimes(1);
    expect(t.engine.paused).toBe(true);
    expect(t.status.getState().authRequired).toBe(true);
    expect(await db.outbox.toArray()).toMatchObject([{ status: 'pending' }]);
    expect(await db.deadLetters.count()).toBe(0);
    signedIn = true;
    t.engine.start();
    t.engine.resume();
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    expect(t.status.getState().authRequired).toBe(false);
    expect((await db.chapters.get(t.chapter.id))!).toMatchObject({ title: 'Saved', rev: 8 });
    t.engine.stop();
  });

  it('503 backs off, honouring Retry-After; a waiting head holds the entries behind it', async () => {
    let down = true;
    const t = await setup((call) => {
      if (call.method === 'GET') return emptyPull();
      if (down) return { status: 503, headers: { 'Retry-After': '120' }, body: { message: 'busy', code: 'INTERNAL' } };
      return { status: 200, body: { ...t.chapter, rev: 8, mergeStatus: 'fast-forward' } };
    });
    await t.m.chapters.update(t.chapter.id, { title: 'A' });
    await t.m.books.update(t.book.id, { title: 'B' });
    const first = await t.engine.push();
    expect(first.retryAt).toBe(t.clock.now() + 120_000);
    const [head] = await db.outbox.orderBy('seq').toArray();
    expect(head).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: t.clock.now() + 120_000, lastError: 'HTTP 503' });
    expect(t.status.getState().lastError).toMatchObject({ kind: 'server' });
    down = false;
    t.clock.advance(119_000);
    const early = await t.engine.push();
    expect(early.acked).toBe(0);
    expect(t.fetch.calls.filter((c) => c.method !== 'GET')).toHaveLength(1);
    t.clock.advance(1_000);
    const later = await t.engine.push();
    expect(later.acked).toBe(2);
  });

  it('network errors back off exponentially with jitter, capped at 60 s', async () => {
    const t = await setup(() => new TypeError('fetch failed'));
    await t.m.chapters.update(t.chapter.id, { title: 'A' });
    const waits: number[] = [];
    for (let i = 0; i < 9; i++) {
      const r = await t.engine.push();
      waits.push(r.retryAt! - t.clock.now());
      t.clock.set(r.retryAt!);
    }
    expect(waits).toEqual([750, 1500, 3000, 6000, 12000, 24000, 45000, 45000, 45000]);
    expect(t.status.getState().lastError).toMatchObject({ kind: 'network' });
    expect(await db.outbox.count()).toBe(1);
    expect(backoffMs(1, () => 0)).toBe(500);
    expect(backoffMs(30, () => 1)).toBe(60_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
  });

  it('a replayed answer older than what a pull already brought is ignored', async () => {
    const t = await setup((call) => {
      if (call.method === 'GET') return emptyPull(30);
      // The stored answer of a request first committed at rev 8 (its first answer was lost).
      return { status: 200, body: { ...t.chapter, title: 'Mine', rev: 8, mergeStatus: 'fast-forward' } };
    });
    await t.m.chapters.update(t.chapter.id, { title: 'Mine' });
    // Meanwhile a pull brought rev 11: someone else changed the text after our write.
    await db.shadows.put({ entity: 'chapters', id: t.chapter.id, row: { ...t.chapter, title: 'Mine', content: 'Theirs', rev: 11 }, rev: 11 });
    await t.engine.push();
    expect(await db.chapters.get(t.chapter.id)).toMatchObject({ title: 'Mine', content: 'Theirs', rev: 11 });
  });

  it('a DELETE answered 404 is done (already gone)', async () => {
    const t = await setup((call) => (call.method === 'GET' ? emptyPull() : { status: 404, body: { message: 'Not found', code: 'NOT_FOUND' } }));
    await t.m.chapters.delete(t.chapter.id);
    await t.engine.push();
    expect(await db.deadLetters.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.chapters.get(t.chapter.id)).toBeUndefined();
  });

  it('a conflict answer is not an error', async () => {
    const t = await setup((call) =>
      call.method === 'GET'
        ? emptyPull()
        : { status: 200, body: { ...t.chapter, content: 'Theirs', rev: 9, mergeStatus: 'conflict', conflictId: '0190a6f0-0000-7000-8000-0000000000cc' } },
    );
    await t.m.chapters.update(t.chapter.id, { content: 'Mine' });
    await t.engine.push();
    expect(await db.deadLetters.count()).toBe(0);
    expect(await db.chapters.get(t.chapter.id)).toMatchObject({ content: 'Theirs', rev: 9 });
    expect((await db.chapters.get(t.chapter.id)) as unknown as Record<string, unknown>).not.toHaveProperty('mergeStatus');
    expect(t.events).toContainEqual({ type: 'conflict', chapterId: t.chapter.id, conflictId: '0190a6f0-0000-7000-8000-0000000000cc' });
  });
});

describe('saved onto a row deleted elsewhere', () => {
  it('a chapter written offline in a book deleted on another device: gone from the lists, its words in the problems panel', async () => {
    const deletedAt = '2026-01-02T00:00:00.000Z';
    const t = await setup((call) => {
      if (call.method === 'GET') return emptyPull();
      // The server stored it as the book's delete would have left it (story/dangling.ts): deleted.
      const sent = call.body as Partial<Chapter> & { id: string };
      return { status: 201, body: serverChapter(t.book, { ...sent, rev: 8, wordCount: 3, deletedAt }) };
    });
    const created = await t.m.chapters.create({ bookId: t.book.id, title: 'Written on the train', content: 'Three whole words' });
    await t.engine.push();
    expect(await db.chapters.get(created.id)).toBeUndefined();
    const letters = await db.deadLetters.toArray();
    expect(letters).toHaveLength(1);
    expect(letters[0]).toMatchObject({
      status: 201,
      response: { code: 'CONFLICT', message: 'Saved, but its book had been deleted on another device, so it is no longer in your lists. Copy the text to keep it.' },
      content: { entity: 'chapters', entityId: created.id, label: 'Written on the train', text: 'Three whole words' },
    });
    expect(t.events).toContainEqual(expect.objectContaining({ type: 'problem' }));
    expect(await db.outbox.count()).toBe(0);
  });

  it('an edit of a row deleted on another device keeps its words too; a live answer adds nothing', async () => {
    let deleted = false;
    const t = await setup((call) => {
      if (call.method === 'GET') return emptyPull();
      return { status: 200, body: { ...t.chapter, content: 'Kept text', rev: 9, deletedAt: deleted ? '2026-01-02T00:00:00.000Z' : null, mergeStatus: deleted ? 'deleted' : 'fast-forward' } };
    });
    await t.m.chapters.update(t.chapter.id, { content: 'Kept text' });
    await t.engine.push();
    expect(await db.deadLetters.count()).toBe(0);
    deleted = true;
    await t.m.chapters.update(t.chapter.id, { content: 'Edited after the delete' });
    await t.engine.push();
    const [letter] = await db.deadLetters.toArray();
    expect(letter?.response?.message).toBe('Saved, but it had been deleted on another device, so it is no longer in your lists. Copy the text to keep it.');
    expect(letter?.content.text).toBe('Edited after the delete');
  });
});

describe('pull', () => {
  it('follows pages until hasMore is false, storing the cursor with each page', async () => {
    const pages = new Map<number, Reply>();
    const t = await setup((call) => pages.get(Number(new URL(call.path, 'http://x').searchParams.get('since')))!);
    const ch2 = serverChapter(t.book, { rev: 9, title: 'Two', position: 2 });
    const ch3 = serverChapter(t.book, { rev: 10, title: 'Three', position: 3 });
    pages.set(7, { status: 200, body: page({ chapters: [ch2] }, 9, { hasMore: true }) });
    pages.set(9, { status: 200, body: page({ chapters: [ch3], books: [{ ...t.book, title: 'Retitled', rev: 10 }] }, 10) });
    await t.engine.pull();
    expect(t.fetch.calls.map((c) => c.path)).toEqual(['/api/sync/changes?since=7&limit=2000', '/api/sync/changes?since=9&limit=2000']);
    expect((await db.chapters.toArray()).sort((a, b) => a.position - b.position).map((c) => c.title)).toEqual(['Chapter 1', 'Two', 'Three']);
    expect((await db.books.get(t.book.id))!.title).toBe('Retitled');
    expect((await db.syncState.get('state'))!).toMatchObject({ cursor: 10, lastSyncedAt: t.clock.now() });
  });

  it('tombstones delete locally, unless local work is pending', async () => {
    const t = await setup(() => ({ status: 200, body: page({ chapters: [{ ...t.chapter, rev: 9, deletedAt: 'now' }], books: [{ ...t.book, rev: 9, deletedAt: 'now' }] }, 9) }));
    await t.m.chapters.update(t.chapter.id, { content: 'Still typing' });
    await t.engine.pull();
    expect(await db.books.get(t.book.id)).toBeUndefined();
    // The chapter stays visible with its unsent text until the server has answered that edit.
    expect(await db.chapters.get(t.chapter.id)).toMatchObject({ content: 'Still typing', deletedAt: 'now' });
    expect(await db.shadows.get(['chapters', t.chapter.id])).toMatchObject({ rev: 9 });
  });

  it('rows with pending work only take the fields that work does not touch', async () => {
    const t = await setup(() => ({
      status: 200,
      body: page({ chapters: [{ ...t.chapter, rev: 9, title: 'Their title', content: 'Their text', status: 'revision' }] }, 9),
    }));
    await t.m.chapters.update(t.chapter.id, { content: 'My text' });
    await t.engine.pull();
    expect(await db.chapters.get(t.chapter.id)).toMatchObject({ title: 'Their title', content: 'My text', status: 'revision', rev: 9 });
    // The outbox entry still carries its original base.
    expect((await db.outbox.toArray())[0]!.baseRev).toBe(7);
  });

  it('scopeRemoved purges the series and everything under it, dead-lettering its queued work', async () => {
    const t = await setup(() => ({ status: 200, body: page({}, 12, { scopeRemoved: [t.series.id] }) }));
    const other = serverSeries({ title: 'Other' });
    await db.series.put(other);
    await db.characters.put(serverCharacter(t.series.id));
    await t.m.chapters.update(t.chapter.id, { content: 'Words that must not vanish' });
    await t.engine.pull();
    expect(await db.series.toArray()).toEqual([other]);
    for (const table of [db.books, db.chapters, db.characters, db.outbox, db.shadows]) expect(await table.count()).toBe(0);
    const [letter] = await db.deadLetters.toArray();
    expect(letter!.content.text).toBe('Words that must not vanish');
  });

  it('a pull that brings nothing writes nothing, except the last-synced time at most every 30 s', async () => {
    const t = await setup(() => emptyPull());
    let writes = 0;
    db.syncState.hook('updating', () => void (writes += 1));
    await t.engine.pull();
    expect(writes).toBe(1); // the first one records when this device last synced
    t.clock.advance(LAST_SYNCED_REFRESH_MS - 1);
    await t.engine.pull();
    await t.engine.pull();
    expect(writes).toBe(1);
    // The tab's own status still says it synced just now.
    expect(t.status.getState().lastSyncedAt).toBe(t.clock.now());
    t.clock.advance(1);
    await t.engine.pull();
    expect(writes).toBe(2);
    expect((await db.syncState.get('state'))!).toMatchObject({ cursor: 7, lastSyncedAt: t.clock.now() });
  });

  it('reads the cursor again after leadership changed hands (another tab may have moved it)', async () => {
    const t = await setup(() => emptyPull());
    await t.engine.pull();
    // Another tab led meanwhile and pulled up to 12.
    await db.syncState.update('state', { cursor: 12 });
    t.engine.start();
    await vi.waitFor(() => expect(t.fetch.calls.at(-1)?.path).toBe('/api/sync/changes?since=12&limit=2000'));
    t.engine.stop();
  });

  it('401 on pull pauses; a 503 schedules a retry', async () => {
    let answer: Reply = { status: 503 };
    const t = await setup(() => answer);
    await t.engine.pull();
    expect(t.engine.paused).toBe(false);
    answer = { status: 401, body: { message: 'Please sign in', code: 'UNAUTHENTICATED' } };
    await t.engine.pull();
    expect(t.engine.paused).toBe(true);
    expect(t.onAuthRequired).toHaveBeenCalledTimes(1);
  });
});

describe('live', () => {
  it('pulls on SSE hello and pokes, on online and focus', async () => {
    const handlers = new Map<string, (e: { data?: string }) => void>();
    const winListeners = new Map<string, () => void>();
    const win = {
      addEventListener: (type: string, fn: () => void) => winListeners.set(type, fn),
      removeEventListener: (type: string) => winListeners.delete(type),
    };
    const t = await setup(() => emptyPull(), {
      eventSource: () => ({ addEventListener: (type, fn) => handlers.set(type, fn), close: () => undefined, onerror: null, readyState: 1 }),
      platform: { window: win, document: null },
    });
    t.engine.start();
    await vi.waitFor(() => expect(t.fetch.calls.length).toBeGreaterThanOrEqual(1));
    const gets = () => t.fetch.calls.filter((c) => c.method === 'GET').length;
    for (const trigger of [() => handlers.get('hello')!({}), () => handlers.get('message')!({ data: '{"seq":9}' }), () => winListeners.get('online')!(), () => winListeners.get('focus')!()]) {
      const before = gets();
      trigger();
      await vi.waitFor(() => expect(gets()).toBeGreaterThan(before));
    }
    // A poke for a seq already pulled (the cursor is 7) changes nothing.
    const before = gets();
    handlers.get('message')!({ data: '{"seq":7}' });
    await new Promise((r) => setTimeout(r, 50));
    expect(gets()).toBe(before);
    t.engine.stop();
    expect(winListeners.size).toBe(0);
  });

  it('a hello or poke that comes while a pull is in flight pulls again only if that pull did not reach its seq', async () => {
    const handlers = new Map<string, (e: { data?: string }) => void>();
    // Each pull is held until the test answers it with the server's seq at that moment.
    const held: (() => void)[] = [];
    let serverSeq = 12;
    const t = await setup(
      (call) => (call.method === 'GET' ? new Promise<Reply>((resolve) => held.push(() => resolve(emptyPull(serverSeq)))) : { status: 404 }),
      { eventSource: () => ({ addEventListener: (type, fn) => handlers.set(type, fn), close: () => undefined, onerror: null, readyState: 1 }) },
    );
    const gets = () => t.fetch.calls.filter((c) => c.method === 'GET').length;
    const settle = () => new Promise((r) => setTimeout(r, 50));
    t.engine.start();
    await vi.waitFor(() => expect(held.length).toBe(1));
    // The first connect's hello comes while the first pull is in flight, which reads to 12: no second pull.
    handlers.get('hello')!({ data: '{"seq":12}' });
    held.shift()!();
    await settle();
    expect(gets()).toBe(1);
    expect(held).toHaveLength(0);

    // A poke for 13 pulls; during that pull, pokes for 13 (reached by it) and 15 (not reached) come.
    serverSeq = 13;
    handlers.get('message')!({ data: '{"seq":13}' });
    await vi.waitFor(() => expect(held.length).toBe(1));
    handlers.get('message')!({ data: '{"seq":13}' });
    handlers.get('message')!({ data: '{"seq":15}' });
    held.shift()!(); // answers 13
    await vi.waitFor(() => expect(held.length).toBe(1));
    expect(gets()).toBe(3);
    serverSeq = 15;
    held.shift()!();
    await settle();
    expect(gets()).toBe(3);
    t.engine.stop();
  });

  it('hands named live events (presence, invites) to its listeners without pulling', async () => {
    const handlers = new Map<string, (e: { data?: string }) => void>();
    const t = await setup(() => emptyPull(), {
      eventSource: () => ({ addEventListener: (type, fn) => handlers.set(type, fn), close: () => undefined, onerror: null, readyState: 1 }),
    });
    const heard: unknown[] = [];
    t.engine.on((event) => event.type === 'live' && heard.push(event));
    t.engine.start();
    await vi.waitFor(() => expect(handlers.has('presence')).toBe(true));
    await t.engine.sync();
    const gets = t.fetch.calls.length;
    handlers.get('presence')!({ data: '{"chapterId":"c1","present":[]}' });
    handlers.get('invites')!({ data: 'not json' });
    handlers.get('invites')!({ data: '{}' });
    expect(heard).toEqual([
      { type: 'live', event: 'presence', data: { chapterId: 'c1', present: [] } },
      { type: 'live', event: 'invites', data: {} },
    ]);
    expect(t.fetch.calls.length).toBe(gets);
    t.engine.stop();
  });

  it('only the lock holder syncs', async () => {
    const granted: (() => void)[] = [];
    const locks = {
      request: (_name: string, cb: (l: unknown) => Promise<unknown>) =>
        new Promise((resolve) => granted.push(() => void cb({}).then(resolve))),
    };
    const t = await setup(() => emptyPull(), { locks });
    t.engine.start();
    await new Promise((r) => setTimeout(r, 20));
    expect(t.engine.isLeader).toBe(false);
    expect(t.fetch.calls).toHaveLength(0);
    granted[0]!();
    await vi.waitFor(() => expect(t.engine.isLeader).toBe(true));
    await vi.waitFor(() => expect(t.fetch.calls.length).toBeGreaterThan(0));
    t.engine.stop();
  });

  it('a new leader resends entries a crashed leader left in flight', async () => {
    const t = await setup((call) => (call.method === 'GET' ? emptyPull() : { status: 200, body: { ...t.chapter, title: 'T', rev: 8, mergeStatus: 'fast-forward' } }));
    await t.m.chapters.update(t.chapter.id, { title: 'T' });
    await db.outbox.toCollection().modify({ status: 'inflight', attempts: 1 });
    t.engine.start();
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    expect(t.fetch.calls.filter((c) => c.method === 'PUT')).toHaveLength(1);
    t.engine.stop();
  });
});

describe('batch', () => {
  it('sends a backlog in one request and handles each answer like a single one', async () => {
    const t = await setup((call) => {
      if (call.method === 'GET') return emptyPull();
      const { entries } = call.body as { entries: { method: string; path: string; headers: Record<string, unknown>; body?: { id?: string; title?: string } }[] };
      return {
        status: 200,
        body: entries.slice(0, 3).map((e, i) =>
          i === 1
            ? { status: 403, body: { message: 'Plan limit', code: 'PLAN_LIMIT' } }
            : i === 2
              ? { status: 503, body: { message: 'busy', code: 'INTERNAL' } }
              : { status: 201, body: { ...serverBook(t.series.id, { id: e.body!.id!, title: e.body!.title!, rev: 20 }) } },
        ),
      };
    }, { batchThreshold: 3 });
    const b1 = await t.m.books.create({ seriesId: t.series.id, title: 'B1' });
    const b2 = await t.m.books.create({ seriesId: t.series.id, title: 'B2' });
    await t.m.chapters.create({ bookId: b2.id, title: 'In B2' });
    await t.m.chapters.update(t.chapter.id, { title: 'Later' });
    const result = await t.engine.push();
    const batch = t.fetch.calls.find((c) => c.path === '/api/sync/batch')!;
    const sent = (batch.body as { entries: { method: string; path: string; headers: Record<string, unknown> }[] }).entries;
    expect(sent.map((e) => `${e.method} ${e.path}`)).toEqual(['POST /api/books', 'POST /api/books', 'POST /api/chapters', `PUT /api/chapters/${t.chapter.id}`]);
    expect(sent[3]!.headers).toMatchObject({ baseRev: 7, mutationId: '4' });
    expect(sent[0]!.headers.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(result).toMatchObject({ acked: 1, rejected: 1 });
    expect(await db.books.get(b1.id)).toMatchObject({ rev: 20 });
    expect(await db.books.get(b2.id)).toBeUndefined();
    // The chapter in the refused book went with it; the update waits for its retry.
    const left = await db.outbox.orderBy('seq').toArray();
    expect(left.map((e) => e.kind)).toEqual(['update']);
    expect(left[0]).toMatchObject({ status: 'pending', attempts: 0 }); // never run: the batch stopped before it
    expect(left[0]!.nextAttemptAt).toBeGreaterThan(t.clock.now());
    expect(await db.deadLetters.count()).toBe(2);
  });

  it('falls back to one request per entry when the server has no batch endpoint', async () => {
    const t = await setup((call) => {
      if (call.path === '/api/sync/batch') return { status: 404, body: { message: 'Not found', code: 'NOT_FOUND' } };
      if (call.method === 'GET') return emptyPull();
      return { status: 201, body: serverBook(t.series.id, { ...(call.body as object), rev: 30 }) };
    }, { batchThreshold: 2 });
    await t.m.books.create({ seriesId: t.series.id, title: 'B1' });
    await t.m.books.create({ seriesId: t.series.id, title: 'B2' });
    await t.m.books.create({ seriesId: t.series.id, title: 'B3' });
    const result = await t.engine.push();
    expect(result.acked).toBe(3);
    expect(t.fetch.calls.filter((c) => c.path === '/api/sync/batch')).toHaveLength(1);
    expect(t.fetch.calls.filter((c) => c.path === '/api/books')).toHaveLength(3);
  });
});

describe('base revisions of consecutive edits', () => {
  it('the next edit builds on the answer when the server stored our text as sent', async () => {
    let put = 0;
    const t = await setup((call) => {
      if (call.method === 'GET') return emptyPull();
      put += 1;
      return { status: 200, body: { ...t.chapter, content: (call.body as { content: string }).content, rev: 10 + put, mergeStatus: 'fast-forward' } };
    });
    await t.m.chapters.update(t.chapter.id, { content: 'A' });
    await db.outbox.toCollection().modify({ attempts: 1 }); // as if sent once already: no coalescing
    await t.m.chapters.update(t.chapter.id, { content: 'A B' });
    await t.engine.push();
    const puts = t.fetch.calls.filter((c) => c.method === 'PUT');
    expect(puts.map((c) => c.headers['X-Base-Rev'])).toEqual(['7', '11']);
  });

  it('after a merged answer the next edit keeps our earlier base, so their words are merged, not overwritten', async () => {
    let put = 0;
    const t = await setup((call) => {
      if (call.method === 'GET') return emptyPull();
      put += 1;
      return { status: 200, body: { ...t.chapter, content: `Theirs\n\n${(call.body as { content: string }).content}`, rev: 10 + put, mergeStatus: 'merged' } };
    });
    await t.m.chapters.update(t.chapter.id, { content: 'A' });
    await db.outbox.toCollection().modify({ attempts: 1 });
    await t.m.chapters.update(t.chapter.id, { content: 'A B' });
    await t.engine.push();
    const puts = t.fetch.calls.filter((c) => c.method === 'PUT');
    expect(puts.map((c) => c.headers['X-Base-Rev'])).toEqual(['7', '7']);
  });
});
