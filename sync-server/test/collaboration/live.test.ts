/**
 * What collaboration pushes on the sync stream over a real listening socket: presence in
 * a chapter (entering, leaving, a closed stream) and an invitee's pending invites (sent, revoked).
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { PresenceEventData } from '@chronicler/schema';
import { type SignedIn, type TestApp, createTestApp, json, signUp, uniqueUsername } from '../support/helpers.ts';
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
  return { app: t.app, base: await t.app.listen({ port: 0, host: '127.0.0.1' }) };
}

/** A stream past its hello. */
async function connect(base: string, who: SignedIn): Promise<EventStream> {
  const stream = await openEvents(base, who.cookie);
  streams.push(stream);
  expect((await stream.next()).event).toBe('hello');
  return stream;
}

/** The next `event` on `stream` (that `matches`), skipping others; within a second. */
async function nextNamed(stream: EventStream, event: string, matches: (e: ServerSentEvent) => boolean = () => true): Promise<ServerSentEvent> {
  const deadline = Date.now() + 1_000;
  for (;;) {
    const e = await stream.next(Math.max(1, deadline - Date.now()));
    if (e.event === event && matches(e)) return e;
  }
}

const presenceOf = (e: ServerSentEvent) => JSON.parse(e.data) as PresenceEventData;

async function call(app: FastifyInstance, who: SignedIn, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) {
  const res = await app.inject({ method, url, headers: payload === undefined ? { cookie: who.cookie } : who.headers, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return json(res);
}

const person = (app: FastifyInstance, plan: 'apprentice' | 'loremaster' = 'apprentice') => {
  const username = uniqueUsername('live');
  return signUp(app, { username, email: `${username}@example.com`, displayName: `Name ${username}`, plan });
};

/** An owner's shared series with one chapter and a member of `role`. */
async function sharedChapter(app: FastifyInstance, role = 'editor') {
  const owner = await person(app, 'loremaster');
  const member = await person(app);
  const series = await call(app, owner, 'POST', '/api/collaboration/series', { name: 'Live Saga', description: 'Written together, live.' });
  const book = await call(app, owner, 'POST', '/api/books', { seriesId: series.id, title: 'One' });
  const chapter = await call(app, owner, 'POST', '/api/chapters', { bookId: book.id, title: 'Together' });
  const invite = await call(app, owner, 'POST', `/api/collaboration/series/${series.id}/invites`, { inviteeEmail: member.user.email, role });
  await call(app, member, 'POST', `/api/collaboration/invites/${invite.id}/accept`);
  return { owner, member, seriesId: series.id as string, url: `/api/collaboration/chapters/${chapter.id}/presence`, chapterId: chapter.id as string };
}

describe('presence on the sync stream', () => {
  it("pushes a member's arrival and departure to the others in the series, and nothing to outsiders", async () => {
    const { app, base } = await listening();
    const { owner, member, url, chapterId } = await sharedChapter(app, 'viewer');
    const outsider = await person(app);
    const ownerStream = await connect(base, owner);
    const memberStream = await connect(base, member);
    const outsiderStream = await connect(base, outsider);

    await call(app, owner, 'POST', url);
    expect(presenceOf(await nextNamed(memberStream, 'presence'))).toEqual({ chapterId, present: [{ userId: owner.user.id, displayName: owner.user.displayName }] });
    // The owner hears their own arrival, then the member's.
    expect(presenceOf(await nextNamed(ownerStream, 'presence')).present).toHaveLength(1);
    await call(app, member, 'POST', url);
    const both = presenceOf(await nextNamed(ownerStream, 'presence'));
    expect(both.present.map((p) => p.userId).sort()).toEqual([owner.user.id, member.user.id].sort());
    // A keep-alive is no news.
    await call(app, member, 'POST', url);
    await call(app, member, 'DELETE', url);
    expect(presenceOf(await nextNamed(ownerStream, 'presence')).present.map((p) => p.userId)).toEqual([owner.user.id]);
    await expect(nextNamed(outsiderStream, 'presence')).rejects.toThrow('no event in time');
  });

  it('drops an author from the chapter when their last stream closes', async () => {
    const { app, base } = await listening();
    const { owner, member, url, chapterId } = await sharedChapter(app);
    const ownerStream = await connect(base, owner);
    const memberTab = await connect(base, member);
    const memberOtherTab = await connect(base, member);
    await call(app, member, 'POST', url);
    expect(presenceOf(await nextNamed(ownerStream, 'presence')).present).toHaveLength(1);

    memberTab.close();
    await expect(nextNamed(ownerStream, 'presence')).rejects.toThrow('no event in time');
    memberOtherTab.close();
    expect(presenceOf(await nextNamed(ownerStream, 'presence'))).toEqual({ chapterId, present: [] });
    expect(await call(app, owner, 'POST', url)).toEqual({ present: [] });
  });
});

describe('invites on the sync stream', () => {
  it("tells the invitee's open app when an invite arrives, is sent again and is revoked", async () => {
    const { app, base } = await listening();
    const owner = await person(app, 'loremaster');
    const invitee = await person(app);
    const bystander = await person(app);
    const series = await call(app, owner, 'POST', '/api/collaboration/series', { name: 'Invited Saga', description: 'Written together, live.' });
    const inviteeStream = await connect(base, invitee);
    const bystanderStream = await connect(base, bystander);

    const sent = await call(app, owner, 'POST', `/api/collaboration/series/${series.id}/invites`, { inviteeEmail: invitee.user.email, role: 'editor' });
    await nextNamed(inviteeStream, 'invites');
    expect((await call(app, invitee, 'GET', '/api/collaboration/pending-invites')).map((i: { id: string }) => i.id)).toEqual([sent.id]);

    await call(app, owner, 'POST', `/api/collaboration/series/${series.id}/invites`, { inviteeEmail: invitee.user.email!.toUpperCase(), role: 'viewer' });
    await nextNamed(inviteeStream, 'invites');

    await call(app, owner, 'DELETE', `/api/collaboration/invites/${sent.id}`);
    await nextNamed(inviteeStream, 'invites');
    expect(await call(app, invitee, 'GET', '/api/collaboration/pending-invites')).toEqual([]);
    await expect(nextNamed(bystanderStream, 'invites')).rejects.toThrow('no event in time');
  });
});
