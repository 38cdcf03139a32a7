/**
 * The convergence property: 2–4 client engines, each with its OWN IndexedDB, against the
 * REAL server app (buildApp over an in-memory SQLite, driven through app.inject) behind a
 * fault-injecting fetch — partitions, dropped requests, answers lost after the server committed,
 * duplicated requests, client crashes mid-flight (engine dropped, database closed, reopened), and
 * injected 503 (with Retry-After) and 422 answers. Random creates, updates, deletes, reorders and
 * chapter edits, several clients editing the same chapter.
 *
 * After healing and quiescing (push until every outbox is empty, then pull):
 * - every client's tables equal the server's view (the changes feed from 0), and no shadows remain;
 * - no acknowledged write is lost: every client's last saved text of every chapter is in the
 *   chapter's stored revisions, in a conflict copy, or in that client's dead letters — and every
 *   dead letter has a reason we can name (an injected 422, a plan gate, a dependant of one, a
 *   reference to a row deleted elsewhere);
 * - no text is merged away: a marker that leaves a chapter between two stored revisions was
 *   removed by the save that wrote the later one, from a base in which its author had it;
 * - no effect applied twice: the server's global seq equals the number of distinct committed
 *   idempotency keys (every write of every run carries one), and every answer a client took as
 *   done is the server's recorded answer to that key;
 * - every outbox is empty.
 *
 * On PostgreSQL (TEST_STORAGE=postgres with TEST_DATABASE_URL, the `postgres` project of
 * vitest.config.ts) the server is TWO instances on one database, as behind a load balancer
 * (docs/server.md#postgresql): the clients are spread over them, so every write, feed page and
 * acknowledgement crosses instances.
 *
 * Runs: SYNC_PROPERTY_RUNS (default 100). Replay a failure with SYNC_PROPERTY_SEED and
 * SYNC_PROPERTY_PATH (printed by fast-check); SYNC_PROPERTY_SHRINK=1 shrinks it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { type ChangesResponse, ENTITY_KINDS, type EntityKind, type PlanName } from '@chronicler/schema';
import {
  type ChroniclerDb,
  type FetchLike,
  type Mutators,
  type RowOf,
  type SyncEngine,
  NotFoundLocallyError,
  ValidationError,
  createMutators,
  createSyncEngine,
  createSyncStatusStore,
  openChroniclerDb,
  referencedIds,
} from '@chronicler/sync-client';
import { type App, buildApp } from '@chronicler/sync-server';
import { testConfig, testDatabaseUrl } from '@chronicler/sync-server/config';
import { type StoredRecord, markUserChanged, recordedAnswer, runServerWrite } from '@chronicler/sync-server/repository';

/** A stored idempotency record's answer pieces. */
type RecordedAnswerParts = Pick<StoredRecord, 'response' | 'snapshotRev' | 'snapshot'>;

type ServerApp = App;
type InjectResponse = Awaited<ReturnType<ServerApp['inject']>>;
// Kysely, loosely typed: the test only runs a few selects.
type ServerDb = any;

const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
const RUNS = Number(env.SYNC_PROPERTY_RUNS ?? 100);
const SEED = env.SYNC_PROPERTY_SEED !== undefined ? Number(env.SYNC_PROPERTY_SEED) : undefined;
const PATH = env.SYNC_PROPERTY_PATH;
const SHRINK = env.SYNC_PROPERTY_SHRINK === '1';

// ---------------------------------------------------------------------------------------------
// Scenario

type OpType =
  | 'edit'
  | 'rename'
  | 'createChapter'
  | 'deleteChapter'
  | 'reorderChapters'
  | 'createBook'
  | 'updateBook'
  | 'deleteBook'
  | 'createCharacter'
  | 'updateCharacter'
  | 'deleteCharacter'
  | 'createRelationship'
  | 'createEvent'
  | 'reorderEvents'
  | 'updateSeries'
  | 'resolveConflict'
  | 'serverSetsRecord'
  | 'sync'
  | 'partition'
  | 'restart'
  | 'advance';

interface Op {
  t: OpType;
  c: number;
  pick: number;
  mode: number;
}

const OP_WEIGHTS: [OpType, number][] = [
  ['edit', 10],
  ['rename', 2],
  ['createChapter', 3],
  ['deleteChapter', 1],
  ['reorderChapters', 2],
  ['createBook', 1],
  ['updateBook', 1],
  ['deleteBook', 1],
  ['createCharacter', 2],
  ['updateCharacter', 2],
  ['deleteCharacter', 1],
  ['createRelationship', 2],
  ['createEvent', 2],
  ['reorderEvents', 1],
  ['updateSeries', 1],
  ['resolveConflict', 1],
  ['serverSetsRecord', 1],
  ['sync', 12],
  ['partition', 2],
  ['restart', 2],
  ['advance', 2],
];

