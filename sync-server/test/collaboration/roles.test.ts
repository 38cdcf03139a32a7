/**
 * The authorization matrix with member roles, over the REAL route table: every route
 * that names a series' rows × {anonymous, outsider, viewer, editor, admin, owner} × {own, shared,
 * foreign, unknown} ids. A is the owner of a series S with one of everything; V, E and D are its
 * viewer, editor and admin; B is an outsider with a series of their own.
 *
 * - anonymous → 401; foreign ids (B's, for the members of S; S's, for B) and unknown ids → 404;
 * - S's ids ("shared" for members, "own" for A) → 2xx when the role allows the route's level,
 *   else 403 FORBIDDEN with the role message, and nothing changed in the database;
 * - no answer to anyone carries anything of B's (B's answers nothing of A's).
 * Owners on their own ids in every route are test/authz-matrix.test.ts; here "own" is A on S.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { type AccessLevel, type SeriesRole, forbiddenMessageFor, roleAllows } from '@chronicler/schema';
import { type IdSource, describeAnswer, runCase } from '../support/cases.ts';
import { type Side, createSide, secretsOf } from '../support/fixtures.ts';
import { ROUTE_POLICY, type ProtectedPolicy } from '../support/policy.ts';
import { type RouteEntry, apiRoutes, buildAppWithRoutes, send } from '../support/routes.ts';
import { type SignedIn, signUp } from '../support/helpers.ts';
import { diffSnapshots, snapshotDatabase } from '../support/snapshot.ts';

const table = await buildAppWithRoutes();
const ROUTES = apiRoutes(table.routes);
await table.close();

/**
 * What a route asks of the caller's role in the series its ids name. `invitee`: only the invitee
 * (A's own pending invite). `member`: any member but the owner (leaving).
 */
type Need = AccessLevel | 'invitee' | 'member';

/** Routes that touch no series' rows by id: the author's own account, lists of their own, sync plumbing. */
const NOT_SERIES_SCOPED = new Set([
  'GET /api/user/sessions', 'DELETE /api/user/sessions/:id', 'POST /api/user/sessions/sign-out-others', 'POST /api/logout/everywhere',
  'POST /api/user/password', 'PUT /api/user/settings', 'GET /api/series', 'POST /api/series', 'GET /api/sync/changes', 'GET /api/sync/events', 'POST /api/sync/batch',
  'GET /api/collaboration/series', 'POST /api/collaboration/series', 'GET /api/collaboration/pending-invites',
  // A bearer token, not an id: tested in collaboration.test.ts.
  'POST /api/collaboration/invite-links/accept',
  // The author's own figures, plans, payments and backups: no series id; answers are the caller's own.
  'GET /api/writing-stats', 'GET /api/achievements', 'GET /api/user-achievements', 'POST /api/check-achievements',
  'GET /api/writing-settings', 'PUT /api/writing-settings', 'GET /api/writing-activity',
  'GET /api/subscription-plans', 'POST /api/subscriptions', 'POST /api/create-payment-intent', 'POST /api/billing/portal',
  'GET /api/billing/status', 'POST /api/gifts/redeem', 'GET /api/support-requests', 'POST /api/support-requests',
  'GET /api/backup', 'POST /api/backup/restore', 'GET /api/backups', 'POST /api/backups', 'GET /api/backups/:id', 'POST /api/backups/:id/restore',
  // The caller's own pictures against their plan (pictures by series are story paths below).
  'GET /api/media/usage',
  // The companion names its series or chapter in the query or body, not the path: membership is
  // checked there (test/ai/companion.test.ts, and the authorization matrix's attacks with another's ids).
  'GET /api/ai/allowance', 'GET /api/ai/suggestions', 'POST /api/ai/suggestion', 'POST /api/ai/analyze',
]);

const COLLABORATION_NEEDS: Record<string, Need> = {
  'GET /api/collaboration/series/:seriesId/members': 'read',
  'GET /api/collaboration/series/:seriesId/activity': 'read',
  'POST /api/collaboration/series/:seriesId/invites': 'manage',
  'POST /api/collaboration/series/:seriesId/invite-links': 'manage',
  'DELETE /api/collaboration/invites/:id': 'manage',
  'PUT /api/collaboration/series/:seriesId/members/:userId': 'manage',
  'DELETE /api/collaboration/series/:seriesId/members/:userId': 'manage',
  'POST /api/collaboration/invites/:id/accept': 'invitee',
  'POST /api/collaboration/invites/:id/decline': 'invitee',
  'POST /api/collaboration/series/:seriesId/leave': 'member',
  'POST /api/collaboration/series/:seriesId/transfer': 'own',
  'POST /api/collaboration/chapters/:id/presence': 'read',
  'DELETE /api/collaboration/chapters/:id/presence': 'read',
};

