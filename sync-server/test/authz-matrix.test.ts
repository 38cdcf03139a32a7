/**
 * Authorization matrix over the REAL route table (docs/sync-protocol.md#access: access comes from
 * the stored rows, never from the body). For every /api route: {anonymous, owner, other author} ×
 * {own ids, foreign ids, unknown ids}. Anonymous → 401; another author's ids → 404 with nothing
 * changed in the database; unknown ids → 404; own ids → 2xx. No answer to one author may carry
 * anything of the other's (ids, username, texts). Then ids smuggled in bodies, and the changes
 * feed.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { type CaseOutcome, type IdSource, type Principal, describeAnswer, paramValue, runCase } from './support/cases.ts';
import { type Side, type World, createWorld, secretsOf, unknownId } from './support/fixtures.ts';
import { ROUTE_POLICY, type RoutePolicy } from './support/policy.ts';
import { type RouteEntry, apiRoutes, buildAppWithRoutes, fillPath, send } from './support/routes.ts';
import { diffSnapshots, snapshotDatabase } from './support/snapshot.ts';
import { sharedFakeStripe } from './support/fake-stripe.ts';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config/config.ts';

const table = await buildAppWithRoutes();
const ROUTES = apiRoutes(table.routes);
await table.close();

/** The batch route replays writes through their REST routes: attacks are tried through it too. */
const HAS_BATCH = ROUTES.some((r) => r.key === 'POST /api/sync/batch');

const totals = { routes: new Set<string>(), cases: 0, leaks: 0, foreignRowsChanged: 0 };

afterAll(() => {
  console.log(
    `authz matrix: ${totals.routes.size}/${ROUTES.length} routes covered, ${totals.cases} cases, ` +
      `${totals.leaks} leaks, ${totals.foreignRowsChanged} foreign rows changed`,
  );
});

async function freshWorld(): Promise<{ app: FastifyInstance; world: World; close(): Promise<void> }> {
  const built = await buildAppWithRoutes();
  try {
    return { app: built.app, world: await createWorld(built.app), close: built.close };
  } catch (error) {
    await built.close();
    throw error;
  }
}

/** Records a case in the totals and checks the two invariants every case shares. */
function tally(route: RouteEntry, outcome: CaseOutcome, mustNotChange: boolean, label: string): void {
  totals.cases += 1;
  totals.routes.add(route.key);
  totals.leaks += outcome.leaked.length;
  if (mustNotChange) totals.foreignRowsChanged += outcome.changedRows;
  expect(outcome.answer.status, `${label}: 5xx\n${describeAnswer(outcome)}`).toBeLessThan(500);
  expect(outcome.leaked, `${label}: the answer carries the other author's data\n${describeAnswer(outcome)}`).toEqual([]);
  if (mustNotChange) expect(outcome.changes, `${label}: the database changed\n${describeAnswer(outcome)}`).toEqual([]);
}

function sidesOf(world: World, principal: Principal): { caller: Side | null; other: Side } {
  if (principal === 'a') return { caller: world.a, other: world.b };
  if (principal === 'b') return { caller: world.b, other: world.a };
  return { caller: null, other: world.a };
}

describe('route table', () => {
  it('has a route policy for every /api route, and no policy for a route that is gone', () => {
    const unclassified = ROUTES.filter((r) => !(r.key in ROUTE_POLICY)).map((r) => r.key);
    const stale = Object.keys(ROUTE_POLICY).filter((key) => !ROUTES.some((r) => r.key === key));
    expect(unclassified, 'routes missing from test/support/policy.ts: classify them').toEqual([]);
    expect(stale, 'policies for routes that no longer exist').toEqual([]);
  });

  it('names the entity of every path parameter of a protected route', () => {
    const missing: string[] = [];
    for (const route of ROUTES) {
      const policy = ROUTE_POLICY[route.key];
      if (!policy || policy.access !== 'protected') continue;
      for (const name of route.params) if (!policy.params?.[name]) missing.push(`${route.key} :${name}`);
    }
    expect(missing).toEqual([]);
  });
});

