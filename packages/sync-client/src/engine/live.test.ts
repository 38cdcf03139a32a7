/**
 * Pokes that carry a commit's rows (live.ts): written at once by the leader, never older than what
 * the device has, never into a series it does not have, under the author's pending work; the
 * cursor stays for the feed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Chapter } from '@chronicler/schema';
import type { ChroniclerDb } from '../db.ts';
import { type LiveChannelPolicy, type SyncEvent, createSyncEngine } from '../engine.ts';
import { createMutators } from '../mutators.ts';
import { createSyncStatusStore } from '../status.ts';
import { type Call, type Reply, NO_TIMERS, freshDb, manualClock, page, scriptedFetch, serverBook, serverChapter, serverSeries } from '../testing/fixtures.ts';

let db: ChroniclerDb;
afterEach(() => db?.close());

/** A started leader over a fake event stream whose `message` events the test sends. */
async function leader(feed: (call: Call) => Reply | Promise<Reply> = () => ({ status: 200, body: page({}, 7) })) {
  db = freshDb();
  await db.open();
  const series = serverSeries();
  const book = serverBook(series.id);
  const chapter = serverChapter(book, { rev: 7, content: 'The first line.' });
  await db.series.put(series);
  await db.books.put(book);
  await db.chapters.put(chapter);
  await db.syncState.update('state', { cursor: 7 });
  // The feed has nothing new; every write is refused for now (a busy server: it stays unsent).
  const fetch = scriptedFetch((call) => (call.method === 'GET' ? feed(call) : { status: 503, body: { message: 'busy', code: 'UNAVAILABLE' } }));
  const handlers = new Map<string, (e: { data?: string }) => void>();
  const clock = manualClock();
  const engine = createSyncEngine({
    db,
    fetch,
    baseUrl: 'http://test.local',
    now: clock.now,
    locks: null,
    eventSource: () => ({ addEventListener: (type, fn) => handlers.set(type, fn), close: () => undefined, onerror: null, readyState: 1 }),
    status: createSyncStatusStore(),
    platform: { window: null, document: null },
    timers: NO_TIMERS,
  });
  const events: SyncEvent[] = [];
  engine.on((event) => events.push(event));
  engine.start();
  await vi.waitFor(() => expect(handlers.has('message')).toBe(true));
  await engine.sync();
  const gets = () => fetch.calls.filter((call) => call.method === 'GET').length;
  /** Sends a poke and waits until the loop has handled it. */
  const poke = async (body: unknown) => {
    const before = events.length;
    handlers.get('message')!({ data: JSON.stringify(body) });
    await vi.waitFor(() => expect(events.slice(before).some((e) => e.type === 'carried' || e.type === 'pulled')).toBe(true));
  };
  return { series, book, chapter, engine, events, fetch, gets, poke, m: createMutators(db, { now: clock.now }) };
}

const carried = (events: SyncEvent[]) => events.filter((e): e is Extract<SyncEvent, { type: 'carried' }> => e.type === 'carried');

