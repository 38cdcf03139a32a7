/**
 * Convergence with membership (collaboration): an owner and up to three other authors, each with
 * their own device (engine + IndexedDB), against the REAL server (buildApp over in-memory SQLite
 * through app.inject). Random steps: members join with a role (invite by e-mail, accepted), change
 * role, are removed or leave, while everyone writes — some of them offline for a while — to the
 * shared series' chapters. Each device hears the pokes of its author's live channel as the hub
 * makes them (rows carried or not) and is handed them late, shuffled, duplicated or with some lost;
 * a device that is offline hears none.
 *
 * After everyone is back online and quiet:
 * - every outbox is empty;
 * - the owner's and every current member's device hold exactly the server's live books and
 *   chapters of the series (same ids, same text);
 * - a device whose author is no longer a member (removed, left, or never joined) holds nothing of
 *   the series — no series row, no row of any kind under it;
 * - whenever pokes are handed over, no row on the device gets older, and every chapter there
 *   without unsent work is a state the server had (its revision at that rev): carried rows never
 *   invent or regress anything, whatever their order;
 * - no write is lost: every paragraph an author wrote is in the chapter's stored revisions or its
 *   conflict copies on the server, or in that author's own dead letters (kept for the problems
 *   panel) with a reason we can name: a viewer's 403, or access lost (404 / purged on removal).
 *
 * Runs: MEMBERSHIP_PROPERTY_RUNS (default 25); MEMBERSHIP_PROPERTY_SEED replays one.
 */
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { type InviteRole, SERIES_CHILD_KINDS } from '@chronicler/schema';
import {
  type ChroniclerDb,
  type FetchLike,
  type Mutators,
  type SyncEngine,
  createMutators,
  createSyncEngine,
  createSyncStatusStore,
  openChroniclerDb,
} from '@chronicler/sync-client';
import { type App, buildApp } from '@chronicler/sync-server';
import { testConfig } from '@chronicler/sync-server/config';
import { type DeliveryOrder, dataOfFrame, delivery, expectNoInventedRows } from './live-channel.ts';

const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
const RUNS = Number(env.MEMBERSHIP_PROPERTY_RUNS ?? 25);
const SEED = env.MEMBERSHIP_PROPERTY_SEED !== undefined ? Number(env.MEMBERSHIP_PROPERTY_SEED) : undefined;

type Step =
  | { t: 'join'; who: number; role: InviteRole }
  | { t: 'role'; who: number; role: InviteRole }
  | { t: 'remove'; who: number }
  | { t: 'leave'; who: number }
  | { t: 'write'; who: number; pick: number }
  | { t: 'newChapter'; who: number }
  | { t: 'offline'; who: number }
  | { t: 'online'; who: number }
  | { t: 'sync'; who: number }
  | { t: 'deliver'; who: number; order: DeliveryOrder; pick: number }
  /** The author syncs, and every device online hears the live channel at once, in order (the usual case). */
  | { t: 'syncLive'; who: number };

const roleArb = fc.constantFrom<InviteRole>('viewer', 'editor', 'admin');
const who = fc.nat(3);
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ t: fc.constant('join' as const), who: fc.integer({ min: 1, max: 3 }), role: roleArb }), weight: 4 },
  { arbitrary: fc.record({ t: fc.constant('role' as const), who: fc.integer({ min: 1, max: 3 }), role: roleArb }), weight: 2 },
  { arbitrary: fc.record({ t: fc.constant('remove' as const), who: fc.integer({ min: 1, max: 3 }) }), weight: 1 },
  { arbitrary: fc.record({ t: fc.constant('leave' as const), who: fc.integer({ min: 1, max: 3 }) }), weight: 1 },
  { arbitrary: fc.record({ t: fc.constant('write' as const), who, pick: fc.nat(100) }), weight: 8 },
  { arbitrary: fc.record({ t: fc.constant('newChapter' as const), who }), weight: 1 },
  { arbitrary: fc.record({ t: fc.constant('offline' as const), who }), weight: 2 },
  { arbitrary: fc.record({ t: fc.constant('online' as const), who }), weight: 2 },
  { arbitrary: fc.record({ t: fc.constant('sync' as const), who }), weight: 6 },
  {
    arbitrary: fc.record({ t: fc.constant('deliver' as const), who, order: fc.constantFrom<DeliveryOrder>('in order', 'shuffled', 'lossy'), pick: fc.nat(1000) }),
    weight: 4,
  },
  { arbitrary: fc.record({ t: fc.constant('syncLive' as const), who }), weight: 4 },
);