const opArb: fc.Arbitrary<Op> = fc.record({
  t: fc.oneof(...OP_WEIGHTS.map(([t, weight]) => ({ arbitrary: fc.constant(t), weight }))),
  c: fc.nat(3),
  pick: fc.nat(1_000),
  mode: fc.nat(5),
});

interface Scenario {
  clients: number;
  plan: PlanName;
  faultSeed: number;
  /** Probability that a request meets some fault. */
  faultRate: number;
  /** Send backlogs of 3+ entries through POST /api/sync/batch. */
  batch: boolean;
  ops: Op[];
}

const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  clients: fc.integer({ min: 2, max: 4 }),
  plan: fc.constantFrom<PlanName>('legendary', 'legendary', 'legendary', 'apprentice'),
  faultSeed: fc.integer(),
  faultRate: fc.constantFrom(0, 0.2, 0.35, 0.5),
  batch: fc.boolean(),
  ops: fc.array(opArb, { minLength: 6, maxLength: 30 }),
});

// ---------------------------------------------------------------------------------------------
// Figures reported at the end

const figures = {
  /** Server instances the clients were spread over (two on PostgreSQL). */
  instances: 0,
  runs: 0,
  clients: 0,
  ops: 0,
  opsApplied: 0,
  requests: 0,
  batchRequests: 0,
  faults: { partitioned: 0, dropped: 0, injected503: 0, injected422: 0, responseLost: 0, duplicated: 0, crashes: 0 },
  acked: 0,
  mergeStatus: {} as Record<string, number>,
  deadLetters: {} as Record<string, number>,
  conflictCopies: 0,
  savedTexts: 0,
  /** Markers that left a chapter between two revisions, each checked to be the saving author's own removal. */
  removalsChecked: 0,
  quiesceRounds: 0,
};

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------------------------
// Clients

interface Client {
  name: string;
  /** The server instance this client's requests reach. */
  app: ServerApp;
  factory: IDBFactory;
  cookie: string;
  db: ChroniclerDb;
  engine: SyncEngine;
  m: Mutators;
  partitioned: boolean;
  crashArmed: boolean;
  crashed: boolean;
  /** chapterId → the marker of the last text this client saved in it. */
  lastSaved: Map<string, string>;
  /** idemKey → HTTP status of every answer this client took as done. */
  acked: Map<string, number>;
}

interface World {
  app: ServerApp;
  serverDb: ServerDb;
  userId: string;
  clients: Client[];
  clock: { now: () => number; advance: (ms: number) => void };
  rng: () => number;
  faultRate: number;
  faultsOn: boolean;
  batch: boolean;
  markerCount: number;
  /** Every chapter save sent, by Idempotency-Key. */
  sent: Map<string, SentSave>;
  plan: PlanName;
}

/**
 * Writes the server makes on its own behalf (no idempotency record), on the shared server across
 * runs: each registration, and each 'serverSetsRecord' op (the author's record, a user-scoped row).
 */
let serverWrites = 0;
const TIME_ZONES = ['Europe/Paris', 'America/New_York', 'Asia/Tokyo', 'UTC'];

function toResponse(res: InjectResponse): Response {
  const headers = new Headers();
  for (const [k, v] of Object.entries(res.headers)) {
    if (v === undefined || k === 'content-length' || k === 'transfer-encoding' || k === 'connection') continue;
    headers.set(k, Array.isArray(v) ? v.join(', ') : String(v));
  }
  const status = res.statusCode;
  return new Response(status === 204 || status === 304 ? null : res.body, { status, headers });
}

/** What a chapter save sent: its text and base revision, by Idempotency-Key. */
interface SentSave {
  chapterId: string;
  content: string;
  baseRev: number | null;
}