/** Paths of the routes that act on a series' rows (story structure, spec 001 §7). */
const STORY_PATHS = /^\/api\/(series|books|chapters|chapter-conflicts|characters|character-relationships|locations|timeline-events|canon-changes|world-entries)(\/|$)/;

/** The story routes' levels (pictures of a series, /api/series/:seriesId/media, among them): reads read, the series itself is managed and owned, everything else is content. */
function needOf(route: RouteEntry): Need | null {
  if (NOT_SERIES_SCOPED.has(route.key)) return null;
  if (route.key in COLLABORATION_NEEDS) return COLLABORATION_NEEDS[route.key]!;
  if (!STORY_PATHS.test(route.url)) return null;
  if (route.method === 'GET') return 'read';
  if (route.key === 'PUT /api/series/:id') return 'manage';
  if (route.key === 'DELETE /api/series/:id') return 'own';
  return 'edit';
}

function allowed(role: SeriesRole, need: Need): boolean {
  if (need === 'invitee') return role === 'owner';
  if (need === 'member') return role !== 'owner';
  return roleAllows(role, need);
}

const MEMBER_ROLES = ['viewer', 'editor', 'admin'] as const;
type Caller = { role: SeriesRole; who: SignedIn };

interface RoleWorld {
  app: FastifyInstance;
  a: Side;
  b: Side;
  members: Record<(typeof MEMBER_ROLES)[number], SignedIn>;
  close(): Promise<void>;
}

async function roleWorld(): Promise<RoleWorld> {
  const built = await buildAppWithRoutes();
  try {
    const app = built.app;
    const a = await createSide(app, 'owner');
    const b = await createSide(app, 'outsider');
    const members = {} as RoleWorld['members'];
    for (const role of MEMBER_ROLES) {
      const who = await signUp(app, { username: `${role}_${a.user.username}`.slice(0, 40), email: `${role}_${a.user.username}@example.com` });
      const sent = await send(app, { method: 'POST', url: `/api/collaboration/series/${a.ids.series}/invites`, headers: a.headers, payload: JSON.stringify({ inviteeEmail: who.user.email, role }) });
      const accepted = await send(app, { method: 'POST', url: `/api/collaboration/invites/${JSON.parse(sent.body).id}/accept`, headers: { cookie: who.cookie } });
      if (accepted.status !== 200) throw new Error(`fixture: ${role} could not join: ${accepted.status} ${accepted.body}`);
      members[role] = who;
    }
    return { app, a, b, members, close: built.close };
  } catch (error) {
    await built.close();
    throw error;
  }
}

const totals = { cases: 0, leaks: 0, forbiddenWrites: 0, routes: new Set<string>() };
afterAll(() => {
  console.log(`role matrix: ${totals.routes.size} routes, ${totals.cases} cases, ${totals.leaks} leaks, ${totals.forbiddenWrites} forbidden writes`);
});

/** A signed-in caller as a Side-shaped value for runCase (only cookie and ids are read). */
const asSide = (who: SignedIn, ids: Side['ids']): Side => ({ ...who, ids });

describe('route classification', () => {
  it('every protected route is either series-scoped with a level, or listed as not series-scoped', () => {
    const stale = [...NOT_SERIES_SCOPED, ...Object.keys(COLLABORATION_NEEDS)].filter((key) => !ROUTES.some((r) => r.key === key));
    expect(stale).toEqual([]);
    const unclassified = ROUTES.filter((r) => ROUTE_POLICY[r.key]?.access === 'protected' && needOf(r) === null && !NOT_SERIES_SCOPED.has(r.key));
    expect(unclassified).toEqual([]);
  });
});

