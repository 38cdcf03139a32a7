/**
 * The test page of the sync benches: the REAL local store, mutators and sync engine of the web app
 * (@chronicler/sync-client), bundled as they are and run in Chromium on the server's own origin (session
 * cookie, IndexedDB). Exposes `globalThis.__bench` (see protocol.ts); the Node side drives it.
 *
 * The engine runs as the app runs it (browser fetch with credentials), driven by hand: no Web
 * Locks election, no SSE, no window events — only the pull and push under measurement.
 */
import { newId } from '@chronicler/schema';
import {
  type AnyRow,
  type ChroniclerDb,
  ENTITY_KINDS,
  SERIES_SCOPED_KINDS,
  type FetchLike,
  type SyncEngine,
  createMutators,
  createSyncEngine,
  createSyncStatusStore,
  openChroniclerDb,
  readSyncState,
} from '@chronicler/sync-client';
import type {
  BenchApi,
  BenchKind,
  BareQueueResult,
  BulkPutResult,
  FlushRequest,
  FlushResult,
  PageTiming,
  PlannedMutation,
  PullResult,
  QueueResult,
} from './protocol.ts';

const BASELINE_SUFFIX = '-baseline';
const BARE_SUFFIX = '-bare';

/** Rows of the last kept engine pull, per kind: the baseline's input, already in memory. */
let pulledRows: Map<string, AnyRow[]> | null = null;
/** The database of the last kept pull: where the flush bench queues and flushes. */
let keptDb: ChroniclerDb | null = null;

interface Traffic {
  /** Called when a request starts; answers a function to call when its headers arrived. */
  onRequest: ((path: string, init: RequestInit) => (response: Response) => void) | null;
}

function makeEngine(db: ChroniclerDb, traffic: Traffic): SyncEngine {
  const fetchWithCredentials: FetchLike = async (url, init) => {
    const done = traffic.onRequest?.(url, init);
    const response = await globalThis.fetch(url, { ...init, credentials: 'include' });
    done?.(response);
    return response;
  };
  return createSyncEngine({
    db,
    fetch: fetchWithCredentials,
    baseUrl: '',
    locks: null,
    eventSource: null,
    platform: { window: null, document: null },
    status: createSyncStatusStore(),
  });
}

async function deleteDb(name: string): Promise<void> {
  const db = openChroniclerDb(name);
  await db.delete();
}

async function freshDb(userId: string): Promise<ChroniclerDb> {
  await deleteDb(userId);
  const db = openChroniclerDb(userId);
  await db.open();
  await readSyncState(db);
  return db;
}

async function countRows(db: ChroniclerDb): Promise<{ counts: Partial<Record<BenchKind, number>>; words: number }> {
  const counts: Partial<Record<BenchKind, number>> = {};
  for (const kind of SERIES_SCOPED_KINDS) counts[kind] = await db.table(kind).count();
  let words = 0;
  await db.chapters.each((chapter) => {
    words += chapter.wordCount;
  });
  return { counts, words };
}

/**
 * Times JSON.parse calls while a pull runs (the engine parses each page with it; nothing else on
 * the page parses meanwhile). Answers a function that restores it and gives the total.
 */
function timeJsonParse(onParse: (ms: number) => void): () => void {
  const original = JSON.parse;
  JSON.parse = function timedParse(text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) {
    const start = performance.now();
    try {
      return original.call(JSON, text, reviver) as unknown;
    } finally {
      onParse(performance.now() - start);
    }
  } as typeof JSON.parse;
  return () => {
    JSON.parse = original;
  };
}