function recordSent(world: World, path: string, method: string, init: RequestInit): void {
  if (typeof init.body !== 'string') return;
  const body = JSON.parse(init.body) as unknown;
  const one = (m: string, p: string, key: string | undefined, base: number | null, b: unknown) => {
    const match = /^\/api\/chapters\/([0-9a-f-]{36})$/.exec(p);
    const content = (b as { content?: unknown } | null)?.content;
    if (m === 'PUT' && match && key && typeof content === 'string') world.sent.set(key, { chapterId: match[1]!, content, baseRev: base });
  };
  const headers = (init.headers ?? {}) as Record<string, string>;
  if (path === '/api/sync/batch') {
    for (const e of (body as { entries: { method: string; path: string; headers?: { idempotencyKey?: string; baseRev?: number | null }; body?: unknown }[] }).entries) {
      one(e.method, e.path, e.headers?.idempotencyKey, e.headers?.baseRev ?? null, e.body);
    }
  } else {
    one(method, path, headers['Idempotency-Key'], headers['X-Base-Rev'] !== undefined ? Number(headers['X-Base-Rev']) : null, body);
  }
}

function faultyFetch(world: World, client: Client): FetchLike {
  return async (url, init) => {
    figures.requests += 1;
    const u = new URL(url);
    const path = u.pathname + u.search;
    const method = init.method ?? 'GET';
    const isWrite = method !== 'GET';
    if (path === '/api/sync/batch') figures.batchRequests += 1;
    recordSent(world, path, method, init);
    if (client.partitioned) {
      figures.faults.partitioned += 1;
      throw new TypeError('Failed to fetch (partition)');
    }
    const roll = world.faultsOn ? world.rng() : 1;
    const rate = world.faultRate;
    // One fault at most per request, spread over six kinds.
    const slot = roll < rate ? Math.floor((roll / rate) * 6) : -1;
    if (slot === 0) {
      figures.faults.dropped += 1;
      throw new TypeError('Failed to fetch (dropped)');
    }
    if (slot === 1) {
      figures.faults.injected503 += 1;
      return new Response(JSON.stringify({ message: 'Service unavailable', code: 'INTERNAL' }), {
        status: 503,
        headers: { 'content-type': 'application/json', 'retry-after': String(1 + Math.floor(world.rng() * 120)) },
      });
    }
    if (slot === 2 && isWrite) {
      figures.faults.injected422 += 1;
      return new Response(JSON.stringify({ message: 'Injected rejection', code: 'VALIDATION_FAILED' }), {
        status: 422,
        headers: { 'content-type': 'application/json' },
      });
    }
    const crashNow = client.crashArmed && isWrite;
    if (crashNow && world.rng() < 0.5) {
      // Crash before the request left the device.
      crash(client);
      throw new TypeError('Failed to fetch (client crashed)');
    }
    const headers: Record<string, string> = { ...(init.headers as Record<string, string>), cookie: client.cookie };
    const deliver = () =>
      client.app.inject({ method, url: path, headers, ...(typeof init.body === 'string' ? { payload: init.body } : {}) });
    let res: InjectResponse;
    if (slot === 3) {
      figures.faults.duplicated += 1;
      const both = await Promise.all([deliver(), deliver()]);
      res = both[world.rng() < 0.5 ? 0 : 1];
    } else {
      res = await deliver();
    }
    if (crashNow) {
      // Crash with the request committed on the server and its answer lost.
      crash(client);
      throw new TypeError('Failed to fetch (client crashed)');
    }
    if (slot === 4) {
      figures.faults.responseLost += 1;
      throw new TypeError('Failed to fetch (response lost)');
    }
    return toResponse(res);
  };
}

function crash(client: Client) {
  figures.faults.crashes += 1;
  client.crashArmed = false;
  client.crashed = true;
  // The database first: a crashed tab runs no more code, so nothing may be written after this.
  client.db.close();
  client.engine.stop();
}

function openClient(world: World, client: Omit<Client, 'db' | 'engine' | 'm'> & Partial<Client>): Client {
  const c = client as Client;
  c.db = openChroniclerDb(world.userId, { indexedDB: c.factory, IDBKeyRange });
  c.crashed = false;
  c.engine = createSyncEngine({
    db: c.db,
    fetch: faultyFetch(world, c),
    baseUrl: 'http://chronicler.test',
    now: world.clock.now,
    random: world.rng,
    locks: null,
    eventSource: null,
    status: createSyncStatusStore(),
    platform: { window: null, document: null },
    timers: { setTimeout: () => 0, clearTimeout: () => undefined, setInterval: () => 0, clearInterval: () => undefined },
    batchThreshold: world.batch ? 3 : Number.MAX_SAFE_INTEGER,
  });
  c.engine.on((event) => {
    if (event.type === 'acked') {
      c.acked.set(event.idemKey, event.status);
      figures.acked += 1;
      if (event.mergeStatus) figures.mergeStatus[event.mergeStatus] = (figures.mergeStatus[event.mergeStatus] ?? 0) + 1;
    }
  });
  c.m = createMutators(c.db, { now: world.clock.now });
  return c;
}

