/**
 * Restructuring converges (docs/decisions/0014-trash-and-restructure.md): two devices of one
 * author, each with its own IndexedDB and engine, against the REAL server (buildApp over in-memory
 * SQLite through app.inject). Both go offline; one deletes a chapter into the Trash (or merges it
 * away, or moves it to another book) while the other edits the same chapter; they come back in
 * either order. Both devices and the server end with the same rows: the edited chapter, its words
 * all there, in the Trash (or moved), never lost.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import {
  type ChroniclerDb,
  type FetchLike,
  type Mutators,
  type Restructure,
  type SyncEngine,
  createMutators,
  createRestructure,
  createSyncEngine,
  createSyncStatusStore,
  openChroniclerDb,
  trashOfSeries,
} from '@chronicler/sync-client';
import { type App, buildApp } from '@chronicler/sync-server';
import { testConfig } from '@chronicler/sync-server/config';

let sharedApp: Promise<App> | null = null;
const server = () =>
  (sharedApp ??= buildApp(testConfig()).then(async (app) => {
    await app.ready();
    return app;
  }));
afterAll(async () => (await sharedApp)?.close());

interface Device {
  db: ChroniclerDb;
  engine: SyncEngine;
  m: Mutators;
  r: Restructure;
  offline: boolean;
}

function toResponse(res: Awaited<ReturnType<App['inject']>>): Response {
  const headers = new Headers();
  for (const [k, v] of Object.entries(res.headers)) {
    if (v === undefined || k === 'content-length' || k === 'transfer-encoding' || k === 'connection') continue;
    headers.set(k, Array.isArray(v) ? v.join(', ') : String(v));
  }
  return new Response(res.statusCode === 204 ? null : res.body, { status: res.statusCode, headers });
}

let clock = Date.parse('2026-04-01T09:00:00.000Z');
const now = () => (clock += 1_000);

function openDevice(app: App, userId: string, cookie: string): Device {
  const device = { offline: false } as Device;
  const fetch: FetchLike = async (url, init) => {
    if (device.offline) throw new TypeError('Failed to fetch (offline)');
    const u = new URL(url);
    const headers = { ...(init.headers as Record<string, string>), cookie };
    const res = await app.inject({ method: (init.method ?? 'GET') as 'GET', url: u.pathname + u.search, headers, ...(typeof init.body === 'string' ? { payload: init.body } : {}) });
    return toResponse(res);
  };
  device.db = openChroniclerDb(userId, { indexedDB: new IDBFactory(), IDBKeyRange });
  device.engine = createSyncEngine({
    db: device.db,
    fetch,
    baseUrl: 'http://chronicler.test',
    now,
    random: Math.random,
    locks: null,
    eventSource: null,
    status: createSyncStatusStore(),
    platform: { window: null, document: null },
    timers: { setTimeout: () => 0, clearTimeout: () => undefined, setInterval: () => 0, clearInterval: () => undefined },
  });
  device.m = createMutators(device.db, { now });
  device.r = createRestructure(device.db, { now });
  return device;
}

async function author(app: App) {
  const username = `restructure${Math.floor(Math.random() * 1e9)}`;
  const res = await app.inject({ method: 'POST', url: '/api/register', payload: { username, password: 'correct horse battery', displayName: 'Ursula' } });
  expect(res.statusCode, res.body).toBe(201);
  const userId = (JSON.parse(res.body) as { id: string }).id;
  const cookie = (res.headers['set-cookie'] as string[] | string).toString().match(/chronicler_session=[^;]+/)![0];
  const call = async (method: string, url: string, body?: unknown) => {
    const answer = await app.inject({
      method: method as 'GET',
      url,
      headers: body === undefined ? { cookie } : { cookie, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    expect(answer.statusCode, answer.body).toBeLessThan(300);
    return JSON.parse(answer.body) as any;
  };
  const series = await call('POST', '/api/series', { title: 'The Long Road' });
  const one = await call('POST', '/api/books', { seriesId: series.id, title: 'Book One' });
  const two = await call('POST', '/api/books', { seriesId: series.id, title: 'Book Two' });
  const first = await call('POST', '/api/chapters', { bookId: one.id, title: 'Arrival', content: 'It began.\nThe ship landed.' });
  const second = await call('POST', '/api/chapters', { bookId: one.id, title: 'Storm', content: 'Rain fell.' });
  return { userId, cookie, seriesId: series.id as string, one: one.id as string, two: two.id as string, first: first.id as string, second: second.id as string, call };
}

/** Pushes and pulls every device until all outboxes are empty, then pulls once more everywhere. */
async function settle(devices: Device[]) {
  for (let round = 0; round < 5; round++) {
    for (const d of devices) await d.engine.sync();
    if ((await Promise.all(devices.map((d) => d.db.outbox.count()))).every((n) => n === 0)) break;
  }
  for (const d of devices) await d.engine.pull();
  for (const d of devices) expect(await d.db.outbox.count()).toBe(0);
  for (const d of devices) expect(await d.db.deadLetters.count()).toBe(0);
}

type Scenario = 'trash' | 'merge' | 'move';

async function run(scenario: Scenario, editorFirst: boolean) {
  const app = await server();
  const s = await author(app);
  const [a, b] = [openDevice(app, s.userId, s.cookie), openDevice(app, s.userId, s.cookie)];
  await settle([a, b]);
  a.offline = b.offline = true;
  // Device A restructures; device B edits the chapter A removes or moves.
  const target = scenario === 'merge' ? s.second : s.first;
  if (scenario === 'trash') await a.r.trashChapter(s.first);
  if (scenario === 'merge') await a.r.mergeWithNext(s.first);
  if (scenario === 'move') await a.r.moveChapter(s.first, s.two);
  const edited = scenario === 'merge' ? 'Rain fell.\nThunder, written offline.' : 'It began.\nThe ship landed.\nWritten offline on the other device.';
  await b.m.chapters.update(target, { content: edited });
  a.offline = b.offline = false;
  await settle(editorFirst ? [b, a] : [a, b]);

  const stored = await s.call('GET', `/api/chapters/${target}`);
  expect(stored.content).toBe(edited);
  expect(stored.deletedAt).toBeNull();
  if (scenario === 'move') {
    expect(stored).toMatchObject({ bookId: s.two, trashedAt: null });
  } else {
    expect(stored.trashedAt).toEqual(expect.any(String));
    expect((await s.call('GET', `/api/series/${s.seriesId}/trash`)).entries.map((e: { id: string }) => e.id)).toEqual([target]);
  }
  if (scenario === 'merge') expect((await s.call('GET', `/api/chapters/${s.first}`)).content).toBe('It began.\nThe ship landed.\nRain fell.');
  for (const d of [a, b]) {
    const local = await d.db.chapters.get(target);
    expect(local).toMatchObject({ content: edited, trashedAt: stored.trashedAt, bookId: stored.bookId, rev: stored.rev });
    expect((await trashOfSeries(d.db, s.seriesId)).map((e) => (e.kind === 'chapters' ? e.chapter.id : e.book.id))).toEqual(scenario === 'move' ? [] : [target]);
  }
  // No conflict copies were needed: the fields merged.
  expect(await s.call('GET', `/api/chapters/${target}/conflicts`)).toEqual([]);
}

describe('restructuring converges with a concurrent edit of the same chapter, never losing words', () => {
  for (const scenario of ['trash', 'merge', 'move'] as const) {
    for (const editorFirst of [false, true]) {
      it(`${scenario} on one device, an edit on the other, the ${editorFirst ? 'edit' : scenario} reaching the server first`, async () => {
        await run(scenario, editorFirst);
      });
    }
  }
});