interface Author {
  name: string;
  userId: string;
  email: string;
  cookie: string;
  db: ChroniclerDb;
  engine: SyncEngine;
  m: Mutators;
  offline: boolean;
  /** The server's membership as this test made it: null = not a member. */
  role: InviteRole | 'owner' | null;
  /** Every paragraph marker this author wrote, by chapter. */
  written: Array<{ chapterId: string; marker: string }>;
  /** Pokes of the author's live channel not handed to the device yet (SSE `message` data). */
  pokes: string[];
  stopHearing: () => void;
}

/**
 * The story, always run first: a viewer writes (refused, kept), an editor writes offline
 * while the owner writes online, a member is promoted, and one is removed with unsent work.
 */
const EXAMPLE: Step[] = [
  { t: 'join', who: 1, role: 'viewer' },
  { t: 'join', who: 2, role: 'editor' },
  { t: 'join', who: 3, role: 'editor' },
  { t: 'sync', who: 1 },
  { t: 'sync', who: 2 },
  { t: 'sync', who: 3 },
  { t: 'write', who: 1, pick: 0 },
  { t: 'offline', who: 2 },
  { t: 'write', who: 2, pick: 0 },
  { t: 'write', who: 0, pick: 0 },
  { t: 'sync', who: 0 },
  { t: 'deliver', who: 3, order: 'in order', pick: 0 },
  { t: 'sync', who: 1 },
  { t: 'offline', who: 3 },
  { t: 'write', who: 3, pick: 1 },
  { t: 'remove', who: 3 },
  { t: 'role', who: 1, role: 'editor' },
  { t: 'write', who: 1, pick: 1 },
  { t: 'online', who: 2 },
  { t: 'sync', who: 2 },
  { t: 'leave', who: 2 },
];

const figures = {
  runs: 0,
  steps: 0,
  joins: 0,
  roleChanges: 0,
  removals: 0,
  writes: 0,
  pokesDelivered: 0,
  carriedRowsWritten: 0,
  deadLetters: {} as Record<string, number>,
  purgedDevices: 0,
};

let sharedApp: Promise<App> | null = null;
const server = () =>
  (sharedApp ??= buildApp(testConfig()).then(async (app) => {
    await app.ready();
    return app;
  }));

function toResponse(res: Awaited<ReturnType<App['inject']>>): Response {
  const headers = new Headers();
  for (const [k, v] of Object.entries(res.headers)) {
    if (v === undefined || k === 'content-length' || k === 'transfer-encoding' || k === 'connection') continue;
    headers.set(k, Array.isArray(v) ? v.join(', ') : String(v));
  }
  return new Response(res.statusCode === 204 ? null : res.body, { status: res.statusCode, headers });
}

function deviceFetch(app: App, author: () => Author): FetchLike {
  return async (url, init) => {
    if (author().offline) throw new TypeError('Failed to fetch (offline)');
    const u = new URL(url);
    const headers = { ...(init.headers as Record<string, string>), cookie: author().cookie };
    const res = await app.inject({ method: (init.method ?? 'GET') as 'GET', url: u.pathname + u.search, headers, ...(typeof init.body === 'string' ? { payload: init.body } : {}) });
    return toResponse(res);
  };
}