function restart(world: World, client: Client): Client {
  if (!client.crashed) {
    client.engine.stop();
    client.db.close();
  }
  return openClient(world, client);
}

async function login(app: ServerApp, username: string, password: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/login', payload: { username, password } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const setCookie = res.headers['set-cookie'];
  const first = (Array.isArray(setCookie) ? setCookie : [String(setCookie)]).find((c) => c.startsWith('chronicler_session='));
  if (!first) throw new Error('no session cookie');
  return first.split(';')[0]!;
}

// ---------------------------------------------------------------------------------------------
// Operations

const byId = <T extends { id: string }>(rows: T[]) => rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
const pickFrom = <T>(rows: T[], pick: number): T | undefined => (rows.length === 0 ? undefined : rows[pick % rows.length]);

async function liveRows<K extends EntityKind>(db: ChroniclerDb, kind: K): Promise<RowOf<K>[]> {
  const rows = (await db.table(kind).toArray()) as RowOf<K>[];
  return byId(rows.filter((r) => !r.deletedAt));
}

function nextMarker(world: World, client: Client): string {
  world.markerCount += 1;
  return `«${client.name}-${world.markerCount}»`;
}

function record(client: Client, chapterId: string, marker: string) {
  client.lastSaved.set(chapterId, marker);
  figures.savedTexts += 1;
}

