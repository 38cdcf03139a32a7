/**
 * Devices of one author against the REAL server (buildApp over in-memory SQLite through
 * app.inject), each with its own IndexedDB, engine and mutators, and a switch to take it offline;
 * `settle` pushes and pulls them all until every outbox is empty. Shared by the scenario tests
 * (restructure.test.ts, places.test.ts); the convergence property has its own fault-injecting fetch.
 */
import { expect } from 'vitest';
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
} from '@chronicler/sync-client';
import type { App } from '@chronicler/sync-server';

export interface Device {
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

export function openDevice(app: App, userId: string, cookie: string): Device {
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

/** A new author: their id, session cookie, and a caller of the API that insists on success. */
export async function registerAuthor(app: App, prefix: string) {
  const username = `${prefix}${Math.floor(Math.random() * 1e9)}`;
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
  return { userId, cookie, call };
}

/**
 * Pushes and pulls every device until all outboxes are empty, then pulls once more everywhere.
 * `deadLetters`: how many changes each device may have kept aside (default none).
 */
export async function settle(devices: Device[], deadLetters: (device: Device) => number = () => 0) {
  for (let round = 0; round < 5; round++) {
    for (const d of devices) await d.engine.sync();
    if ((await Promise.all(devices.map((d) => d.db.outbox.count()))).every((n) => n === 0)) break;
  }
  for (const d of devices) await d.engine.pull();
  for (const d of devices) expect(await d.db.outbox.count()).toBe(0);
  for (const d of devices) expect(await d.db.deadLetters.count()).toBe(deadLetters(d));
}