let counter = 0;
async function register(app: App, name: string, plan: string): Promise<{ userId: string; cookie: string; email: string }> {
  counter += 1;
  const username = `${name}${counter}_${Math.floor(Math.random() * 1e9)}`;
  const email = `${username}@example.com`;
  const res = await app.inject({ method: 'POST', url: '/api/register', payload: { username, password: 'correct horse battery', displayName: name, email } });
  expect(res.statusCode, res.body).toBe(201);
  const userId = (JSON.parse(res.body) as { id: string }).id;
  await app.deps.database.db.updateTable('users').set({ plan }).where('id', '=', userId).execute();
  const cookie = (res.headers['set-cookie'] as string[] | string).toString().match(/chronicler_session=[^;]+/)![0];
  return { userId, cookie, email };
}

async function api(app: App, author: Author, method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await app.inject({
    method: method as 'GET',
    url,
    headers: body === undefined ? { cookie: author.cookie } : { cookie: author.cookie, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null };
}

let clock = Date.parse('2026-04-01T09:00:00.000Z');
const now = () => clock;

async function openDevice(app: App, name: string, plan: string): Promise<Author> {
  const account = await register(app, name, plan);
  const author = { name, ...account, offline: false, role: null, written: [] } as unknown as Author;
  author.db = openChroniclerDb(account.userId, { indexedDB: new IDBFactory(), IDBKeyRange });
  author.engine = createSyncEngine({
    db: author.db,
    fetch: deviceFetch(app, () => author),
    baseUrl: 'http://chronicler.test',
    now,
    random: Math.random,
    locks: null,
    eventSource: null,
    status: createSyncStatusStore(),
    platform: { window: null, document: null },
    timers: { setTimeout: () => 0, clearTimeout: () => undefined, setInterval: () => 0, clearInterval: () => undefined },
  });
  author.m = createMutators(author.db, { now });
  author.engine.on((event) => {
    if (event.type === 'carried') figures.carriedRowsWritten += event.rows;
  });
  // The author's live channel as the hub makes it (sync-server events.ts writes these bytes).
  author.pokes = [];
  author.stopHearing = app.deps.hub.subscribeAuthor(account.userId, (notice, rows) => {
    if (!author.offline) author.pokes.push(rows ? dataOfFrame(rows.frame) : JSON.stringify({ seq: notice.seq }));
  });
  return author;
}

async function step(app: App, owner: Author, authors: Author[], seriesId: string, s: Step): Promise<void> {
  const a = authors[s.who]!;
  switch (s.t) {
    case 'join': {
      if (a.role !== null) return;
      const sent = await api(app, owner, 'POST', `/api/collaboration/series/${seriesId}/invites`, { inviteeEmail: a.email, role: s.role });
      expect(sent.status, JSON.stringify(sent.body)).toBeLessThan(300);
      const accepted = await api(app, a, 'POST', `/api/collaboration/invites/${sent.body.id}/accept`);
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      a.role = s.role;
      figures.joins += 1;
      return;
    }
    case 'role': {
      if (a.role === null || a.role === 'owner') return;
      expect((await api(app, owner, 'PUT', `/api/collaboration/series/${seriesId}/members/${a.userId}`, { role: s.role })).status).toBe(200);
      a.role = s.role;
      figures.roleChanges += 1;
      return;
    }
    case 'remove':
    case 'leave': {
      if (a.role === null || a.role === 'owner') return;
      const res =
        s.t === 'remove'
          ? await api(app, owner, 'DELETE', `/api/collaboration/series/${seriesId}/members/${a.userId}`)
          : await api(app, a, 'POST', `/api/collaboration/series/${seriesId}/leave`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      a.role = null;
      figures.removals += 1;
      return;
    }
    case 'write': {
      const chapters = (await a.db.chapters.where('seriesId').equals(seriesId).toArray()).filter((c) => !c.deletedAt).sort((x, y) => (x.id < y.id ? -1 : 1));
      const chapter = chapters[s.pick % Math.max(1, chapters.length)];
      if (!chapter) return;
      figures.writes += 1;
      const marker = `«${a.name}-${++counter}»`;
      // Appended paragraphs: concurrent writers' words merge, or the later one becomes a conflict copy.
      const content = chapter.content === '' ? marker : `${chapter.content}\n\n${marker} wrote this line`;
      await a.m.chapters.update(chapter.id, { content });
      a.written.push({ chapterId: chapter.id, marker });
      return;
    }
    case 'newChapter': {
      const books = (await a.db.books.where('seriesId').equals(seriesId).toArray()).filter((b) => !b.deletedAt);
      if (books.length === 0) return;
      await a.m.chapters.create({ bookId: books[0]!.id, title: `By ${a.name}`, content: '' });
      return;
    }
    case 'offline':
      a.offline = true;
      a.pokes.length = 0; // the stream dropped with the network
      return;
    case 'syncLive': {
      await step(app, owner, authors, seriesId, { t: 'sync', who: s.who });
      for (const [i, other] of authors.entries()) if (!other.offline) await step(app, owner, authors, seriesId, { t: 'deliver', who: i, order: 'in order', pick: 0 });
      return;
    }
    case 'deliver': {
      await app.deps.hub.idle();
      const before = new Map((await a.db.chapters.toArray()).map((c) => [c.id, c.rev]));
      for (const poke of delivery(a.pokes.splice(0), s.order, s.pick)) {
        figures.pokesDelivered += 1;
        await a.engine.receive(poke);
      }
      await expectNoInventedRows(app.deps.database.db, a.name, a.db, before);
      return;
    }
    case 'online':
      a.offline = false;
      return;
    case 'sync':
      clock += 61 * 60_000;
      await a.engine.sync();
      return;
  }
}

/** Why a dead letter exists; 'UNEXPECTED …' fails the property. */
function reasonOf(letter: { status: number; response: { code: string; message: string } | null }): string {
  if (letter.status === 403 && letter.response?.code === 'FORBIDDEN') return "403 a viewer's write";
  if (letter.status === 404 && letter.response?.code === 'NOT_FOUND') return '404 access lost';
  if (letter.status === 0 && letter.response?.code === 'FORBIDDEN') return 'purged: the series left the device';
  return `UNEXPECTED ${letter.status} ${letter.response?.code} ${letter.response?.message}`;
}

async function runScenario(steps: Step[]): Promise<void> {
  const app = await server();
  const owner = await openDevice(app, 'owner', 'loremaster');
  owner.role = 'owner';
  const authors = [owner, await openDevice(app, 'ann', 'apprentice'), await openDevice(app, 'bea', 'apprentice'), await openDevice(app, 'cal', 'apprentice')];
  try {
    const series = await owner.m.series.create({ title: 'The Shared Saga' });
    const book = await owner.m.books.create({ seriesId: series.id, title: 'Book One' });
    await owner.m.chapters.create({ bookId: book.id, title: 'One', content: 'It began.' });
    await owner.m.chapters.create({ bookId: book.id, title: 'Two', content: 'It went on.' });
    await owner.engine.sync();
    figures.runs += 1;

    for (const s of steps) {
      figures.steps += 1;
      await step(app, owner, authors, series.id, s);
    }

    // Heal and quiesce: everyone online, hears what is left on the channel, and pushes and pulls
    // until every outbox is empty.
    for (const a of authors) a.offline = false;
    for (const a of authors) await step(app, owner, authors, series.id, { t: 'deliver', who: authors.indexOf(a), order: 'shuffled', pick: 7 });
    for (let round = 0; round < 20; round++) {
      for (const a of authors) {
        clock += 61 * 60_000;
        await a.engine.sync();
      }
      if ((await Promise.all(authors.map((a) => a.db.outbox.count()))).every((n) => n === 0)) break;
    }
    for (const a of authors) await a.engine.pull();

    const sdb = app.deps.database.db;
    const serverChapters = await sdb.selectFrom('chapters').select(['id', 'content']).where('seriesId', '=', series.id).where('deletedAt', 'is', null).execute();
    const serverBooks = await sdb.selectFrom('books').select(['id', 'title']).where('seriesId', '=', series.id).where('deletedAt', 'is', null).execute();
    const sorted = <T extends { id: string }>(rows: T[]) => [...rows].sort((x, y) => (x.id < y.id ? -1 : 1));

    for (const a of authors) {
      expect(await a.db.outbox.count(), `${a.name} outbox`).toBe(0);
      if (a.role !== null) {
        const chapters = (await a.db.chapters.where('seriesId').equals(series.id).toArray()).filter((c) => !c.deletedAt);
        expect(sorted(chapters.map((c) => ({ id: c.id, content: c.content }))), `${a.name} (${a.role}) chapters`).toEqual(sorted(serverChapters));
        const books = (await a.db.books.where('seriesId').equals(series.id).toArray()).filter((b) => !b.deletedAt);
        expect(sorted(books.map((b) => ({ id: b.id, title: b.title }))), `${a.name} books`).toEqual(sorted(serverBooks));
      } else {
        // Nothing of the series is left on a non-member's device.
        expect(await a.db.series.get(series.id), `${a.name} series row`).toBeUndefined();
        for (const kind of SERIES_CHILD_KINDS) {
          expect(await a.db.table(kind).where('seriesId').equals(series.id).count(), `${a.name} ${kind}`).toBe(0);
        }
        if (a.written.length > 0) figures.purgedDevices += 1;
      }
      // Every dead letter has a reason we can name.
      const letters = await a.db.deadLetters.toArray();
      for (const letter of letters) {
        const reason = reasonOf(letter as never);
        figures.deadLetters[reason] = (figures.deadLetters[reason] ?? 0) + 1;
        expect(reason, JSON.stringify(letter).slice(0, 400)).not.toMatch(/^UNEXPECTED/);
      }
      // No write lost: on the server (a revision or a conflict copy), or kept in the author's dead letters.
      const kept = letters.map((l) => JSON.stringify(l)).join('\n');
      for (const { chapterId, marker } of a.written) {
        const revisions = await sdb.selectFrom('revisions').select('snapshot').where('entity', '=', 'chapters').where('entityId', '=', chapterId).execute();
        const conflicts = await sdb.selectFrom('chapterConflicts').select('content').where('chapterId', '=', chapterId).execute();
        const onServer = revisions.some((r) => r.snapshot.includes(marker)) || conflicts.some((c) => c.content.includes(marker));
        expect(onServer || kept.includes(marker), `${a.name}'s ${marker} in chapter ${chapterId} is lost`).toBe(true);
      }
    }
  } finally {
    for (const a of authors) {
      a.stopHearing();
      a.engine.stop();
      a.db.close();
    }
  }
}

describe('convergence with membership (property)', () => {
  afterAll(async () => {
    console.info(`[membership convergence] ${JSON.stringify(figures)}`);
    if (sharedApp) await (await sharedApp).close();
  });

  it(`owners and members converge; removed members keep nothing of the series; no write lost (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 8, maxLength: 40 }), async (steps) => runScenario(steps)),
      { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}), endOnFailure: true, verbose: 1, examples: [[EXAMPLE]] },
    );
    // The paths that matter were walked: a viewer's refused write and a removed member's purged one.
    expect(figures.deadLetters["403 a viewer's write"] ?? 0).toBeGreaterThan(0);
    expect((figures.deadLetters['purged: the series left the device'] ?? 0) + (figures.deadLetters['404 access lost'] ?? 0)).toBeGreaterThan(0);
    // …and collaborators' saves reached devices on the live channel, without a pull.
    expect(figures.carriedRowsWritten).toBeGreaterThan(0);
  }, 20 * 60_000);
});