describe('routes × roles', () => {
  for (const route of ROUTES) {
    const policy = ROUTE_POLICY[route.key];
    if (policy?.access !== 'protected') continue;
    const need = needOf(route);
    if (need === null) continue;
    it(`${route.key} (${need})`, async () => {
      let world = await roleWorld();
      try {
        // Leaving is tried on S itself (the main matrix leaves the side's shared series).
        const params: ProtectedPolicy['params'] = { ...policy.params };
        for (const [name, kind] of Object.entries(params)) if (kind === 'sharedSeries') params[name] = 'series';
        const casePolicy: ProtectedPolicy = { ...policy, params };
        const on = (source: IdSource) => Object.fromEntries(route.params.map((name) => [name, source]));
        const check = async (caller: Caller | null, source: IdSource, expected: 'ok' | number, label: string, w: RoleWorld = world) => {
          const side = caller ? asSide(caller.who, w.a.ids) : null;
          const hidden = await secretsOf(w.app, caller?.who.user.id === w.b.user.id ? w.a : w.b);
          const bodySide = source === 'unknown' ? w.a : source;
          const outcome = await runCase(w.app, { route, policy: casePolicy, caller: side, sources: on(source), bodySide, secrets: hidden, snapshot: expected !== 'ok' });
          totals.cases += 1;
          totals.routes.add(route.key);
          totals.leaks += outcome.leaked.length;
          if (expected !== 'ok') totals.forbiddenWrites += outcome.changedRows;
          const text = `${label}\n${describeAnswer(outcome)}`;
          expect(outcome.leaked, text).toEqual([]);
          if (expected === 'ok') {
            expect(outcome.answer.status, text).toBeGreaterThanOrEqual(200);
            expect(outcome.answer.status, text).toBeLessThan(300);
          } else {
            expect(outcome.answer.status, text).toBe(expected);
            expect(outcome.changes, `${text}\nthe database changed`).toEqual([]);
            if (expected === 403) expect(JSON.parse(outcome.answer.body).code, text).toBe('FORBIDDEN');
            if (expected === 403 && (need === 'edit' || need === 'manage' || need === 'own')) {
              expect(JSON.parse(outcome.answer.body).message, text).toBe(forbiddenMessageFor(need));
            }
          }
        };
        const { a, b } = world;
        const members: Caller[] = MEMBER_ROLES.map((role) => ({ role, who: world.members[role] }));
        const owner: Caller = { role: 'owner', who: a };

        await check(null, a, 401, 'anonymous on S');
        // The outsider on S's ids: 404, as for any id they have no part in.
        if (route.params.length > 0 || need !== 'read') await check({ role: 'viewer', who: b }, a, 404, 'outsider on S');
        if (route.params.length > 0) {
          for (const m of members) {
            await check(m, b, 404, `${m.role} on foreign ids`);
            await check(m, 'unknown', 404, `${m.role} on unknown ids`);
          }
        }
        // Denied roles first: they must change nothing.
        const everyone = [...members, owner];
        for (const caller of everyone.filter((c) => !allowed(c.role, need))) {
          const status = need === 'invitee' ? 404 : 403;
          await check(caller, a, status, `${caller.role} on S (not allowed)`);
        }
        // Then each allowed role; a delete spends its row, so later roles get a fresh world.
        let first = true;
        for (const caller of everyone.filter((c) => allowed(c.role, need))) {
          if (!first && route.method === 'DELETE') {
            await world.close();
            world = await roleWorld();
            const fresh = caller.role === 'owner' ? world.a : world.members[caller.role as (typeof MEMBER_ROLES)[number]];
            await check({ role: caller.role, who: fresh }, world.a, 'ok', `${caller.role} on S (fresh world)`);
          } else {
            await check(caller, a, 'ok', `${caller.role} on S`);
          }
          first = false;
        }
      } finally {
        await world.close();
      }
    }, 120_000);
  }
});

describe('the batch route and the changes feed', () => {
  it("a viewer's write inside a batch is refused with 403 and changes nothing; an editor's applies", async () => {
    const world = await roleWorld();
    try {
      const entry = { method: 'PUT', path: `/api/books/${world.a.ids.book}`, body: { title: 'Batched by a member' } };
      for (const [role, expected] of [['viewer', 403], ['editor', 200]] as const) {
        const who = world.members[role];
        const before = await snapshotDatabase(world.app);
        const res = await send(world.app, { method: 'POST', url: '/api/sync/batch', headers: who.headers, payload: JSON.stringify({ entries: [entry] }) });
        expect(res.status, res.body).toBe(200);
        const [result] = JSON.parse(res.body) as Array<{ status: number }>;
        expect(result!.status, res.body).toBe(expected);
        if (expected === 403) expect(diffSnapshots(before, await snapshotDatabase(world.app)).details).toEqual([]);
      }
    } finally {
      await world.close();
    }
  }, 60_000);

  it("every member's feed carries S and nothing of the outsider's; the outsider's carries nothing of S", async () => {
    const world = await roleWorld();
    try {
      const ofA = await secretsOf(world.app, world.a);
      const ofB = await secretsOf(world.app, world.b);
      const readers: Array<[SignedIn, Set<string>, boolean]> = [
        ...MEMBER_ROLES.map((role): [SignedIn, Set<string>, boolean] => [world.members[role], ofB, true]),
        [world.b, ofA, false],
      ];
      for (const [reader, hidden, seesS] of readers) {
        const res = await send(world.app, { method: 'GET', url: '/api/sync/changes?since=0', headers: { cookie: reader.cookie } });
        expect(res.status).toBe(200);
        const leaked = [...hidden].filter((secret) => res.body.includes(secret));
        totals.cases += 1;
        totals.leaks += leaked.length;
        expect(leaked).toEqual([]);
        expect(res.body.includes(world.a.ids.chapter)).toBe(seesS);
      }
    } finally {
      await world.close();
    }
  }, 60_000);
});