describe('pokes with rows', () => {
  it("writes a collaborator's save from the poke, with no feed request, and leaves the cursor to the feed", async () => {
    const t = await leader();
    const gets = t.gets();
    const saved: Chapter = { ...t.chapter, rev: 9, content: 'The first line.\n\nA second, from a co-author.' };
    await t.poke({ seq: 9, changes: { chapters: [saved] } });
    expect(await db.chapters.get(t.chapter.id)).toEqual(saved);
    expect(t.gets()).toBe(gets);
    expect((await db.syncState.get('state'))!.cursor).toBe(7);
    expect(carried(t.events).at(-1)).toEqual({ type: 'carried', seq: 9, rows: 1 });
    t.engine.stop();
  });

  it('never writes a row older than the device has, nor a poke the feed already passed', async () => {
    const t = await leader();
    await db.chapters.put({ ...t.chapter, rev: 11, content: 'Newer, from a pull.' });
    await t.poke({ seq: 9, changes: { chapters: [{ ...t.chapter, rev: 9, content: 'Older.' }] } });
    expect((await db.chapters.get(t.chapter.id))!.content).toBe('Newer, from a pull.');

    await db.syncState.update('state', { cursor: 12 });
    const gone = { ...t.book, rev: 12, deletedAt: '2026-02-01T00:00:00.000Z' };
    await db.books.delete(t.book.id); // the feed brought the book's deletion at seq 12
    await t.poke({ seq: 10, changes: { books: [{ ...t.book, rev: 10, title: 'Renamed before it went' }] } });
    expect(await db.books.get(gone.id)).toBeUndefined();
    expect(carried(t.events).map((e) => e.rows)).toEqual([0, 0]);
    t.engine.stop();
  });

  it('takes a new row only into a series the device has (one arriving is the feed’s)', async () => {
    const t = await leader();
    const elsewhere = serverBook('series-not-here', { rev: 9 });
    const here = serverBook(t.series.id, { rev: 9, title: 'Book Two' });
    await t.poke({ seq: 9, changes: { books: [elsewhere, here] } });
    expect(await db.books.get(elsewhere.id)).toBeUndefined();
    expect(await db.books.get(here.id)).toEqual(here);
    t.engine.stop();
  });

  it("keeps the author's unsent edit on top of the carried row", async () => {
    const t = await leader();
    await t.m.chapters.update(t.chapter.id, { title: 'My title' });
    await t.engine.sync(); // the server is busy: the edit stays unsent
    expect(await db.outbox.count()).toBe(1);
    await t.poke({ seq: 9, changes: { chapters: [{ ...t.chapter, rev: 9, status: 'completed' }] } });
    const local = (await db.chapters.get(t.chapter.id))!;
    expect(local.title).toBe('My title');
    expect(local.status).toBe('completed');
    expect((await db.shadows.get(['chapters', t.chapter.id]))?.rev).toBe(9);
    t.engine.stop();
  });

  it('writes the rows of a poke that came during a pull after that pull, never under it', async () => {
    let release: (() => void) | null = null;
    let older: Chapter | null = null;
    const t = await leader(async () => {
      if (older === null) return { status: 200, body: page({}, 7) };
      await new Promise<void>((resolve) => (release = resolve));
      return { status: 200, body: page({ chapters: [older] }, 8) };
    });
    older = { ...t.chapter, rev: 8, content: 'Read by the pull before the save.' };
    const pulling = t.engine.pull();
    await vi.waitFor(() => expect(release).not.toBeNull());
    const newer: Chapter = { ...t.chapter, rev: 9, content: 'Saved after the pull read.' };
    t.events.length = 0;
    const carrying = t.poke({ seq: 9, changes: { chapters: [newer] } });
    await new Promise((r) => setTimeout(r, 20));
    release!();
    await pulling;
    await carrying;
    expect((await db.chapters.get(t.chapter.id))!.content).toBe('Saved after the pull read.');
    expect(carried(t.events)).toEqual([{ type: 'carried', seq: 9, rows: 1 }]);
    t.engine.stop();
  });

  it('pulls instead when a poke carries what only the feed may bring', async () => {
    const t = await leader();
    const gets = t.gets();
    await t.poke({ seq: 9, changes: { users: [{ id: 'u', rev: 9 }] } });
    await t.poke({ seq: 10, changes: { series: [{ ...t.series, rev: 10 }] } });
    await t.poke({ seq: 11, changes: { chapters: [{ id: 'no rev' }] } });
    expect(t.gets()).toBe(gets + 3);
    expect(carried(t.events)).toEqual([]);
    t.engine.stop();
  });
});

describe('when the live channel connects', () => {
  it("waits for the host's policy to let it; a stop before then aborts the wait and opens nothing", async () => {
    db = freshDb();
    await db.open();
    const fetch = scriptedFetch(() => ({ status: 200, body: page({}, 0) }));
    const opened: string[] = [];
    const start = (liveChannel?: LiveChannelPolicy) =>
      createSyncEngine({
        db,
        fetch,
        baseUrl: 'http://test.local',
        locks: null,
        eventSource: (url) => {
          opened.push(url);
          return { addEventListener: () => undefined, close: () => undefined, onerror: null, readyState: 1 };
        },
        liveChannel,
        status: createSyncStatusStore(),
        platform: { window: null, document: null },
        timers: NO_TIMERS,
      });
    /** A policy the test opens by hand: the last wait's resolve and signal. */
    let open: (() => void) | null = null;
    let signal: AbortSignal | null = null;
    const byHand: LiveChannelPolicy = {
      openWhen: (given) =>
        new Promise<void>((resolve) => {
          open = resolve;
          signal = given;
        }),
    };

    const engine = start(byHand);
    engine.start();
    await vi.waitFor(() => expect(open).not.toBeNull());
    await engine.sync();
    // The first pull went out; the stream did not.
    expect(fetch.calls.some((call) => call.path.startsWith('/api/sync/changes'))).toBe(true);
    expect(opened).toEqual([]);
    open!();
    await vi.waitFor(() => expect(opened).toEqual(['http://test.local/api/sync/events']));
    expect(signal!.aborted).toBe(false);
    engine.stop();

    open = null;
    const stopped = start(byHand);
    stopped.start();
    await vi.waitFor(() => expect(open).not.toBeNull());
    stopped.stop();
    expect(signal!.aborted).toBe(true);
    open!(); // too late: the engine stopped
    await Promise.resolve();
    expect(opened).toHaveLength(1);

    // A policy that lets it at once (a screen already listens for live events): opened at start.
    const atOnce = start({ openWhen: () => Promise.resolve() });
    atOnce.start();
    await vi.waitFor(() => expect(opened).toHaveLength(2));
    atOnce.stop();

    // A policy that fails delays the channel, never keeps it shut.
    const failing = start({ openWhen: () => Promise.reject(new Error('no timers here')) });
    failing.start();
    await vi.waitFor(() => expect(opened).toHaveLength(3));
    failing.stop();

    // Without a policy: at once.
    const plain = start();
    plain.start();
    await vi.waitFor(() => expect(opened).toHaveLength(4));
    plain.stop();
  });
});
