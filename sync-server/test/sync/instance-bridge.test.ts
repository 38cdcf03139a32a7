/**
 * Live across instances on PostgreSQL (src/sync/instance-bridge.ts, db/postgres/notify.ts): a
 * commit on one instance pokes the streams another instance holds, named events cross too, and
 * after the listener's connection is cut the instance reconnects and pokes its streams to pull.
 * Presence crosses too: each instance keeps the whole board. SQLite runs one process: nothing to
 * cross there.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestAppPair, json, onPostgres, signUp } from '../support/helpers.ts';
import { type EventStream, type ServerSentEvent, openEvents } from '../support/event-stream.ts';
import { call, nextNamed, presenceOf, sharedChapter } from '../support/live-collaboration.ts';

let pair: Awaited<ReturnType<typeof createTestAppPair>> | undefined;
const streams: EventStream[] = [];
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  await pair?.close();
  pair = undefined;
});

const seqOf = (e: ServerSentEvent) => (JSON.parse(e.data) as { seq: number }).seq;

async function createSeries(app: FastifyInstance, headers: Record<string, string>, title: string): Promise<{ id: string; rev: number }> {
  const res = await app.inject({ method: 'POST', url: '/api/series', headers, payload: { title } });
  expect(res.statusCode, res.body).toBe(201);
  return json(res);
}

async function streamOn(app: FastifyInstance, cookie: string): Promise<EventStream> {
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const stream = await openEvents(base, cookie);
  streams.push(stream);
  expect((await stream.next()).event).toBe('hello');
  return stream;
}

describe.skipIf(!onPostgres)('two instances on one PostgreSQL database', () => {
  it('a commit on one instance pokes a stream held by the other', async () => {
    pair = await createTestAppPair();
    const [a, b] = pair.apps;
    const alice = await signUp(a, { plan: 'legendary' });
    const series = await createSeries(a, alice.headers, 'Saga');
    const stream = await streamOn(b, alice.cookie);
    const edit = await a.inject({ method: 'PUT', url: `/api/series/${series.id}`, headers: alice.headers, payload: { title: 'Renamed' } });
    expect(edit.statusCode).toBe(200);
    expect(seqOf(await stream.next(5000))).toBe(json(edit).rev);
  });

  it('carries named events (presence, invites) to the other instance', async () => {
    pair = await createTestAppPair();
    const [a, b] = pair.apps;
    const bob = await signUp(a, { plan: 'legendary' });
    const stream = await streamOn(b, bob.cookie);
    a.deps.hub.tell([bob.user.id], { event: 'invites', data: {} });
    const event = await stream.next(5000);
    expect(event).toEqual({ event: 'invites', data: '{}' });
  });

  it('after its listener was cut, an instance reconnects and pokes its streams to pull', async () => {
    pair = await createTestAppPair();
    const [a, b] = pair.apps;
    const alice = await signUp(a, { plan: 'legendary' });
    const series = await createSeries(a, alice.headers, 'Saga');
    const stream = await streamOn(b, alice.cookie);
    const dbName = new URL(b.deps.database.url!).pathname.slice(1);
    // Cut every instance's listener; the write made meanwhile is announced to nobody.
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'chronicler-listener' and datname = ${dbName}`.execute(a.deps.database.db);
    const edit = await a.inject({ method: 'PUT', url: `/api/series/${series.id}`, headers: alice.headers, payload: { title: 'While cut' } });
    expect(edit.statusCode).toBe(200);
    // The reconnect's poke carries the current seq: the app pulls the write it missed.
    expect(seqOf(await stream.next(10_000))).toBeGreaterThanOrEqual(json(edit).rev);
  });
});

describe.skipIf(!onPostgres)('presence on two instances of one PostgreSQL database', () => {
  it('an author whose heartbeats reach one instance is listed by the other, and their goodbye too', async () => {
    pair = await createTestAppPair();
    const [a, b] = pair.apps;
    const { owner, member, url, chapterId } = await sharedChapter(a);
    const ownerStream = await streamOn(a, owner.cookie);
    // The member's editor talks to instance B only; the owner's stream and requests go to A.
    await call(b, member, 'POST', url);
    const arrived = presenceOf(await nextNamed(ownerStream, 'presence', () => true, 5_000));
    expect(arrived).toEqual({ chapterId, present: [{ userId: member.user.id, displayName: member.user.displayName }] });
    // A's board knows B's visitor: the owner entering through A is told the member is there.
    await expect.poll(async () => (await call(a, owner, 'POST', url)).present, { timeout: 5_000 }).toEqual([{ userId: member.user.id, displayName: member.user.displayName }]);
    await call(b, member, 'DELETE', url);
    await expect.poll(async () => (await call(a, owner, 'POST', url)).present, { timeout: 5_000 }).toEqual([]);
  });
});
