/**
 * A connected collaborator for collab-live.ts: the real sync engine, started as its device's
 * leader, over its own IndexedDB (fake-indexeddb), hearing its own SSE stream (GET
 * /api/sync/events): every poke goes to `engine.receive` as the browser's EventSource would hand
 * it to the engine — rows a poke carries are written, other pokes make it pull.
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
  /** Called after every pull, and after the rows of every poke that carried some. */
  onPulled: () => void;
  /**
   * Instants (sharedNow) of the last poke, the last feed request sent and its answer's headers
   * (both set to the poke's instant when it came: a poke whose rows were written makes no request).
   */
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
  engine.on((event) => {
    if (event.type === 'pulled' || event.type === 'carried') device.onPulled();
  });
  engine.start();
  device.stream = http.get(new URL('/api/sync/events', baseUrl), { headers: { cookie, accept: 'text/event-stream' } }, (res) => {
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      const events = buffer.split('\n\n');
      buffer = events.pop() ?? '';
      for (const block of events) {
        const lines = block.split('\n');
        // Pokes are unnamed events (`message`); hello, presence and invites are named.
        if (lines.some((line) => line.startsWith('event:'))) continue;
        const data = lines.filter((line) => line.startsWith('data: ')).map((line) => line.slice(6));
        if (data.length === 0) continue;
        device.marks.poke = device.marks.fetchStart = device.marks.fetchEnd = sharedNow();
        void engine.receive(data.join('\n'));
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
