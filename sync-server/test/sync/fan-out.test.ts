/**
 * The live fan-out costs the writer nothing (docs/sync-protocol.md#live-channel): a commit is
 * serialised once whatever the number of streams, commits arriving while the fan-out is busy are
 * told together, and a stream that stops reading is dropped instead of buffered without bound.
 */
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { seedMembership } from '../support/sync-seed.ts';
import { type EventStream, openEvents } from '../support/event-stream.ts';
import { ChangeHub, type CommitNotice } from '../../src/sync/hub.ts';
import { streamStats } from '../../src/sync/events.ts';

let t: TestApp | undefined;
const streams: EventStream[] = [];
afterEach(async () => {
  for (const s of streams.splice(0)) s.close();
  await t?.close();
  t = undefined;
});

async function sharedChapter(app: FastifyInstance, members: number) {
  const owner = await signUp(app, { plan: 'legendary' });
  const series = json(await app.inject({ method: 'POST', url: '/api/series', headers: owner.headers, payload: { title: 'Shared' } }));
  const book = json(await app.inject({ method: 'POST', url: '/api/books', headers: owner.headers, payload: { seriesId: series.id, title: 'One' } }));
  const chapter = json(
    await app.inject({ method: 'POST', url: '/api/chapters', headers: owner.headers, payload: { bookId: book.id, title: 'One', content: 'Once.' } }),
  );
  const joined = [];
  for (let i = 0; i < members; i++) {
    const member = await signUp(app);
    await seedMembership(app, series.id, member.user.id, true);
    joined.push(member);
  }
  await app.deps.hub.idle();
  return { owner, chapterId: chapter.id as string, members: joined };
}

describe('one serialisation per commit', () => {
  it('a save heard by 20 streams of 10 members makes one rows frame and one plain poke, and every member gets the same rows', async () => {
    t = await createTestApp();
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { owner, chapterId, members } = await sharedChapter(t.app, 10);
    for (const member of members) {
      for (let i = 0; i < 2; i++) {
        const stream = await openEvents(base, member.cookie);
        streams.push(stream);
        expect((await stream.next()).event).toBe('hello');
      }
    }
    const before = t.app.deps.hub.framesMade;
    const save = await t.app.inject({ method: 'PUT', url: `/api/chapters/${chapterId}`, headers: owner.headers, payload: { content: 'Once upon a time.' } });
    expect(save.statusCode, save.body).toBe(200);
    const heard = await Promise.all(streams.map((s) => s.next()));
    await t.app.deps.hub.idle();
    expect(t.app.deps.hub.framesMade - before).toBe(2);
    const first = heard[0]!.data;
    expect(JSON.parse(first).changes.chapters[0]).toMatchObject({ id: chapterId, content: 'Once upon a time.' });
    for (const event of heard) expect(event.data).toBe(first);
  });
});

describe('coalescing', () => {
  it('commits published while the fan-out is busy are told as one plain poke per author, at the highest seq', async () => {
    const hub = new ChangeHub();
    let release: () => void = () => undefined;
    const firstAudienceRead = new Promise<void>((resolve) => (release = resolve));
    let reads = 0;
    hub.setAudience(async () => {
      reads += 1;
      if (reads === 1) await firstAudienceRead;
      return ['reader'];
    });
    const heard: Array<{ seq: number; frame: string }> = [];
    hub.subscribeAuthor('reader', (notice: CommitNotice, _rows, frame) => heard.push({ seq: notice.seq, frame: frame.toString() }));
    hub.publish({ seq: 1, seriesIds: new Set(['s']) });
    // The writer never waits on the fan-out: publishing returns while the first is still being told.
    for (let seq = 2; seq <= 6; seq++) hub.publish({ seq, seriesIds: new Set(['s']) });
    release();
    await hub.idle();
    expect(heard).toEqual([
      { seq: 1, frame: 'data: {"seq":1}\n\n' },
      { seq: 6, frame: 'data: {"seq":6}\n\n' },
    ]);
    expect(hub.framesMade).toBe(2);
  });
});

describe('back-pressure', () => {
  it('a stream that stops reading is dropped once it falls behind, and the writer never waits for it', async () => {
    t = await createTestApp();
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { owner, chapterId, members } = await sharedChapter(t.app, 1);
    const member = members[0]!;
    // A reader that takes the hello and then never reads again (a frozen tab, a sleeping laptop).
    const { port } = new URL(base);
    const stalled = net.connect(Number(port), '127.0.0.1');
    stalled.on('error', () => undefined);
    await new Promise((resolve) => stalled.once('connect', resolve));
    stalled.write(`GET /api/sync/events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${member.cookie}\r\n\r\n`);
    await new Promise((resolve) => stalled.once('data', resolve));
    stalled.pause();
    expect(t.app.deps.hub.countOf(member.user.id)).toBe(1);

    const droppedBefore = streamStats.dropped;
    // Saves of ~150 KB each: every one carries its rows to the member's stream until it is dropped.
    let saves = 0;
    while (t.app.deps.hub.countOf(member.user.id) > 0 && saves < 120) {
      const content = `${'word '.repeat(30_000)}${saves}`;
      const started = performance.now();
      const save = await t.app.inject({ method: 'PUT', url: `/api/chapters/${chapterId}`, headers: owner.headers, payload: { content } });
      expect(save.statusCode).toBe(200);
      // The save's answer never waits on a full socket.
      expect(performance.now() - started).toBeLessThan(5_000);
      await t.app.deps.hub.idle();
      saves += 1;
    }
    expect(t.app.deps.hub.countOf(member.user.id)).toBe(0);
    expect(streamStats.dropped).toBe(droppedBefore + 1);
    stalled.destroy();

    // The member reconnects and is told the current seq (their app then pulls what it missed).
    const again = await openEvents(base, member.cookie);
    streams.push(again);
    const hello = await again.next();
    expect(hello.event).toBe('hello');
  });
});