/** The engine's pull from cursor 0 into a fresh database, timed from the first request to the last commit. */
async function enginePull(userId: string, keep: boolean): Promise<PullResult> {
  keptDb?.close();
  keptDb = null;
  const db = await freshDb(userId);
  const pages: PageTiming[] = [];
  let current: PageTiming & { requestAt: number } = { rows: 0, waitMs: 0, bodyMs: 0, parseMs: 0, doneMs: 0, requestAt: 0 };
  const traffic: Traffic = {
    onRequest: () => {
      current = { rows: 0, waitMs: 0, bodyMs: 0, parseMs: 0, doneMs: 0, requestAt: performance.now() };
      const page = current;
      return (response) => {
        page.waitMs = performance.now() - page.requestAt;
        const text = response.text.bind(response);
        response.text = async () => {
          const start = performance.now();
          try {
            return await text();
          } finally {
            page.bodyMs += performance.now() - start;
          }
        };
      };
    },
  };
  const engine = makeEngine(db, traffic);
  engine.on((event) => {
    if (event.type !== 'pulled') return;
    const { requestAt: _requestAt, ...timing } = current;
    pages.push({ ...timing, rows: event.rows, doneMs: performance.now() - current.requestAt });
  });
  const restoreParse = timeJsonParse((ms) => {
    current.parseMs += ms;
  });
  const start = performance.now();
  try {
    await engine.pull();
  } finally {
    restoreParse();
  }
  const ms = performance.now() - start;
  engine.stop();
  const { counts, words } = await countRows(db);
  if (keep) {
    pulledRows = new Map();
    for (const kind of ENTITY_KINDS) {
      const rows = (await db.table(kind).toArray()) as AnyRow[];
      if (rows.length > 0) pulledRows.set(kind, rows);
    }
    keptDb = db;
  } else {
    await db.delete(); // now, untimed: the next measurement should not pay for it
  }
  return { ms, pages, counts, words };
}

async function baselineBulkPut(userId: string): Promise<BulkPutResult> {
  const rows = pulledRows;
  if (!rows) throw new Error('enginePull(userId, true) first: the baseline puts the rows it stored');
  const db = await freshDb(userId + BASELINE_SUFFIX);
  const tables = [...rows.keys()];
  const start = performance.now();
  await db.transaction('rw', tables, async () => {
    await Promise.all(tables.map((kind) => db.table(kind).bulkPut(rows.get(kind)!)));
  });
  const ms = performance.now() - start;
  const { counts } = await countRows(db);
  await db.delete();
  return { ms, counts };
}

// ---------------------------------------------------------------------------------------------
// Outbox flush

function dbFor(userId: string): ChroniclerDb {
  if (!keptDb || keptDb.userId !== userId) throw new Error('enginePull(userId, true) first');
  return keptDb;
}

async function queue(userId: string, plan: PlannedMutation[]): Promise<QueueResult> {
  const db = dbFor(userId);
  const m = createMutators(db);
  const start = performance.now();
  for (const step of plan) {
    switch (step.call) {
      case 'chapters.create':
        await m.chapters.create(step.body as Parameters<typeof m.chapters.create>[0]);
        break;
      case 'characters.create':
        await m.characters.create(step.body as Parameters<typeof m.characters.create>[0]);
        break;
      case 'locations.create':
        await m.locations.create(step.body as Parameters<typeof m.locations.create>[0]);
        break;
      case 'timelineEvents.create':
        await m.timelineEvents.create(step.body as Parameters<typeof m.timelineEvents.create>[0]);
        break;
      case 'chapters.update':
        await m.chapters.update(step.id, step.body);
        break;
      case 'characters.update':
        await m.characters.update(step.id, step.body);
        break;
      case 'locations.update':
        await m.locations.update(step.id, step.body);
        break;
      case 'timelineEvents.update':
        await m.timelineEvents.update(step.id, step.body);
        break;
    }
  }
  const ms = performance.now() - start;
  const outbox = await db.outbox.count();
  const chained = await db.outbox.filter((e) => e.chained === true).count();
  return { ms, outbox, chained };
}

/** The kind a planned mutation writes, and whether it makes the row. */
function targetOf(step: PlannedMutation): { kind: BenchKind; create: boolean } {
  const [kind, op] = step.call.split('.') as [BenchKind, string];
  return { kind, create: op === 'create' };
}

/**
 * The queue's baseline: per planned mutation, ONE bare Dexie transaction that puts the row as the
 * mutation leaves it and adds one outbox entry carrying its request — nothing read, checked or
 * derived. In a database of its own holding the same rows as the kept one (copied before timing);
 * the rows and entries are made before timing too.
 */
