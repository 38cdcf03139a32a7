/**
 * A connected collaborator for collab-live.ts: the real sync engine over its own IndexedDB
 * (fake-indexeddb), pulling on every poke of its own SSE stream (GET /api/sync/events).
 */
import http from 'node:http';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import {
  type ChroniclerDb,
  type SyncEngine,
  createSyncEngine,
  createSyncStatusStore,
  openChroniclerDb,
} from '@chronicler/sync-client';

export interface Device {
  db: ChroniclerDb;
  engine: SyncEngine;
  stream: http.ClientRequest;
  /** Called after every pull. */
  onPulled: () => void;
  /** Instants (sharedNow) of the last poke, the last feed request sent and its answer's headers. */
  marks: { poke: number; fetchStart: number; fetchEnd: number };
}

export function connect(baseUrl: string, cookie: string, userId: string): Device {
  const db = openChroniclerDb(userId, { indexedDB: new IDBFactory(), IDBKeyRange });
  const engine = createSyncEngine({
    db,
    fetch: async (url, init) => {
      device.marks.fetchStart = sharedNow();
      const res = await fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), cookie } });
      device.marks.fetchEnd = sharedNow();
      return res;
    },
    baseUrl,
    locks: null,
    eventSource: null,
    status: createSyncStatusStore(),
    platform: { window: null, document: null },
    timers: { setTimeout: () => 0, clearTimeout: () => undefined, setInterval: () => 0, clearInterval: () => undefined },
  });
  const device = { db, engine, onPulled: () => undefined, marks: { poke: 0, fetchStart: 0, fetchEnd: 0 } } as unknown as Device;
  // One pull at a time; a poke during a pull asks for one more.
  let pulling = false;
  let again = false;
  const pull = async () => {
    if (pulling) {
      again = true;
      return;
    }
    pulling = true;
    do {
      again = false;
      await engine.pull();
      device.onPulled();
    } while (again);
    pulling = false;
  };
  device.stream = http.get(new URL('/api/sync/events', baseUrl), { headers: { cookie, accept: 'text/event-stream' } }, (res) => {
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      const events = buffer.split('\n\n');
      buffer = events.pop() ?? '';
      if (events.some((e) => e.includes('data: {"seq"'))) {
        device.marks.poke = sharedNow();
        void pull();
      }
    });
  });
  return device;
}

export function disconnect(device: Device): void {
  device.stream.destroy();
  device.engine.stop();
  device.db.close();
}

/** A wall-clock instant comparable across processes (sub-millisecond, unlike Date.now). */
export const sharedNow = () => performance.timeOrigin + performance.now();
