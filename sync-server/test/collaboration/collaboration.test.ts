/**
 * Collaboration routes over real SQLite and HTTP: the spec's calls and messages, the plan gate, the
 * invite lifecycle (refresh, expiry 410, single-use link), members and roles, the activity record,
 * and what membership changes do to the changes feed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INVITE_MESSAGES, INVITE_TTL_DAYS, MESSAGES, ROLE_MESSAGES } from '@chronicler/schema';
import { type SignedIn, type TestApp, createTestApp, json, signUp, uniqueUsername } from '../support/helpers.ts';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => t.close());

async function call(who: SignedIn | null, method: string, url: string, payload?: unknown) {
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers: who ? (payload === undefined ? { cookie: who.cookie } : who.headers) : payload === undefined ? {} : { 'content-type': 'application/json' },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
  return { status: res.statusCode, body: res.body ? json(res) : null };
}

const person = (plan: 'apprentice' | 'loremaster' = 'apprentice') => {
  const username = uniqueUsername('collab');
  return signUp(t.app, { username, email: `${username}@example.com`, displayName: `Name ${username}`, plan });
};

async function sharedSeries(owner: SignedIn) {
  const res = await call(owner, 'POST', '/api/collaboration/series', { name: 'The Shared Saga', description: 'A series written together.' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; role: string; memberCount: number; name: string; isPublic: boolean };
}

async function invite(owner: SignedIn, seriesId: string, who: SignedIn, role = 'editor') {
  const res = await call(owner, 'POST', `/api/collaboration/series/${seriesId}/invites`, { inviteeEmail: who.user.email, role });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body as { id: string };
}

async function join(owner: SignedIn, seriesId: string, who: SignedIn, role = 'editor') {
  const sent = await invite(owner, seriesId, who, role);
  const res = await call(who, 'POST', `/api/collaboration/invites/${sent.id}/accept`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('collaborative series', () => {
  it('creates a series with the spec fields, listed with role and the real member count', async () => {
    const owner = await person('loremaster');
    const created = await sharedSeries(owner);
    expect(created).toMatchObject({ name: 'The Shared Saga', role: 'owner', memberCount: 0, isPublic: false, ownerId: owner.user.id, ownerName: owner.user.displayName });
    // It is a series like any other: the series routes see it.
    expect((await call(owner, 'GET', `/api/series/${created.id}`)).body).toMatchObject({ title: 'The Shared Saga' });
    const editor = await person();
    await join(owner, created.id, editor);
    const [listed] = (await call(owner, 'GET', '/api/collaboration/series')).body;
    expect(listed).toMatchObject({ id: created.id, memberCount: 1 });
    const [contributing] = (await call(editor, 'GET', '/api/collaboration/series')).body;
    expect(contributing).toMatchObject({ id: created.id, role: 'editor', ownerName: owner.user.displayName });
  });

  it("answers the spec's validation messages", async () => {
    const owner = await person('loremaster');
    const short = await call(owner, 'POST', '/api/collaboration/series', { name: 'ab', description: 'long enough words' });
    expect(short.status).toBe(422);
    expect(short.body.message).toBe(MESSAGES.collaboration.nameMin);
    const terse = await call(owner, 'POST', '/api/collaboration/series', { name: 'Fine name', description: 'short' });
    expect(terse.body.message).toBe(MESSAGES.collaboration.descriptionMin);
    const series = await sharedSeries(owner);
    const badEmail = await call(owner, 'POST', `/api/collaboration/series/${series.id}/invites`, { inviteeEmail: 'not-an-email', role: 'editor' });
    expect(badEmail.status).toBe(422);
    expect(badEmail.body.message).toBe(MESSAGES.collaboration.invalidEmail);
    const badRole = await call(owner, 'POST', `/api/collaboration/series/${series.id}/invites`, { inviteeEmail: 'x@example.com', role: 'owner' });
    expect(badRole.status).toBe(422);
    expect(badRole.body.message).toBe(MESSAGES.collaboration.roleRequired);
  });

  it('needs the collaboration feature (Loremaster) to create and invite; members need no plan', async () => {
    const apprentice = await person('apprentice');
    const locked = await call(apprentice, 'POST', '/api/collaboration/series', { name: 'My own saga', description: 'Not allowed here yet.' });
    expect(locked.status).toBe(403);
    expect(locked.body.code).toBe('FEATURE_LOCKED');
    expect(locked.body.message).toContain('Loremaster');
    // A plain series of the apprentice cannot be shared either.
    const plain = await call(apprentice, 'POST', '/api/series', { title: 'Plain' });
    const friend = await person();
    const refused = await call(apprentice, 'POST', `/api/collaboration/series/${plain.body.id}/invites`, { inviteeEmail: friend.user.email, role: 'viewer' });
    expect(refused.status).toBe(403);
    // An apprentice editor of a Loremaster's series writes under the owner's plan.
    const owner = await person('loremaster');
    const series = await sharedSeries(owner);
    await join(owner, series.id, apprentice, 'editor');
    const book = await call(apprentice, 'POST', '/api/books', { seriesId: series.id, title: 'Written by the apprentice' });
    expect(book.status).toBe(201);
  });

  it("counts toward the owner's series limit: a transfer needs room in the new owner's plan", async () => {
    const owner = await person('loremaster');
    const series = await sharedSeries(owner);
    const apprentice = await person('apprentice');
    await call(apprentice, 'POST', '/api/series', { title: 'The one an apprentice may own' });
    await join(owner, series.id, apprentice, 'editor');
    const full = await call(owner, 'POST', `/api/collaboration/series/${series.id}/transfer`, { userId: apprentice.user.id });
    expect(full.status).toBe(403);
    expect(full.body.code).toBe('PLAN_LIMIT');
  });
});

describe('invites', () => {
  it('lists pending invites to the e-mail, accepts with membership, and declines', async () => {
    const owner = await person('loremaster');
    const series = await sharedSeries(owner);
    const invitee = await person();
    const sent = await call(owner, 'POST', `/api/collaboration/series/${series.id}/invites`, { inviteeEmail: invitee.user.email!.toUpperCase(), role: 'viewer', message: 'Come read' });
    expect(sent.status).toBe(201);
    const expires = Date.parse(sent.body.expiresAt) - Date.now();
    expect(Math.round(expires / 86_400_000)).toBe(INVITE_TTL_DAYS);

    const pending = (await call(invitee, 'GET', '/api/collaboration/pending-invites')).body;
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ collaborativeSeriesId: series.id, role: 'viewer', message: 'Come read', seriesName: 'The Shared Saga', inviterName: owner.user.displayName });
    // Nobody else sees it or may answer it.
    const stranger = await person();
    expect((await call(stranger, 'GET', '/api/collaboration/pending-invites')).body).toEqual([]);
    expect((await call(stranger, 'POST', `/api/collaboration/invites/${sent.body.id}/accept`)).status).toBe(404);
    expect((await call(owner, 'POST', `/api/collaboration/invites/${sent.body.id}/accept`)).status).toBe(404);

    const accepted = await call(invitee, 'POST', `/api/collaboration/invites/${sent.body.id}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body.series).toMatchObject({ id: series.id, role: 'viewer' });
    expect((await call(invitee, 'GET', '/api/collaboration/pending-invites')).body).toEqual([]);
    expect((await call(invitee, 'GET', `/api/series/${series.id}`)).status).toBe(200);
    expect((await call(invitee, 'POST', `/api/collaboration/invites/${sent.body.id}/decline`)).status).toBe(409);

    const other = await person();
    const second = await invite(owner, series.id, other);
    expect((await call(other, 'POST', `/api/collaboration/invites/${second.id}/decline`)).status).toBe(200);
    expect((await call(other, 'GET', `/api/series/${series.id}`)).status).toBe(404);
  });

  it('a second invite to the same address refreshes the first', async () => {
    const owner = await person('loremaster');
    const series = await sharedSeries(owner);
    const invitee = await person();
    const first = await invite(owner, series.id, invitee, 'viewer');
    const again = await call(owner, 'POST', `/api/collaboration/series/${series.id}/invites`, { inviteeEmail: invitee.user.email, role: 'admin' });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.id);
    const pending = (await call(invitee, 'GET', '/api/collaboration/pending-invites')).body;
    expect(pending).toHaveLength(1);
    expect(pending[0].role).toBe('admin');
  });

  it('an expired invite is not listed and answers a clear 410', async () => {
    const owner = await person('loremaster');
    const series = await sharedSeries(owner);
    const invitee = await person();
    const sent = await invite(owner, series.id, invitee);
    await t.app.deps.database.db.updateTable('collaborationInvites').set({ expiresAt: new Date(Date.now() - 1000).toISOString() }).where('id', '=', sent.id).execute();
    expect((await call(invitee, 'GET', '/api/collaboration/pending-invites')).body).toEqual([]);
    for (const action of ['accept', 'decline']) {
      const res = await call(invitee, 'POST', `/api/collaboration/invites/${sent.id}/${action}`);
      expect(res.status).toBe(410);
      expect(res.body).toEqual({ message: INVITE_MESSAGES.expired, code: 'GONE' });
    }
    expect((await call(invitee, 'GET', `/api/series/${series.id}`)).status).toBe(404);
  });

  it('refuses to invite someone already in the series', async () => {
    const owner = await person('loremaster');
    const series = await sharedSeries(owner);
    const self = await call(owner, 'POST', `/api/collaboration/series/${series.id}/invites`, { inviteeEmail: owner.user.email, role: 'viewer' });
    expect(self.status).toBe(409);
    expect(self.body.message).toBe(ROLE_MESSAGES.inviteSelf);
    const member = await person();
    await join(owner, series.id, member);
    const twice = await call(owner, 'POST', `/api/collaboration/series/${series.id}/invites`, { inviteeEmail: member.user.email, role: 'viewer' });
    expect(twice.body.message).toBe(ROLE_MESSAGES.alreadyMember);
  });

  it('a single-use link lets an author with another e-mail join once; revoked invites cannot be used', async () => {
    const owner = await person('loremaster');
    const series = await sharedSeries(owner);
    const link = await call(owner, 'POST', `/api/collaboration/series/${series.id}/invite-links`, { role: 'editor' });
    expect(link.status).toBe(201);
    const noEmail = await signUp(t.app);
    const used = await call(noEmail, 'POST', '/api/collaboration/invite-links/accept', { token: link.body.token });
    expect(used.status).toBe(200);
    expect(used.body.series).toMatchObject({ id: series.id, role: 'editor' });
    const late = await signUp(t.app);
    const spent = await call(late, 'POST', '/api/collaboration/invite-links/accept', { token: link.body.token });
    expect(spent.status).toBe(410);
    expect(spent.body.message).toBe(INVITE_MESSAGES.linkUsed);
    expect((await call(late, 'POST', '/api/collaboration/invite-links/accept', { token: 'made-up' })).status).toBe(404);

    const invitee = await person();
    const sent = await invite(owner, series.id, invitee);
    expect((await call(noEmail, 'DELETE', `/api/collaboration/invites/${sent.id}`)).status).toBe(403);
    expect((await call(owner, 'DELETE', `/api/collaboration/invites/${sent.id}`)).status).toBe(200);
    expect((await call(invitee, 'GET', '/api/collaboration/pending-invites')).body).toEqual([]);
    expect((await call(invitee, 'POST', `/api/collaboration/invites/${sent.id}/accept`)).status).toBe(409);
  });
});

describe('members and roles', () => {
  it('enforces roles on story writes with a clear 403, and role changes take effect at once', async () => {
    const owner = await person('loremaster');
    const series = await sharedSeries(owner);
    const book = (await call(owner, 'POST', '/api/books', { seriesId: series.id, title: 'Book one' })).body;
    const viewer = await person();
    await join(owner, series.id, viewer, 'viewer');
    expect((await call(viewer, 'GET', `/api/books/${book.id}`)).status).toBe(200);
    const refused = await call(viewer, 'PUT', `/api/books/${book.id}`, { title: 'Vandalised' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: ROLE_MESSAGES.tooLow, code: 'FORBIDDEN' });
    expect((await call(viewer, 'POST', `/api/collaboration/series/${series.id}/invites`, { inviteeEmail: 'a@example.com' })).status).toBe(403);

    const promoted = await call(owner, 'PUT', `/api/collaboration/series/${series.id}/members/${viewer.user.id}`, { role: 'editor' });
    expect(promoted.status).toBe(200);
    expect((await call(viewer, 'PUT', `/api/books/${book.id}`, { title: 'Improved' })).status).toBe(200);
    expect((await call(viewer, 'DELETE', `/api/series/${series.id}`)).body.message).toBe(ROLE_MESSAGES.ownerOnly);
  });

  it('admins manage editors and viewers but not admins or the owner; members leave; the owner cannot', async () => {
    const owner = await person('loremaster');
    const series = await sharedSeries(owner);
    const [admin, admin2, editor] = [await person(), await person(), await person()];
    await join(owner, series.id, admin, 'admin');
    await join(owner, series.id, admin2, 'admin');
    await join(admin, series.id, editor, 'editor');
    const members = (await call(editor, 'GET', `/api/collaboration/series/${series.id}/members`)).body;
    expect(members.members.map((m: { role: string }) => m.role)).toEqual(['owner', 'admin', 'admin', 'editor']);
    expect(members.invites).toEqual([]);

    expect((await call(admin, 'PUT', `/api/collaboration/series/${series.id}/members/${admin2.user.id}`, { role: 'viewer' })).body.message).toBe(
      ROLE_MESSAGES.adminCannotManageAdmin,
    );
    expect((await call(admin, 'PUT', `/api/collaboration/series/${series.id}/members/${editor.user.id}`, { role: 'admin' })).status).toBe(403);
    expect((await call(admin, 'DELETE', `/api/collaboration/series/${series.id}/members/${owner.user.id}`)).status).toBe(403);
    expect((await call(admin, 'DELETE', `/api/collaboration/series/${series.id}/members/${editor.user.id}`)).status).toBe(200);
    expect((await call(editor, 'GET', `/api/series/${series.id}`)).status).toBe(404);
    expect((await call(admin, 'DELETE', `/api/collaboration/series/${series.id}/members/${editor.user.id}`)).status).toBe(404);

    expect((await call(admin2, 'POST', `/api/collaboration/series/${series.id}/leave`)).status).toBe(200);
    expect((await call(admin2, 'GET', '/api/collaboration/series')).body).toEqual([]);
    const stay = await call(owner, 'POST', `/api/collaboration/series/${series.id}/leave`);
    expect(stay.status).toBe(403);
    expect(stay.body.message).toBe(ROLE_MESSAGES.ownerCannotLeave);
  });

  it('the owner transfers the series to a member and stays as an admin', async () => {
    const owner = await person('loremaster');
    const series = await sharedSeries(owner);
    const heir = await person('loremaster');
    await join(owner, series.id, heir, 'editor');
    const res = await call(owner, 'POST', `/api/collaboration/series/${series.id}/transfer`, { userId: heir.user.id });
    expect(res.status).toBe(200);
    expect(res.body.members.map((m: { userId: string; role: string }) => [m.userId, m.role])).toEqual([
      [heir.user.id, 'owner'],
      [owner.user.id, 'admin'],
    ]);
    expect((await call(owner, 'DELETE', `/api/series/${series.id}`)).status).toBe(403);
  });

  it('keeps an activity record: who did what, with content changes credited to their writer', async () => {
    const owner = await person('loremaster');
    const series = await sharedSeries(owner);
    const editor = await person();
    await join(owner, series.id, editor, 'editor');
    await call(editor, 'POST', '/api/books', { seriesId: series.id, title: 'The Editor Book' });
    const activity = (await call(owner, 'GET', `/api/collaboration/series/${series.id}/activity`)).body as Array<{ action: string; userName: string; detail: Record<string, string> }>;
    expect(activity[0]).toMatchObject({ action: 'content.changed', userName: editor.user.displayName, detail: { title: 'The Editor Book', verb: 'added the book' } });
    expect(activity.map((a) => a.action)).toEqual(['content.changed', 'member.joined', 'member.invited', 'series.created']);
    const outsider = await person();
    expect((await call(outsider, 'GET', `/api/collaboration/series/${series.id}/activity`)).status).toBe(404);
  });
});

describe('the changes feed follows membership', () => {
  async function feed(who: SignedIn, since: number) {
    return (await call(who, 'GET', `/api/sync/changes?since=${since}`)).body as {
      changes: Record<string, Array<{ id: string }>>;
      scopeAdded: string[];
      scopeRemoved: string[];
      cursor: number;
    };
  }

  it('joining brings the whole series; a role change resends it; removal revokes it', async () => {
    const owner = await person('loremaster');
    const series = await sharedSeries(owner);
    const book = (await call(owner, 'POST', '/api/books', { seriesId: series.id, title: 'Book one' })).body;
    const member = await person();
    const before = await feed(member, 0);
    await join(owner, series.id, member, 'viewer');
    const joined = await feed(member, before.cursor);
    expect(joined.scopeAdded).toEqual([series.id]);
    expect(joined.changes.books!.map((b) => b.id)).toEqual([book.id]);
    await call(owner, 'PUT', `/api/collaboration/series/${series.id}/members/${member.user.id}`, { role: 'editor' });
    const changed = await feed(member, joined.cursor);
    expect(changed.scopeAdded).toEqual([series.id]);
    await call(owner, 'DELETE', `/api/collaboration/series/${series.id}/members/${member.user.id}`);
    const removed = await feed(member, changed.cursor);
    expect(removed.scopeRemoved).toEqual([series.id]);
    expect(removed.changes.books).toEqual([]);
  });
});

describe('presence in a chapter', () => {
  it('says who else is in the chapter, forgets who left, and tells outsiders nothing', async () => {
    const owner = await person('loremaster');
    const series = await sharedSeries(owner);
    const book = (await call(owner, 'POST', '/api/books', { seriesId: series.id, title: 'Book one' })).body;
    const chapter = (await call(owner, 'POST', '/api/chapters', { bookId: book.id, title: 'Together' })).body;
    const viewer = await person();
    await join(owner, series.id, viewer, 'viewer');
    const url = `/api/collaboration/chapters/${chapter.id}/presence`;
    expect((await call(owner, 'POST', url)).body).toEqual({ present: [] });
    expect((await call(viewer, 'POST', url)).body).toEqual({ present: [{ userId: owner.user.id, displayName: owner.user.displayName }] });
    expect((await call(owner, 'POST', url)).body.present.map((p: { userId: string }) => p.userId)).toEqual([viewer.user.id]);
    await call(viewer, 'DELETE', url);
    expect((await call(owner, 'POST', url)).body).toEqual({ present: [] });
    const outsider = await person();
    expect((await call(outsider, 'POST', url)).status).toBe(404);
  });
});

describe('writing statistics in a shared series', () => {
  it('credit each member with the words they wrote, not the series owner', async () => {
    const owner = await person('loremaster');
    const series = await sharedSeries(owner);
    const book = (await call(owner, 'POST', '/api/books', { seriesId: series.id, title: 'Book one' })).body;
    const chapter = (await call(owner, 'POST', '/api/chapters', { bookId: book.id, title: 'Together' })).body;
    const editor = await person();
    await join(owner, series.id, editor);
    const editedAt = new Date().toISOString();
    const save = async (who: SignedIn, content: string) => {
      const res = await call(who, 'PUT', `/api/chapters/${chapter.id}`, { content, writing: { editedAt } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    await save(owner, 'The ship left at dawn.');
    await save(editor, 'The ship left at dawn. Nobody waved from the quay that morning.');
    await save(owner, 'The ship left at dawn. Nobody waved from the quay that morning. The gulls did.');
    const written = async (who: SignedIn) =>
      ((await call(who, 'GET', '/api/writing-stats?period=day')).body as { wordsWritten: number }[]).reduce((sum, day) => sum + day.wordsWritten, 0);
    expect(await written(owner)).toBe(5 + 3);
    expect(await written(editor)).toBe(7);
  });
});