async function bareQueue(userId: string, plan: PlannedMutation[]): Promise<BareQueueResult> {
  const pulled = pulledRows;
  if (!pulled) throw new Error('enginePull(userId, true) first: the bare queue starts from the rows it stored');
  const db = await freshDb(userId + BARE_SUFFIX);
  const tables = [...pulled.keys()];
  await db.transaction('rw', tables, async () => {
    await Promise.all(tables.map((kind) => db.table(kind).bulkPut(pulled.get(kind)!)));
  });
  const rows = new Map<string, AnyRow>();
  for (const list of pulled.values()) for (const row of list) rows.set(row.id, row);
  // Rows made by an earlier round (edited in this one) as the kept database has them now.
  const kept = dbFor(userId);
  for (const step of plan) {
    const { kind, create } = targetOf(step);
    const id = (step as { id?: string }).id;
    if (!create && id !== undefined && !rows.has(id)) {
      const row = (await kept.table(kind).get(id)) as AnyRow | undefined;
      if (row) rows.set(id, row);
    }
  }
  const iso = new Date().toISOString();
  const seriesId = (pulled.get('series')?.[0]?.id ?? '') as string;
  const writes = plan.map((step, i) => {
    const { kind, create } = targetOf(step);
    const id = step.call.endsWith('.create') ? (step.body as { id: string }).id : (step as { id: string }).id;
    const row = create
      ? ({ seriesId, ...step.body, id, rev: 0, createdAt: iso, updatedAt: iso, deletedAt: null } as unknown as AnyRow)
      : ({ ...rows.get(id), ...step.body, id, updatedAt: iso } as AnyRow);
    rows.set(id, row);
    const entry = {
      idemKey: newId(),
      mutationId: i + 1,
      kind: create ? 'create' : 'update',
      method: create ? 'POST' : 'PUT',
      path: create ? `/api/${kind}` : `/api/${kind}/${id}`,
      body: step.body,
      entity: kind,
      entityId: id,
      seriesId,
      baseRev: null,
      before: [],
      effects: [],
      touches: [`${kind}:${id}`],
      attempts: 0,
      status: 'pending',
      nextAttemptAt: 0,
      createdAt: Date.now(),
    };
    return { kind, row, entry };
  });
  const start = performance.now();
  for (const { kind, row, entry } of writes) {
    await db.transaction('rw', [kind, 'outbox'], async () => {
      await db.table(kind).put(row);
      await db.outbox.add(entry as never);
    });
  }
  const ms = performance.now() - start;
  const outbox = await db.outbox.count();
  db.close();
  await deleteDb(userId + BARE_SUFFIX);
  return { ms, outbox };
}

async function flush(userId: string): Promise<FlushResult> {
  const db = dbFor(userId);
  const requests: FlushRequest[] = [];
  const traffic: Traffic = {
    onRequest: (url, init) => {
      const startedAt = performance.now();
      let entries = 1;
      if (url.endsWith('/api/sync/batch') && typeof init.body === 'string') {
        entries = (JSON.parse(init.body) as { entries: unknown[] }).entries.length;
      }
      const path = url.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, ':id');
      return () => void requests.push({ path: `${init.method ?? 'GET'} ${path}`, entries, ms: performance.now() - startedAt });
    },
  };
  const engine = makeEngine(db, traffic);
  let acked = 0;
  let rejected = 0;
  const start = performance.now();
  for (let cycle = 0; cycle < 100; cycle++) {
    const result = await engine.push();
    acked += result.acked;
    rejected += result.rejected;
    if ((await db.outbox.count()) === 0 || result.paused || (result.acked === 0 && result.rejected === 0)) break;
  }
  const ms = performance.now() - start;
  engine.stop();
  return { ms, requests, acked, rejected, outboxLeft: await db.outbox.count(), deadLetters: await db.deadLetters.count() };
}

const api: BenchApi = {
  async reset(userId) {
    pulledRows = null;
    keptDb?.close();
    keptDb = null;
    await deleteDb(userId);
    await deleteDb(userId + BASELINE_SUFFIX);
    await deleteDb(userId + BARE_SUFFIX);
  },
  enginePull,
  baselineBulkPut,
  queue,
  bareQueue,
  flush,
};

(globalThis as unknown as { __bench: BenchApi }).__bench = api;
document.title = 'sync bench ready';
