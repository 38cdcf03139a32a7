/**
 * Test helpers for the sync client and the web app's tests (`@chronicler/sync-client/testing`): a fresh fake IndexedDB per database, rows as the server would
 * send them, and a scriptable fetch.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import {
  type Book,
  type Chapter,
  type ChangesResponse,
  type Character,
  ENTITY_KINDS,
  type EntityKind,
  type Series,
  type UserRecord,
  newId,
} from '@chronicler/schema';
import { type ChroniclerDb, openChroniclerDb } from '../db.ts';
import { type FetchLike, type SyncEngine, type SyncEngineOptions, createSyncEngine } from '../engine.ts';
import { createSyncStatusStore } from '../status.ts';

export const USER_ID = '0190a6f0-0000-7000-8000-000000000001';

/** A database on its own in-memory IndexedDB (or on `factory`, to reopen the same one). */
export function freshDb(userId = USER_ID, factory: IDBFactory = new IDBFactory()): ChroniclerDb {
  return openChroniclerDb(userId, { indexedDB: factory, IDBKeyRange });
}

const T0 = '2026-01-01T00:00:00.000Z';

export function serverSeries(over: Partial<Series> = {}): Series {
  return {
    id: newId(),
    rev: 1,
    createdAt: T0,
    updatedAt: T0,
    deletedAt: null,
    ownerId: USER_ID,
    title: 'The Long Road',
    description: '',
    totalBooks: 3,
    currentBook: 1,
    coverImage: null,
    ...over,
  };
}

/** The signed-in author's own record (user-scoped kind `users`) as the feed sends it. */
export function serverUserRecord(over: Partial<UserRecord> = {}): UserRecord {
  const id = over.id ?? USER_ID;
  return {
    id,
    rev: 1,
    createdAt: T0,
    updatedAt: T0,
    deletedAt: null,
    userId: id,
    username: 'ada',
    displayName: 'Ada Lovelace',
    email: null,
    plan: 'apprentice',
    timeZone: null,
    ...over,
  };
}

export function serverBook(seriesId: string, over: Partial<Book> = {}): Book {
  return {
    id: newId(),
    rev: 2,
    createdAt: T0,
    updatedAt: T0,
    deletedAt: null,
    seriesId,
    title: 'Book One',
    description: '',
    position: 1,
    status: 'in_progress',
    wordCount: 0,
    ...over,
  };
}

export function serverChapter(book: Book, over: Partial<Chapter> = {}): Chapter {
  return {
    id: newId(),
    rev: 3,
    createdAt: T0,
    updatedAt: T0,
    deletedAt: null,
    seriesId: book.seriesId,
    bookId: book.id,
    title: 'Chapter 1',
    content: 'It began.',
    position: 1,
    wordCount: 2,
    status: 'in_progress',
    ...over,
  };
}

export function serverCharacter(seriesId: string, over: Partial<Character> = {}): Character {
  return {
    id: newId(),
    rev: 4,
    createdAt: T0,
    updatedAt: T0,
    deletedAt: null,
    seriesId,
    name: 'Ada',
    role: 'supporting',
    age: '',
    occupation: '',
    status: 'alive',
    description: '',
    appearance: '',
    personality: '',
    goals: '',
    backstory: '',
    bookAppearances: [],
    isProtagonist: false,
    avatar: null,
    avatarUrl: null,
    aliases: [],
    alwaysInclude: false,
    ...over,
  };
}

export function emptyChanges(): ChangesResponse['changes'] {
  return Object.fromEntries(ENTITY_KINDS.map((k) => [k, []])) as unknown as ChangesResponse['changes'];
}

export function page(rows: Partial<Record<EntityKind, unknown[]>>, cursor: number, extra: Partial<ChangesResponse> = {}): ChangesResponse {
  return { changes: { ...emptyChanges(), ...rows } as ChangesResponse['changes'], scopeAdded: [], scopeRemoved: [], cursor, hasMore: false, ...extra };
}

export interface Call {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | Error;

/**
 * A fetch whose answers come from `handler` (a function of the call). Records every call.
 * An Error reply is a network failure.
 */
export function scriptedFetch(handler: (call: Call) => Reply | Promise<Reply>): FetchLike & { calls: Call[] } {
  const calls: Call[] = [];
  const fn = async (url: string, init: RequestInit) => {
    const u = new URL(url, 'http://test.local');
    const call: Call = {
      method: init.method ?? 'GET',
      path: u.pathname + u.search,
      headers: { ...(init.headers as Record<string, string>) },
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const reply = await handler(call);
    if (reply instanceof Error) throw reply;
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json', ...(reply.headers ?? {}) },
    });
  };
  return Object.assign(fn, { calls });
}

/** A clock the test moves by hand. */
export function manualClock(start = Date.parse('2026-02-01T10:00:00.000Z')) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms), set: (ms: number) => (t = ms) };
}

/** Timers that never fire: a test drives the engine with sync() / pull() itself. */
export const NO_TIMERS = { setTimeout: () => 0, clearTimeout: () => undefined, setInterval: () => 0, clearInterval: () => undefined };

/**
 * An engine over `db` with no browser around it (no window, locks, EventSource or timers), a
 * manual clock and its own status store: the test calls sync() / pull() / push().
 */
export function engineForTest(db: ChroniclerDb, fetch: FetchLike, extra: Partial<SyncEngineOptions> = {}): SyncEngine {
  const clock = manualClock();
  return createSyncEngine({
    db,
    fetch,
    baseUrl: 'http://test.local',
    now: clock.now,
    random: () => 0.5,
    locks: null,
    eventSource: null,
    status: createSyncStatusStore(),
    platform: { window: null, document: null },
    timers: NO_TIMERS,
    ...extra,
  });
}