async function applyOp(world: World, op: Op): Promise<boolean> {
  const index = op.c % world.clients.length;
  let client = world.clients[index]!;
  const { db, m } = client;
  const words = `Line ${op.pick} of the tale`;
  switch (op.t) {
    case 'edit': {
      const chapter = pickFrom(await liveRows(db, 'chapters'), op.pick);
      if (!chapter) return false;
      const marker = nextMarker(world, client);
      const paragraphs = chapter.content === '' ? [] : chapter.content.split('\n\n');
      const para = `${marker} ${words}`;
      if (op.mode <= 1 || paragraphs.length === 0) paragraphs.push(para);
      else if (op.mode === 2) paragraphs.unshift(para);
      else paragraphs[op.pick % paragraphs.length] = para;
      await m.chapters.update(chapter.id, { content: paragraphs.join('\n\n') });
      record(client, chapter.id, marker);
      return true;
    }
    case 'rename': {
      const chapter = pickFrom(await liveRows(db, 'chapters'), op.pick);
      if (!chapter) return false;
      await m.chapters.update(chapter.id, { title: `Chapter ${op.pick}`, status: op.mode % 2 ? 'draft' : 'revision' });
      return true;
    }
    case 'createChapter': {
      const book = pickFrom(await liveRows(db, 'books'), op.pick);
      if (!book) return false;
      const marker = nextMarker(world, client);
      const chapter = await m.chapters.create({ bookId: book.id, title: `New ${op.pick}`, content: `${marker} ${words}` });
      record(client, chapter.id, marker);
      return true;
    }
    case 'deleteChapter': {
      const chapter = pickFrom(await liveRows(db, 'chapters'), op.pick);
      if (!chapter) return false;
      await m.chapters.delete(chapter.id);
      return true;
    }
    case 'reorderChapters': {
      const book = pickFrom(await liveRows(db, 'books'), op.pick);
      if (!book) return false;
      const chapters = (await liveRows(db, 'chapters')).filter((c) => c.bookId === book.id);
      if (chapters.length < 2) return false;
      const rotated = [...chapters.slice(op.pick % chapters.length), ...chapters.slice(0, op.pick % chapters.length)].reverse();
      await m.chapters.reorder({ chapters: rotated.map((c, i) => ({ id: c.id, position: i + 1 })) });
      return true;
    }
    case 'createBook': {
      const series = pickFrom(await liveRows(db, 'series'), op.pick);
      if (!series) return false;
      await m.books.create({ seriesId: series.id, title: `Book ${op.pick}` });
      return true;
    }
    case 'updateBook': {
      const book = pickFrom(await liveRows(db, 'books'), op.pick);
      if (!book) return false;
      await m.books.update(book.id, op.mode % 2 ? { title: `Book ${op.pick}` } : { status: 'revision', description: words });
      return true;
    }
    case 'deleteBook': {
      const books = await liveRows(db, 'books');
      if (books.length < 2) return false; // keep somewhere to write
      await m.books.delete(pickFrom(books, op.pick)!.id);
      return true;
    }
    case 'createCharacter': {
      const series = pickFrom(await liveRows(db, 'series'), op.pick);
      if (!series) return false;
      await m.characters.create({ seriesId: series.id, name: `Character ${op.pick}`, bookAppearances: [1 + (op.pick % 5)] });
      return true;
    }
    case 'updateCharacter': {
      const character = pickFrom(await liveRows(db, 'characters'), op.pick);
      if (!character) return false;
      await m.characters.update(character.id, op.mode % 2 ? { isProtagonist: !character.isProtagonist } : { occupation: words, goals: `Goal ${op.mode}` });
      return true;
    }
    case 'deleteCharacter': {
      const character = pickFrom(await liveRows(db, 'characters'), op.pick);
      if (!character) return false;
      await m.characters.delete(character.id);
      return true;
    }
    case 'createRelationship': {
      const characters = await liveRows(db, 'characters');
      if (characters.length < 2) return false;
      const source = pickFrom(characters, op.pick)!;
      const target = pickFrom(characters, op.pick + 1 + op.mode)!;
      if (source.id === target.id || source.seriesId !== target.seriesId) return false;
      await m.relationships.create({ sourceCharacterId: source.id, targetCharacterId: target.id, relationshipType: 'ally' });
      return true;
    }
    case 'createEvent': {
      const series = pickFrom(await liveRows(db, 'series'), op.pick);
      if (!series) return false;
      const characters = (await liveRows(db, 'characters')).filter((c) => c.seriesId === series.id);
      const book = pickFrom((await liveRows(db, 'books')).filter((b) => b.seriesId === series.id), op.pick);
      await m.timelineEvents.create({
        seriesId: series.id,
        title: `Event ${op.pick}`,
        characterIds: characters.slice(0, op.mode % 3).map((c) => c.id),
        bookId: book?.id ?? null,
        position: op.mode,
      });
      return true;
    }
    case 'reorderEvents': {
      const events = await liveRows(db, 'timelineEvents');
      if (events.length < 2) return false;
      const seriesId = events[0]!.seriesId;
      const same = events.filter((e) => e.seriesId === seriesId).reverse();
      await m.timelineEvents.reorder({ events: same.map((e, i) => ({ id: e.id, position: i + 1 })) });
      return true;
    }
    case 'updateSeries': {
      const series = pickFrom(await liveRows(db, 'series'), op.pick);
      if (!series) return false;
      await m.series.update(series.id, op.mode % 2 ? { description: words } : { name: `Saga ${op.pick}` });
      return true;
    }
    case 'serverSetsRecord': {
      // A change of the author's own record from elsewhere (a payment, the operator command): a
      // user-scoped row every device must end up holding, like any row.
      await runServerWrite(world.app.deps, (ctx) =>
        markUserChanged(ctx, world.userId, { plan: world.plan, timeZone: TIME_ZONES[op.pick % TIME_ZONES.length]! }),
      );
      serverWrites += 1;
      return true;
    }
    case 'resolveConflict': {
      const conflict = pickFrom(await liveRows(db, 'chapterConflicts'), op.pick);
      if (!conflict) return false;
      const chapter = await db.chapters.get(conflict.chapterId);
      if (op.mode % 2 && chapter && !chapter.deletedAt) {
        // Take their copy: a chapter save of the copy's text (it keeps its own markers).
        await m.conflicts.resolve(conflict.id, { content: conflict.content });
        const marker = /«[^»]+»/.exec(conflict.content)?.[0];
        if (marker) record(client, conflict.chapterId, marker);
      } else {
        await m.conflicts.resolve(conflict.id);
      }
      return true;
    }
    case 'sync':
      await client.engine.sync();
      return true;
    case 'partition':
      client.partitioned = !client.partitioned;
      return true;
    case 'restart':
      if (op.mode % 2) {
        client.crashArmed = true;
        await client.engine.sync();
        client.crashArmed = false;
      }
      client = restart(world, client);
      world.clients[index] = client;
      return true;
    case 'advance':
      world.clock.advance(1_000 + op.pick * 130);
      return true;
  }
}

// ---------------------------------------------------------------------------------------------
// The server's view and the checks