describe('the matrix itself', () => {
  // Guards against a vacuous matrix: routes planted WITHOUT an access check must be caught.
  it('catches a planted read without an access check (leak) and a planted write (foreign rows changed)', async () => {
    // Worlds buy a gift code through the (fake) Stripe webhook: payments must be configured.
    const app = await buildApp(testConfig({ stripe: (await sharedFakeStripe()).config() }));
    const { db } = app.deps.database;
    app.get('/api/planted/books/:id', async (request) =>
      db.selectFrom('books').selectAll().where('id', '=', (request.params as { id: string }).id).executeTakeFirstOrThrow(),
    );
    app.put('/api/planted/books/:id', async (request) => {
      await db.updateTable('books').set({ title: 'Vandalised' }).where('id', '=', (request.params as { id: string }).id).execute();
      return { ok: true };
    });
    await app.ready();
    try {
      const world = await createWorld(app);
      const secrets = await secretsOf(app, world.a);
      const policy: RoutePolicy = { access: 'protected', params: { id: 'book' }, request: () => ({ body: { title: 'x' } }) };
      const planted = (method: string): RouteEntry => ({
        method, url: '/api/planted/books/:id', key: `${method} /api/planted/books/:id`, params: ['id'], hasBodySchema: false, hasQuerySchema: false, batchable: () => false,
      });
      const read = await runCase(app, { route: planted('GET'), policy, caller: world.b, sources: { id: world.a }, bodySide: world.a, secrets, snapshot: true });
      expect(read.answer.status).toBe(200);
      expect(read.leaked.length).toBeGreaterThan(0);
      const write = await runCase(app, { route: planted('PUT'), policy, caller: world.b, sources: { id: world.a }, bodySide: world.a, secrets, snapshot: true });
      expect(write.changedRows).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });
});

describe('routes covered by the matrix', () => {
  for (const route of ROUTES) {
    const policy = ROUTE_POLICY[route.key] as RoutePolicy | undefined;
    it.skipIf(!policy)(route.key, async () => {
      const { app, world, close } = await freshWorld();
      try {
        if (policy!.access === 'public') await publicCases(app, world, route, policy!);
        else await protectedCases(app, world, route, policy!);
      } finally {
        await close();
      }
    }, 60_000);
  }
});

async function publicCases(app: FastifyInstance, world: World, route: RouteEntry, policy: Extract<RoutePolicy, { access: 'public' }>) {
  const anon = await runCase(app, { route, policy, caller: null, sources: {}, bodySide: world.a, secrets: new Set(), snapshot: false });
  tally(route, anon, false, 'anonymous');
  expect(anon.answer.status, describeAnswer(anon)).toBe(policy.anonymous);
  for (const principal of ['a', 'b'] as const) {
    const { caller, other } = sidesOf(world, principal);
    const secrets = await secretsOf(app, other);
    const own = await runCase(app, { route, policy, caller, sources: {}, bodySide: caller!, secrets, snapshot: false });
    tally(route, own, false, `${principal} signed in`);
    expect(own.answer.status, describeAnswer(own)).toBe(policy.signedIn);
  }
}

async function protectedCases(app: FastifyInstance, world: World, route: RouteEntry, policy: Extract<RoutePolicy, { access: 'protected' }>) {
  const params = policy.params ?? {};
  const idParams = route.params.filter((name) => params[name] !== 'chapterRev' && params[name] !== 'pictureHash');
  const all = (source: IdSource) => Object.fromEntries(route.params.map((name) => [name, source]));

  // Anonymous: 401 whatever ids it carries, and nothing written.
  for (const source of [world.a, world.b, 'unknown'] as const) {
    const outcome = await runCase(app, { route, policy, caller: null, sources: all(source), bodySide: source === 'unknown' ? world.a : source, secrets: new Set(), snapshot: true });
    tally(route, outcome, true, 'anonymous');
    expect(outcome.answer.status, `anonymous must get 401\n${describeAnswer(outcome)}`).toBe(401);
  }

  for (const principal of ['b', 'a'] as const) {
    const { caller, other } = sidesOf(world, principal);
    const secrets = await secretsOf(app, other);
    if (route.params.length > 0) {
      // The other author's ids: 404 (never 403: that would confirm the id exists), nothing written.
      const foreign = await runCase(app, { route, policy, caller, sources: all(other), bodySide: other, secrets, snapshot: true });
      tally(route, foreign, true, `${principal} on foreign ids`);
      expect(foreign.answer.status, `foreign ids must get 404\n${describeAnswer(foreign)}`).toBe(404);

      // Own ids but one of them foreign (routes naming two entities, e.g. a chapter and its conflict).
      if (idParams.length > 1) {
        for (const name of idParams) {
          const sources = { ...all(caller!), [name]: other };
          const mixed = await runCase(app, { route, policy, caller, sources, bodySide: caller!, secrets, snapshot: true });
          tally(route, mixed, true, `${principal} with foreign :${name}`);
          expect(mixed.answer.status, `a foreign :${name} must get 404\n${describeAnswer(mixed)}`).toBe(404);
        }
      }

      const unknown = await runCase(app, { route, policy, caller, sources: all('unknown'), bodySide: caller!, secrets, snapshot: true });
      tally(route, unknown, true, `${principal} on unknown ids`);
      expect(unknown.answer.status, `unknown ids must get 404\n${describeAnswer(unknown)}`).toBe(404);
    }
  }

  // Owners last: their call may delete the row the other cases aimed at.
  for (const principal of ['a', 'b'] as const) {
    const { caller, other } = sidesOf(world, principal);
    const secrets = await secretsOf(app, other);
    const otherBefore = await snapshotOf(app, other);
    const own = await runCase(app, { route, policy, caller, sources: all(caller!), bodySide: caller!, secrets, snapshot: false });
    tally(route, own, false, `${principal} on own ids`);
    expect(own.answer.status, `the owner must succeed\n${describeAnswer(own)}`).toBeGreaterThanOrEqual(200);
    expect(own.answer.status, `the owner must succeed\n${describeAnswer(own)}`).toBeLessThan(300);
    // The owner's write touched nothing of the other author's.
    const otherChanged = diffRows(otherBefore, await snapshotOf(app, other));
    totals.foreignRowsChanged += otherChanged.length;
    expect(otherChanged, `the owner's call changed the other author's rows\n${describeAnswer(own)}`).toEqual([]);
  }
}

/** The rows (as JSON) of everything a side owns, to check an owner's call left the other alone. */
async function snapshotOf(app: FastifyInstance, side: Side): Promise<string[]> {
  const secrets = await secretsOf(app, side);
  const snapshot = await snapshotDatabase(app);
  const rows: string[] = [];
  for (const [name, lines] of snapshot) {
    if (name === 'revisions' || name === 'sync_state') continue;
    for (const line of lines) {
      const row = JSON.parse(line) as Record<string, unknown>;
      if (typeof row.id === 'string' && secrets.has(row.id)) rows.push(`${name} ${line}`);
    }
  }
  return rows.sort();
}

function diffRows(before: string[], after: string[]): string[] {
  const was = new Set(before);
  const now = new Set(after);
  return [...before.filter((r) => !now.has(r)).map((r) => `- ${r}`), ...after.filter((r) => !was.has(r)).map((r) => `+ ${r}`)];
}

// ---------------------------------------------------------------------------------------------
// Ids carried in bodies: B names A's rows. Each attack has a control — the same request with
// B's own ids — that must succeed, so a rejection is proven to come from the foreign id.

interface BodyAttack {
  name: string;
  method: 'POST' | 'PUT';
  /** `attacker` owns the path ids; `victim`'s ids are the ones smuggled in. */
  url: (attacker: Side) => string;
  body: (victim: Side, attacker: Side) => unknown;
  /** Acceptable rejections (default 404 or 422). */
  statuses?: number[];
  /** The control's body (default: `body(attacker, attacker)`). */
  control?: (attacker: Side) => unknown;
  /** False for routes the batch refuses (not outbox writes): tried directly only. */
  batchable?: boolean;
}

const fresh = () => unknownId();
const BODY_ATTACKS: BodyAttack[] = [
  { name: 'book in a foreign series', method: 'POST', url: () => '/api/books', body: (v) => ({ seriesId: v.ids.series, title: 'Squatter' }) },
  { name: 'chapter in a foreign book', method: 'POST', url: () => '/api/chapters', body: (v) => ({ bookId: v.ids.book, title: 'Squatter' }) },
  { name: 'character in a foreign series', method: 'POST', url: () => '/api/characters', body: (v) => ({ seriesId: v.ids.series, name: 'Squatter' }) },
  { name: 'location in a foreign series', method: 'POST', url: () => '/api/locations', body: (v) => ({ seriesId: v.ids.series, name: 'Squat' }) },
  {
    name: 'relationship between foreign characters',
    method: 'POST',
    url: () => '/api/character-relationships',
    body: (v) => ({ sourceCharacterId: v.ids.character, targetCharacterId: v.ids.character2, relationshipType: 'ally' }),
  },
  {
    name: 'relationship from an own to a foreign character',
    method: 'POST',
    url: () => '/api/character-relationships',
    body: (v, me) => ({ sourceCharacterId: me.ids.character, targetCharacterId: v.ids.character, relationshipType: 'romantic' }),
    control: (me) => ({ sourceCharacterId: me.ids.character, targetCharacterId: me.ids.character2, relationshipType: 'romantic' }),
  },
  {
    name: 'relationship from a foreign to an own character',
    method: 'POST',
    url: () => '/api/character-relationships',
    body: (v, me) => ({ sourceCharacterId: v.ids.character, targetCharacterId: me.ids.character, relationshipType: 'mentor' }),
    control: (me) => ({ sourceCharacterId: me.ids.character2, targetCharacterId: me.ids.character, relationshipType: 'mentor' }),
  },
  { name: 'event in a foreign series', method: 'POST', url: () => '/api/timeline-events', body: (v) => ({ seriesId: v.ids.series, title: 'Squat' }) },
  ...(['book', 'chapter', 'location'] as const).map(
    (kind): BodyAttack => ({
      name: `event referencing a foreign ${kind}`,
      method: 'POST',
      url: () => '/api/timeline-events',
      body: (v, me) => ({ seriesId: me.ids.series, title: 'Squat', [`${kind}Id`]: v.ids[kind] }),
    }),
  ),
  {
    name: 'event referencing a foreign character',
    method: 'POST',
    url: () => '/api/timeline-events',
    body: (v, me) => ({ seriesId: me.ids.series, title: 'Squat', characterIds: [me.ids.character, v.ids.character] }),
  },
  ...(['book', 'chapter', 'location'] as const).map(
    (kind): BodyAttack => ({
      name: `event updated to reference a foreign ${kind}`,
      method: 'PUT',
      url: (me) => `/api/timeline-events/${me.ids.event}`,
      body: (v) => ({ [`${kind}Id`]: v.ids[kind] }),
    }),
  ),
  {
    name: 'event updated to reference a foreign character',
    method: 'PUT',
    url: (me) => `/api/timeline-events/${me.ids.event}`,
    body: (v) => ({ characterIds: [v.ids.character2] }),
  },
  // Canon changes (docs/decisions/0017-canon-changes.md): every id they name is checked against the change's series.
  {
    name: 'canon change in a foreign series',
    method: 'POST',
    url: () => '/api/canon-changes',
    body: (v) => ({ seriesId: v.ids.series, entityKind: 'character', entityId: v.ids.character, field: 'status', value: 'deceased', bookId: v.ids.book, chapterId: v.ids.chapter }),
  },
  ...(
    [
      ['character', (v: Side) => ({ entityKind: 'character', entityId: v.ids.character })],
      ['relationship', (v: Side) => ({ entityKind: 'relationship', entityId: v.ids.relationship, field: 'status', value: 'ended' })],
      ['book', (v: Side) => ({ bookId: v.ids.book })],
      ['chapter', (v: Side) => ({ chapterId: v.ids.chapter })],
      ['event', (v: Side) => ({ timelineEventId: v.ids.event })],
      ['place', (v: Side) => ({ field: 'whereabouts', value: '', locationId: v.ids.location })],
    ] as const
  ).map(
    ([noun, foreign]): BodyAttack => ({
      name: `canon change naming a foreign ${noun}`,
      method: 'POST',
      url: () => '/api/canon-changes',
      body: (v, me) => ({
        seriesId: me.ids.series, entityKind: 'character', entityId: me.ids.character, field: 'status', value: 'deceased', bookId: me.ids.book, chapterId: me.ids.chapter,
        ...foreign(v),
      }),
    }),
  ),
  ...(['book', 'chapter', 'event'] as const).map(
    (kind): BodyAttack => ({
      name: `canon change re-anchored to a foreign ${kind}`,
      method: 'PUT',
      url: (me) => `/api/canon-changes/${me.ids.canonChange}`,
      body: (v) => ({ [kind === 'event' ? 'timelineEventId' : `${kind}Id`]: v.ids[kind] }),
    }),
  ),
  // World entries (docs/decisions/0020-world-entries.md): every id they link is checked against the entry's series.
  {
    name: 'world entry in a foreign series',
    method: 'POST',
    url: () => '/api/world-entries',
    body: (v) => ({ seriesId: v.ids.series, category: 'culture', name: 'Reed folk' }),
  },
  ...(
    [
      ['character', (v: Side) => ({ characterIds: [v.ids.character] })],
      ['place', (v: Side) => ({ locationIds: [v.ids.location] })],
      ['entry', (v: Side) => ({ entryIds: [v.ids.worldEntry2] })],
      ['leader', (v: Side) => ({ leaderId: v.ids.character })],
      ['ally', (v: Side) => ({ allyIds: [v.ids.worldEntry2] })],
      ['enemy', (v: Side) => ({ enemyIds: [v.ids.worldEntry2] })],
    ] as const
  ).flatMap(([noun, foreign]): BodyAttack[] => [
    {
      name: `world entry created linking a foreign ${noun}`,
      method: 'POST',
      url: () => '/api/world-entries',
      body: (v, me) => ({ seriesId: me.ids.series, category: 'politics', name: 'Reed guild', ...foreign(v) }),
    },
    {
      name: `world entry changed to link a foreign ${noun}`,
      method: 'PUT',
      url: (me) => `/api/world-entries/${me.ids.worldEntry}`,
      body: (v) => foreign(v),
    },
  ]),
  // Places inside places (docs/decisions/0021-places-inside-places.md): never inside a foreign place.
  {
    name: 'location inside a foreign location',
    method: 'POST',
    url: () => '/api/locations',
    body: (v, me) => ({ seriesId: me.ids.series, name: 'Squat', parentId: v.ids.location }),
  },
  {
    name: 'location moved into a foreign location',
    method: 'PUT',
    url: (me) => `/api/locations/${me.ids.location}`,
    body: (v) => ({ parentId: v.ids.location }),
    control: () => ({ parentId: null }),
  },
  // A move to another book (docs/decisions/0014-trash-and-restructure.md): never into a foreign one.
  { name: 'chapter moved into a foreign book', method: 'PUT', url: (me) => `/api/chapters/${me.ids.chapter}`, body: (v) => ({ bookId: v.ids.book }) },
  { name: 'reorder of foreign chapters', method: 'POST', url: () => '/api/chapters/reorder', body: (v) => ({ chapters: [{ id: v.ids.chapter, position: 2 }, { id: v.ids.chapter2, position: 1 }] }) },
  {
    name: 'reorder mixing own and foreign chapters',
    method: 'POST',
    url: () => '/api/chapters/reorder',
    body: (v, me) => ({ chapters: [{ id: me.ids.chapter, position: 1 }, { id: v.ids.chapter, position: 2 }] }),
    control: (me) => ({ chapters: [{ id: me.ids.chapter, position: 1 }, { id: me.ids.chapter2, position: 2 }] }),
  },
  { name: 'companion suggestion for a foreign series', method: 'POST', url: () => '/api/ai/suggestion', body: (v) => ({ seriesId: v.ids.series, type: 'conflict' }), batchable: false },
  {
    name: 'companion suggestion for a foreign book in an own series',
    method: 'POST',
    url: () => '/api/ai/suggestion',
    body: (v, me) => ({ seriesId: me.ids.series, bookId: v.ids.book, type: 'plotIdea' }),
    batchable: false,
  },
  {
    name: 'companion analysis of a foreign chapter',
    method: 'POST',
    url: () => '/api/ai/analyze',
    body: (v) => ({ chapterId: v.ids.chapter }),
    control: () => ({ content: 'A pasted passage long enough to analyse: the guard opened the door, and the harbour lights went out one by one.' }),
    batchable: false,
  },
  { name: 'reorder of foreign events', method: 'POST', url: () => '/api/timeline-events/reorder', body: (v) => ({ events: [{ id: v.ids.event, position: 5 }] }) },
  // Moving an own row under a foreign parent through an update body.
  ...(
    [
      ['books', 'book', 'seriesId', 'series'],
      ['chapters', 'chapter', 'bookId', 'book'],
      ['characters', 'character', 'seriesId', 'series'],
      ['locations', 'location', 'seriesId', 'series'],
      ['timeline-events', 'event', 'seriesId', 'series'],
    ] as const
  ).map(
    ([path, kind, field, parent]): BodyAttack => ({
      name: `${kind} moved under a foreign ${parent}`,
      method: 'PUT',
      url: (me) => `/api/${path}/${me.ids[kind]}`,
      body: (v) => ({ [field]: v.ids[parent] }),
      // Re-parenting is not part of the API at all: even the own parent is refused.
      control: () => undefined,
    }),
  ),
  // A client-chosen id that is already taken by another author's row must not overwrite it.
  ...(
    [
      ['series', 'series', (_me: Side) => ({ title: 'Twin' })],
      ['books', 'book', (me: Side) => ({ seriesId: me.ids.series, title: 'Twin' })],
      ['chapters', 'chapter', (me: Side) => ({ bookId: me.ids.book, title: 'Twin' })],
      ['characters', 'character', (me: Side) => ({ seriesId: me.ids.series, name: 'Twin' })],
      ['locations', 'location', (me: Side) => ({ seriesId: me.ids.series, name: 'Twin' })],
      ['timeline-events', 'event', (me: Side) => ({ seriesId: me.ids.series, title: 'Twin' })],
      [
        'canon-changes',
        'canonChange',
        (me: Side) => ({ seriesId: me.ids.series, entityKind: 'location', entityId: me.ids.location, field: 'state', value: 'destroyed', bookId: me.ids.book, chapterId: me.ids.chapter }),
      ],
      [
        'character-relationships',
        'relationship',
        (me: Side) => ({ sourceCharacterId: me.ids.character2, targetCharacterId: me.ids.character, relationshipType: 'professional' }),
      ],
      ['world-entries', 'worldEntry', (me: Side) => ({ seriesId: me.ids.series, category: 'technology', name: 'Twin' })],
    ] as const
  ).map(
    ([path, kind, base]): BodyAttack => ({
      name: `${kind} created with a foreign ${kind}'s id`,
      method: 'POST',
      url: () => `/api/${path}`,
      body: (v, me) => ({ id: v.ids[kind], ...base(me) }),
      statuses: [404, 409, 422],
      control: (me) => ({ id: fresh(), ...base(me) }),
    }),
  ),
];

interface Attempt {
  method: string;
  url: string;
  body: unknown;
}

/**
 * Sends a request as `attacker` (directly, or as the one entry of a batch) and checks the shared
 * invariants: no 5xx, nothing of `victim`'s in the answer, and (for an attack, not a control)
 * nothing changed in the database. `status` is the entry's status for a batch.
 */
async function attempt(
  app: FastifyInstance,
  attacker: Side,
  victim: Side,
  request: Attempt,
  options: { viaBatch: boolean; isControl?: boolean },
): Promise<CaseOutcome & { status: number }> {
  const { viaBatch, isControl = false } = options;
  const route = ROUTES.find((r) => r.method === request.method && matches(r.url, request.url));
  if (!route) throw new Error(`no route for ${request.method} ${request.url}`);
  const secrets = await secretsOf(app, victim);
  const entry = { method: request.method, path: request.url, ...(request.body === undefined ? {} : { body: request.body }) };
  const [method, url, payload] = viaBatch
    ? (['POST', '/api/sync/batch', JSON.stringify({ entries: [entry] })] as const)
    : ([request.method, request.url, request.body === undefined ? undefined : JSON.stringify(request.body)] as const);
  const before = await snapshotDatabase(app);
  const answer = await send(app, {
    method: method as 'POST',
    url,
    headers: payload === undefined ? { cookie: attacker.cookie } : attacker.headers,
    ...(payload === undefined ? {} : { payload }),
  });
  const diff = diffSnapshots(before, await snapshotDatabase(app));
  const requestText = `${method} ${url}\n${payload ?? ''}`;
  const leaked = [...secrets].filter((secret) => answer.body.includes(secret) && !requestText.includes(secret));
  const outcome = { answer, changedRows: diff.changedRows, changes: diff.details, leaked, requestText };
  tally(route, outcome, !isControl, `${request.method} ${route.url}${viaBatch ? ' in a batch' : ''}${isControl ? ' (control)' : ''}`);
  let status = answer.status;
  if (viaBatch) {
    expect(answer.status, describeAnswer(outcome)).toBe(200);
    const results = JSON.parse(answer.body) as Array<{ status: number }>;
    expect(results).toHaveLength(1);
    status = results[0]!.status;
  }
  return { ...outcome, status };
}

describe('ids carried in request bodies', () => {
  let ctx: Awaited<ReturnType<typeof freshWorld>> | undefined;
  afterAll(async () => ctx?.close());
  const world = async () => (ctx ??= await freshWorld());

  for (const attack of BODY_ATTACKS) {
    for (const viaBatch of HAS_BATCH && attack.batchable !== false ? [false, true] : [false]) {
      it(`B cannot make a ${attack.name}${viaBatch ? ' (inside a batch)' : ''}`, async () => {
        const { app, world: w } = await world();
        const attacker = w.b;
        const request = { method: attack.method, url: attack.url(attacker), body: attack.body(w.a, attacker) };
        const outcome = await attempt(app, attacker, w.a, request, { viaBatch });
        expect(attack.statuses ?? [404, 422], describeAnswer(outcome)).toContain(outcome.status);

        const controlBody = attack.control ? attack.control(attacker) : attack.body(attacker, attacker);
        if (controlBody !== undefined) {
          const control = await attempt(app, attacker, w.a, { ...request, body: controlBody }, { viaBatch, isControl: true });
          expect(control.status, `control with own ids must succeed\n${describeAnswer(control)}`).toBeLessThan(300);
        }
      }, 60_000);
    }
  }

  // Every write route that names a row in its path, replayed through the batch route with the
  // other author's ids: the batch must not become a way around the route's own access check.
  for (const route of ROUTES.filter((r) => r.method !== 'GET' && r.params.length > 0)) {
    const policy = ROUTE_POLICY[route.key];
    if (policy?.access !== 'protected' || !HAS_BATCH) continue;
    it(`B cannot ${route.key} on A's ids inside a batch`, async () => {
      const { app, world: w } = await world();
      const values = Object.fromEntries(route.params.map((name) => [name, paramValue(policy.params![name]!, w.a, w.b)]));
      const body = policy.request?.(w.a).body;
      const outcome = await attempt(app, w.b, w.a, { method: route.method, url: fillPath(route.url, values), body }, { viaBatch: true });
      // A route outside the batch allow-list (accounts, sessions) is refused before its own check.
      expect(outcome.status, describeAnswer(outcome)).toBe(route.batchable() ? 404 : 400);
    }, 60_000);
  }

  it("B reusing A's Idempotency-Key never gets A's stored answer", async () => {
    const { app, world: w } = await world();
    const create = (side: Side, key: string, seriesId: string) =>
      send(app, { method: 'POST', url: '/api/books', headers: { ...side.headers, 'idempotency-key': key }, payload: JSON.stringify({ seriesId, title: 'Keyed book' }) });
    const secrets = await secretsOf(app, w.a);
    // The same key and the same request as A's (B names A's series), then the same key on B's own series.
    for (const [seriesId, expected] of [[w.a.ids.series, 404], [w.b.ids.series, 201]] as const) {
      const key = `shared-key-${unknownId()}`;
      expect((await create(w.a, key, w.a.ids.series)).status).toBe(201);
      const answer = await create(w.b, key, seriesId);
      expect(answer.headers['idempotent-replayed'], answer.body).toBeUndefined();
      expect(answer.status, answer.body).toBe(expected);
      expect([...secrets].filter((secret) => answer.body.includes(secret) && secret !== seriesId)).toEqual([]);
    }
  }, 60_000);

  it("an X-Base-Rev that only A's chapter has never brings A's text into B's chapter", async () => {
    const { app, world: w } = await world();
    const secrets = await secretsOf(app, w.a);
    const aBefore = await snapshotOf(app, w.a);
    const answer = await send(app, {
      method: 'PUT',
      url: `/api/chapters/${w.b.ids.chapter}`,
      headers: { ...w.b.headers, 'x-base-rev': String(w.a.ids.chapterRev) },
      payload: JSON.stringify({ content: 'A fresh first paragraph.\n\nThe middle paragraph stays.' }),
    });
    expect(answer.status, answer.body).toBeLessThan(500);
    const stored = await app.deps.database.db.selectFrom('chapters').selectAll().where('id', '=', w.b.ids.chapter).executeTakeFirstOrThrow();
    const conflicts = await app.deps.database.db.selectFrom('chapterConflicts').selectAll().where('chapterId', '=', w.b.ids.chapter).execute();
    const seenByB = `${answer.body}\n${JSON.stringify(stored)}\n${JSON.stringify(conflicts)}`;
    expect([...secrets].filter((secret) => seenByB.includes(secret))).toEqual([]);
    expect(diffRows(aBefore, await snapshotOf(app, w.a))).toEqual([]);
  }, 60_000);

  it('B\'s changes feed never carries A\'s rows (and A\'s never B\'s)', async () => {
    // Runs after the attacks above, so the feed also covers everything they tried.
    const { app, world: w } = await world();
    for (const [reader, owner] of [[w.b, w.a], [w.a, w.b]] as const) {
      const secrets = await secretsOf(app, owner);
      const own = await secretsOf(app, reader);
      const seen = new Set<string>();
      let since = 0;
      for (let pages = 1; ; pages++) {
        const res = await send(app, { method: 'GET', url: `/api/sync/changes?since=${since}&limit=3`, headers: { cookie: reader.cookie } });
        expect(res.status, res.body).toBe(200);
        const page = JSON.parse(res.body) as { changes: Record<string, Array<{ id: string }>>; cursor: number; hasMore: boolean };
        const leaked = [...secrets].filter((secret) => res.body.includes(secret));
        totals.cases += 1;
        totals.leaks += leaked.length;
        expect(leaked, "the feed carries the other author's data").toEqual([]);
        for (const rows of Object.values(page.changes)) for (const row of rows) seen.add(row.id);
        if (!page.hasMore) break;
        expect(page.cursor).toBeGreaterThan(since);
        expect(pages).toBeLessThan(1000);
        since = page.cursor;
      }
      // Not vacuous: the reader's own rows did come through.
      expect([...own].filter((id) => seen.has(id)).length).toBeGreaterThanOrEqual(10);
    }
  }, 60_000);
});

/** Does a concrete path match a route pattern with `:params`? */
function matches(pattern: string, path: string): boolean {
  const re = new RegExp(`^${pattern.replace(/:[A-Za-z0-9_]+/g, '[^/]+')}$`);
  return re.test(path);
}
