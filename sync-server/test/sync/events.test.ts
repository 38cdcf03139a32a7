/**
 * GET /api/sync/events over a real listening socket: inject waits for the end of a response, and
 * an event stream does not end.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_PASSWORD, type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { MAX_STREAMS_PER_AUTHOR, MAX_STREAMS_PER_SESSION } from '../../src/sync/events.ts';
import { LIVE_ROWS_MAX_BYTES } from '../../src/sync/live-rows.ts';
import { seedMembership, seedSeries } from '../support/sync-seed.ts';
import { type EventStream, type ServerSentEvent, openEvents } from '../support/event-stream.ts';

let t: TestApp | undefined;
const streams: EventStream[] = [];
afterEach(async () => {
  for (const s of streams.splice(0)) s.close();
  await t?.close();
  t = undefined;
});

async function listening(): Promise<{ app: FastifyInstance; base: string }> {
  t = await createTestApp();
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { app: t.app, base };
}

async function connect(base: string, cookie: string): Promise<EventStream> {
  const stream = await openEvents(base, cookie);
  streams.push(stream);
  return stream;
}

async function createSeries(app: FastifyInstance, headers: Record<string, string>, title = 'Saga'): Promise<{ id: string; rev: number }> {
  const res = await app.inject({ method: 'POST', url: '/api/series', headers, payload: { title } });
  expect(res.statusCode, res.body).toBe(201);
  return json(res);
}

const seqOf = (e: ServerSentEvent) => (JSON.parse(e.data) as { seq: number }).seq;

describe('GET /api/sync/events', () => {
  it('needs a session', async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/api/sync/events' });
    expect(res.statusCode).toBe(401);
    expect(json(res).code).toBe('UNAUTHENTICATED');
  });

  it('says hello with the current seq, then pokes after writes in scope and never for others', async () => {
    const { app, base } = await listening();
    const alice = await signUp(app, { plan: 'legendary' });
    const bob = await signUp(app, { plan: 'legendary' });
    const before = await createSeries(app, alice.headers, 'Before');

    const stream = await connect(base, alice.cookie);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    const hello = await stream.next();
    expect(hello.event).toBe('hello');
    expect(seqOf(hello)).toBe(before.rev);

    // Bob's write comes first; the next event Alice sees is her own write's seq.
    await createSeries(app, bob.headers, 'Not yours');
    const edit = await app.inject({ method: 'PUT', url: `/api/series/${before.id}`, headers: alice.headers, payload: { title: 'Renamed' } });
    expect(edit.statusCode).toBe(200);
    const poke = await stream.next();
    expect(poke.event).toBe('message');
    expect(seqOf(poke)).toBe(json(edit).rev);

    // A series created after connecting is outside the cached scope: the notice refreshes it.
    const fresh = await createSeries(app, alice.headers, 'Fresh');
    expect(seqOf(await stream.next())).toBe(fresh.rev);

    await createSeries(app, bob.headers, 'Still not yours');
    await expect(stream.next(300)).rejects.toThrow('no event in time');
  });

  it('starts poking for a series the moment the caller joins it, on each of the caller\'s streams, and stops once the removal is told', async () => {
    const { app, base } = await listening();
    const owner = await signUp(app, { plan: 'legendary' });
    const guest = await signUp(app);
    const shared = await createSeries(app, owner.headers, 'Shared');
    const first = await connect(base, guest.cookie);
    const second = await connect(base, guest.cookie);
    await first.next();
    await second.next();

    const joinSeq = await seedMembership(app, shared.id, guest.user.id, true);
    expect(seqOf(await first.next())).toBe(joinSeq);
    expect(seqOf(await second.next())).toBe(joinSeq);
    const edit = await app.inject({ method: 'PUT', url: `/api/series/${shared.id}`, headers: owner.headers, payload: { description: 'now shared' } });
    expect(seqOf(await first.next())).toBe(json(edit).rev);
    expect(seqOf(await second.next())).toBe(json(edit).rev);

    // Removed: told once, by the removal's own commit (the app then drops the series), then no more.
    const leaveSeq = await seedMembership(app, shared.id, guest.user.id, false);
    expect(seqOf(await first.next())).toBe(leaveSeq);
    expect(seqOf(await second.next())).toBe(leaveSeq);
    await app.inject({ method: 'PUT', url: `/api/series/${shared.id}`, headers: owner.headers, payload: { description: 'private again' } });
    await expect(first.next(300)).rejects.toThrow('no event in time');
  });

  it('lets go of listeners when the client leaves, and does not hold app.close()', async () => {
    const { app, base } = await listening();
    const alice = await signUp(app);
    const leaving = await connect(base, alice.cookie);
    await leaving.next();
    const staying = await connect(base, alice.cookie);
    await staying.next();
    expect(app.deps.hub.countOf(alice.user.id)).toBe(2);
    leaving.close();
    for (let i = 0; i < 50 && app.deps.hub.countOf(alice.user.id) > 1; i++) await new Promise((r) => setTimeout(r, 20));
    expect(app.deps.hub.countOf(alice.user.id)).toBe(1);

    await seedSeries(app, alice.user.id);
    await staying.next();
    const started = Date.now();
    await t!.close();
    t = undefined;
    expect(Date.now() - started).toBeLessThan(2000);
    expect(app.deps.hub.size).toBe(0);
    await expect(staying.next(1000)).rejects.toThrow();
  });
});

describe('pokes that carry the rows of a commit', () => {
  interface Poke {
    seq: number;
    changes?: Record<string, Array<Record<string, unknown>>>;
  }
  const pokeOf = (e: ServerSentEvent) => JSON.parse(e.data) as Poke;

  it("hands a save's rows to the other members, and has the writer and scope changes pull", async () => {
    const { app, base } = await listening();
    const owner = await signUp(app, { plan: 'legendary' });
    const member = await signUp(app);
    const shared = await createSeries(app, owner.headers, 'Shared');
    const joinSeq = await seedMembership(app, shared.id, member.user.id, true);
    const memberStream = await connect(base, member.cookie);
    const ownerStream = await connect(base, owner.cookie);
    expect(seqOf(await memberStream.next())).toBe(joinSeq);
    await ownerStream.next();

    const book = await app.inject({ method: 'POST', url: '/api/books', headers: owner.headers, payload: { seriesId: shared.id, title: 'Book One' } });
    expect(book.statusCode, book.body).toBe(201);
    const bookPoke = pokeOf(await memberStream.next());
    expect(bookPoke.seq).toBe(json(book).rev);
    expect(bookPoke.changes).toEqual({ books: [json(book)] });
    // The writer's app pulls after the answer anyway: a plain poke, and no rows read for it.
    expect(pokeOf(await ownerStream.next())).toEqual({ seq: json(book).rev });

    const chapter = await app.inject({
      method: 'POST',
      url: '/api/chapters',
      headers: owner.headers,
      payload: { bookId: json(book).id, title: 'One', content: 'It was a dark and stormy night.' },
    });
    await memberStream.next();
    await ownerStream.next();
    const save = await app.inject({
      method: 'PUT',
      url: `/api/chapters/${json(chapter).id}`,
      headers: owner.headers,
      payload: { content: 'It was a dark and stormy night.\n\nThe rain fell in torrents.' },
    });
    expect(save.statusCode, save.body).toBe(200);
    const savePoke = pokeOf(await memberStream.next());
    expect(savePoke.seq).toBe(json(save).rev);
    expect(savePoke.changes?.chapters).toHaveLength(1);
    expect(savePoke.changes!.chapters![0]).toMatchObject({ id: json(chapter).id, rev: json(save).rev, content: 'It was a dark and stormy night.\n\nThe rain fell in torrents.' });
    // The writer pulls (their own statistics changed with the save too: only the feed sends those).
    expect(pokeOf(await ownerStream.next())).toEqual({ seq: json(save).rev });

    // A series row (its owner, its deletion) and a membership change the scope: both pull.
    const rename = await app.inject({ method: 'PUT', url: `/api/series/${shared.id}`, headers: owner.headers, payload: { title: 'Renamed' } });
    expect(pokeOf(await memberStream.next())).toEqual({ seq: json(rename).rev });
    const other = await signUp(app);
    const otherJoin = await seedMembership(app, shared.id, other.user.id, true);
    expect(pokeOf(await memberStream.next())).toEqual({ seq: otherJoin });
  });

  it('sends a commit too large for a poke as a plain one', async () => {
    const { app, base } = await listening();
    const owner = await signUp(app, { plan: 'legendary' });
    const member = await signUp(app);
    const shared = await createSeries(app, owner.headers, 'Long');
    const book = json(await app.inject({ method: 'POST', url: '/api/books', headers: owner.headers, payload: { seriesId: shared.id, title: 'Tome' } }));
    await seedMembership(app, shared.id, member.user.id, true);
    const stream = await connect(base, member.cookie);
    await stream.next();
    const huge = Array.from({ length: 6_000 }, (_, i) => `Paragraph ${i} goes on and on about the weather in the valley.`).join('\n\n');
    expect(huge.length).toBeGreaterThan(LIVE_ROWS_MAX_BYTES);
    const chapter = await app.inject({ method: 'POST', url: '/api/chapters', headers: owner.headers, payload: { bookId: book.id, title: 'Long', content: huge } });
    expect(chapter.statusCode, chapter.body).toBe(201);
    expect(pokeOf(await stream.next())).toEqual({ seq: json(chapter).rev });
  });
});

describe('stream caps and fan-out', () => {
  it(`caps streams at ${MAX_STREAMS_PER_SESSION} per session and ${MAX_STREAMS_PER_AUTHOR} per author`, async () => {
    const { app, base } = await listening();
    const author = await signUp(app);
    for (let i = 0; i < MAX_STREAMS_PER_SESSION; i++) expect((await connect(base, author.cookie)).status).toBe(200);
    const overSession = await connect(base, author.cookie);
    expect(overSession.status).toBe(429);
    // Other devices of the same author, up to the per-author cap.
    const cookies: string[] = [];
    while (cookies.length * MAX_STREAMS_PER_SESSION < MAX_STREAMS_PER_AUTHOR) {
      const res = await app.inject({ method: 'POST', url: '/api/login', payload: { username: author.user.username, password: TEST_PASSWORD } });
      cookies.push(`chronicler_session=${res.cookies.find((c) => c.name === 'chronicler_session')!.value}`);
    }
    let opened = MAX_STREAMS_PER_SESSION;
    const statuses: number[] = [];
    for (const cookie of cookies) {
      for (let i = 0; i < MAX_STREAMS_PER_SESSION; i++) {
        const stream = await connect(base, cookie);
        statuses.push(stream.status);
        if (stream.status === 200) opened += 1;
      }
    }
    expect(opened).toBe(MAX_STREAMS_PER_AUTHOR);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(app.deps.hub.countOf(author.user.id)).toBe(MAX_STREAMS_PER_AUTHOR);
    // A stream that ends frees its place.
    streams[0]!.close();
    for (let i = 0; i < 50 && app.deps.hub.countOf(author.user.id) >= MAX_STREAMS_PER_AUTHOR; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await connect(base, author.cookie)).status).toBe(200);
  });

  it("another author's write touches none of this author's streams", async () => {
    const { app, base } = await listening();
    const alice = await signUp(app, { plan: 'legendary' });
    const bob = await signUp(app, { plan: 'legendary' });
    const bobStreams = await Promise.all(Array.from({ length: 5 }, () => connect(base, bob.cookie)));
    for (const s of bobStreams) await s.next();
    const aliceStream = await connect(base, alice.cookie);
    await aliceStream.next();
    const heardByBob: number[] = [];
    app.deps.hub.subscribeAuthor(bob.user.id, (notice) => heardByBob.push(notice.seq));

    const saga = await createSeries(app, alice.headers, 'Alice only');
    expect(seqOf(await aliceStream.next())).toBe(saga.rev);
    // (A timed-out read drops its chunk: that stream is not read again.)
    await expect(bobStreams[4]!.next(300)).rejects.toThrow('no event in time');
    expect(heardByBob).toEqual([]);
    // Once Bob can see the series, he hears of it.
    const joinSeq = await seedMembership(app, saga.id, bob.user.id, true);
    for (const s of bobStreams.slice(0, 4)) expect(seqOf(await s.next())).toBe(joinSeq);
    expect(heardByBob).toEqual([joinSeq]);
  });
});