async function serverView(world: World): Promise<Record<EntityKind, Map<string, { id: string; rev: number; deletedAt: string | null }>>> {
  const view = Object.fromEntries(ENTITY_KINDS.map((k) => [k, new Map()])) as Record<EntityKind, Map<string, { id: string; rev: number; deletedAt: string | null }>>;
  let since = 0;
  for (;;) {
    const res = await world.app.inject({ method: 'GET', url: `/api/sync/changes?since=${since}&limit=10000`, headers: { cookie: world.clients[0]!.cookie } });
    expect(res.statusCode).toBe(200);
    const page = JSON.parse(res.body) as ChangesResponse;
    for (const kind of ENTITY_KINDS) {
      for (const row of page.changes[kind] as { id: string; rev: number; deletedAt: string | null }[]) {
        const known = view[kind].get(row.id);
        if (!known || known.rev <= row.rev) view[kind].set(row.id, row);
      }
    }
    since = page.cursor;
    if (!page.hasMore) return view;
  }
}

async function quiesce(world: World): Promise<void> {
  world.faultsOn = false;
  for (const c of world.clients) c.partitioned = false;
  for (let round = 0; round < 40; round++) {
    figures.quiesceRounds += 1;
    for (const c of world.clients) {
      world.clock.advance(61 * 60_000);
      await c.engine.sync();
    }
    const counts = await Promise.all(world.clients.map((c) => c.db.outbox.count()));
    if (counts.every((n) => n === 0)) break;
  }
  for (const c of world.clients) await c.engine.pull();
}

/**
 * The reason of a dead letter, named; 'UNEXPECTED …' fails the property. `deleted` holds the ids of
 * server tombstones: a 404, or a 422 about a reference, is nameable only when the entry names one.
 */
function reasonOf(
  letter: { status: number; response: { message: string; code: string } | null; causedBy?: string; entry: { path: string; body: unknown; entityId: string } },
  deleted: ReadonlySet<string>,
): string {
  if (letter.causedBy) return 'dependant of a rejected create';
  if (letter.status === 422 && letter.response?.message === 'Injected rejection') return 'injected 422';
  if (letter.status === 403 && (letter.response?.code === 'PLAN_LIMIT' || letter.response?.code === 'FEATURE_LOCKED')) return `403 ${letter.response.code}`;
  const refersToDeleted = [...referencedIds(letter.entry)].some((id) => deleted.has(id));
  if (letter.status === 404 && letter.response?.code === 'NOT_FOUND' && refersToDeleted) return '404 names a row deleted elsewhere';
  if (letter.status === 422 && /must belong to/.test(letter.response?.message ?? '') && refersToDeleted) return '422 references a row deleted elsewhere';
  // Saved onto a row (or under a parent) a delete elsewhere had removed: the words are kept here.
  if (letter.status >= 200 && letter.status < 300 && letter.response?.code === 'CONFLICT' && (deleted.has(letter.entry.entityId) || refersToDeleted)) {
    return 'saved onto a row deleted elsewhere';
  }
  return `UNEXPECTED ${letter.status} ${letter.response?.code} ${letter.response?.message}`;
}

