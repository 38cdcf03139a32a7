/**
 * What collaboration pushes on the sync stream over a real listening socket: presence in
 * a chapter (entering, leaving, a closed stream) and an invitee's pending invites (sent, revoked).
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { type SignedIn, type TestApp, createTestApp } from '../support/helpers.ts';
import { type EventStream, openEvents } from '../support/event-stream.ts';
import { call, nextNamed, person, presenceOf, sharedChapter } from '../support/live-collaboration.ts';

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