async function checkInvariants(world: World): Promise<void> {
  // All outboxes empty, no rebase state left.
  for (const c of world.clients) {
    expect(await c.db.outbox.count(), `${c.name} outbox`).toBe(0);
    expect(await c.db.shadows.count(), `${c.name} shadows`).toBe(0);
  }

  // Every client's tables equal the server's view.
  const view = await serverView(world);
  for (const c of world.clients) {
    for (const kind of ENTITY_KINDS) {
      const server = byId([...view[kind].values()].filter((r) => r.deletedAt === null));
      const local = byId((await c.db.table(kind).toArray()) as { id: string }[]);
      expect(local, `${c.name} ${kind} equals the server`).toEqual(server);
    }
  }

  // No effect applied twice: each committed write took one seq and has one idempotency record.
  const seq = await world.serverDb.selectFrom('syncState').select('value').where('name', '=', 'seq').executeTakeFirstOrThrow();
  const keys = (await world.serverDb.selectFrom('idempotencyKeys').select(['key', 'statusCode']).execute()) as { key: string; statusCode: number }[];
  const recorded = new Map(keys.map((k) => [k.key, k.statusCode]));
  const committed = keys.filter((k) => k.statusCode >= 200 && k.statusCode < 300).length;
  expect(Number(seq.value), 'global seq = committed idempotent writes + the server\'s own writes').toBe(committed + serverWrites);
  // Every answer a client took as done is the server's recorded answer to that key (a DELETE's 404:
  // already gone, recorded as such).
  for (const c of world.clients) for (const [key, status] of c.acked) expect(recorded.get(key), `${c.name} acked ${key}`).toBe(status);

  // Dead letters: each for a reason we can name.
  const deleted = new Set<string>();
  for (const kind of ENTITY_KINDS) for (const row of view[kind].values()) if (row.deletedAt !== null) deleted.add(row.id);
  const letters = new Map<string, { text: string }[]>();
  for (const c of world.clients) {
    const mine = await c.db.deadLetters.toArray();
    letters.set(c.name, mine.map((l) => ({ text: JSON.stringify(l.content) })));
    for (const l of mine) {
      const reason = reasonOf(l, deleted);
      figures.deadLetters[reason] = (figures.deadLetters[reason] ?? 0) + 1;
      expect(reason, `${c.name} dead letter ${l.entry.method} ${l.entry.path}`).not.toMatch(/^UNEXPECTED/);
    }
  }

  // No saved text lost.
  const revisions = (await world.serverDb
    .selectFrom('revisions')
    .select(['entityId', 'rev', 'snapshot'])
    .where('entity', '=', 'chapters')
    .orderBy('rev')
    .execute()) as {
    entityId: string;
    rev: number;
    snapshot: string;
  }[];
  const copies = (await world.serverDb.selectFrom('chapterConflicts').select(['chapterId', 'content']).execute()) as { chapterId: string; content: string }[];
  figures.conflictCopies += copies.filter((copy) => view.chapters.has(copy.chapterId)).length;
  for (const c of world.clients) {
    for (const [chapterId, marker] of c.lastSaved) {
      const inRevision = revisions.some((r) => r.entityId === chapterId && r.snapshot.includes(marker));
      const inCopy = copies.some((r) => r.chapterId === chapterId && r.content.includes(marker));
      const inDeadLetter = letters.get(c.name)!.some((l) => l.text.includes(marker));
      expect(inRevision || inCopy || inDeadLetter, `${c.name}'s last text ${marker} of chapter ${chapterId} survives`).toBe(true);
    }
  }

  // No text dropped by a merge: a marker that leaves a chapter between two revisions was removed
  // by the save that wrote the later one, from a text whose base the saving author had seen with
  // that marker in it (their own deliberate edit), never by the server merging it away.
  const answers = new Map<string, string[]>(); // `${chapterId}@${rev}` → idempotency keys answered with it
  // An answer recorded by reference continues its revision snapshot (migration 0002).
  const puts = (await world.serverDb
    .selectFrom('idempotencyKeys as k')
    .leftJoin('revisions as r', (join: any) =>
      join.onRef('r.entity', '=', 'k.snapshotEntity').onRef('r.entityId', '=', 'k.snapshotEntityId').onRef('r.rev', '=', 'k.snapshotRev'),
    )
    .select(['k.key', 'k.response', 'k.snapshotRev', 'r.snapshot'])
    .where('k.statusCode', '=', 200)
    .execute()) as (RecordedAnswerParts & { key: string })[];
  for (const p of puts) {
    const sent = world.sent.get(p.key);
    if (!sent) continue;
    const answer = JSON.parse(recordedAnswer(p)) as { id?: string; rev?: number };
    const at = `${answer.id}@${answer.rev}`;
    answers.set(at, [...(answers.get(at) ?? []), p.key]);
  }
  const markersOf = (text: string) => new Set(text.match(/«[^»]+»/g) ?? []);
  const byChapter = new Map<string, { rev: number; content: string }[]>();
  for (const r of revisions) {
    if (!view.chapters.has(r.entityId)) continue;
    const list = byChapter.get(r.entityId) ?? [];
    list.push({ rev: r.rev, content: (JSON.parse(r.snapshot) as { content: string }).content });
    byChapter.set(r.entityId, list);
  }
  for (const [chapterId, list] of byChapter) {
    for (let i = 1; i < list.length; i++) {
      const before = markersOf(list[i - 1]!.content);
      const after = markersOf(list[i]!.content);
      const removed = [...before].filter((m) => !after.has(m));
      if (removed.length === 0) continue;
      const writers = (answers.get(`${chapterId}@${list[i]!.rev}`) ?? []).map((key) => world.sent.get(key)!);
      for (const marker of removed) {
        figures.removalsChecked += 1;
        const seenAndRemoved = writers.some((w) => {
          if (w.content.includes(marker)) return false;
          if (w.baseRev === null) return true; // a plain write without base: the author's whole text
          const base = [...list].reverse().find((r) => r.rev <= w.baseRev!);
          return base !== undefined && base.content.includes(marker);
        });
        expect(seenAndRemoved, `${marker} left chapter ${chapterId} at rev ${list[i]!.rev} without its remover having seen it`).toBe(true);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------

async function startInstance(config: ReturnType<typeof testConfig>): Promise<ServerApp> {
  const app = await buildApp(config);
  await app.ready();
  return app;
}

/**
 * One server for every run (each run has its own author), built on first use: one instance on
 * SQLite, two on one PostgreSQL database.
 */
let sharedApps: Promise<ServerApp[]> | null = null;
function server(): Promise<ServerApp[]> {
  sharedApps ??= startInstance(testConfig()).then(async (first) => {
    if (testDatabaseUrl() === null) return [first];
    return [first, await startInstance(testConfig({ databaseUrl: first.deps.database.url!, throwawayDatabase: false }))];
  });
  return sharedApps;
}

let runCounter = 0;

async function runScenario(scenario: Scenario): Promise<void> {
  const apps = await server();
  const app = apps[0]!;
  figures.instances = apps.length;
  const clients: Client[] = [];
  try {
    runCounter += 1;
    const username = `author${runCounter}_${Math.floor(Math.random() * 1e9)}`;
    const password = 'correct horse battery';
    const reg = await app.inject({ method: 'POST', url: '/api/register', payload: { username, password, displayName: 'Author' } });
    expect(reg.statusCode).toBe(201);
    serverWrites += 1; // the account's record takes a seq (user-scoped kind `users`)
    const userId = (JSON.parse(reg.body) as { id: string }).id;
    const serverDb = app.deps.database.db;
    await serverDb.updateTable('users').set({ plan: scenario.plan }).where('id', '=', userId).execute();

    let t = Date.parse('2026-03-01T09:00:00.000Z');
    const world: World = {
      app,
      serverDb,
      userId,
      clients,
      clock: { now: () => t, advance: (ms) => void (t += ms) },
      rng: mulberry32(scenario.faultSeed),
      faultRate: scenario.faultRate,
      faultsOn: false,
      batch: scenario.batch,
      markerCount: 0,
      sent: new Map(),
      plan: scenario.plan,
    };
    for (let i = 0; i < scenario.clients; i++) {
      const instance = apps[i % apps.length]!;
      const cookie = await login(instance, username, password);
      world.clients.push(
        openClient(world, {
          name: `c${i}`,
          app: instance,
          factory: new IDBFactory(),
          cookie,
          partitioned: false,
          crashArmed: false,
          crashed: false,
          lastSaved: new Map(),
          acked: new Map(),
        }),
      );
    }
    figures.runs += 1;
    figures.clients += scenario.clients;

    // A shared starting point: one series, a book with two chapters, two characters, synced everywhere.
    const first = world.clients[0]!;
    const series = await first.m.series.create({ title: 'The Shared Saga' });
    const book = await first.m.books.create({ seriesId: series.id, title: 'Book One' });
    for (const [i, text] of ['First paragraph.\n\nSecond paragraph.', 'Another chapter.'].entries()) {
      await first.m.chapters.create({ bookId: book.id, title: `Chapter ${i + 1}`, content: text });
    }
    await first.m.characters.create({ seriesId: series.id, name: 'Ada' });
    await first.m.characters.create({ seriesId: series.id, name: 'Bo' });
    for (const c of world.clients) await c.engine.sync();

    world.faultsOn = scenario.faultRate > 0;
    for (const op of scenario.ops) {
      figures.ops += 1;
      try {
        if (await applyOp(world, op)) figures.opsApplied += 1;
      } catch (error) {
        // A screen would show these; the property only needs the write not to happen.
        if (error instanceof ValidationError || error instanceof NotFoundLocallyError) continue;
        throw error;
      }
    }

    await quiesce(world);
    await checkInvariants(world);
  } finally {
    for (const c of clients) {
      c.engine.stop();
      c.db.close();
    }
  }
}

describe('convergence under faults (property)', () => {
  afterAll(async () => {
    console.info(`[sync convergence] ${JSON.stringify(figures)}`);
    // The second instance first: the first owns the throwaway database.
    if (sharedApps) for (const app of (await sharedApps).reverse()) await app.close();
  });

  it(
    `clients converge on the server's view with nothing lost or applied twice (${RUNS} runs)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(scenarioArb, async (scenario) => {
          await runScenario(scenario);
        }),
        {
          numRuns: RUNS,
          ...(SEED !== undefined ? { seed: SEED } : {}),
          ...(PATH !== undefined ? { path: PATH } : {}),
          endOnFailure: !SHRINK,
          verbose: 1,
        },
      );
    },
    30 * 60_000,
  );
});
