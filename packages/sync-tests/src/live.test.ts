/**
 * The live channel end to end (docs/sync-protocol.md#live-channel): the real server listening on
 * 127.0.0.1, a member's sync engine started as its device's leader with the EventSource it has in a
 * browser (node-event-source.ts), over its own IndexedDB. A co-author's save lands in the member's
 * database from the poke itself, with no request for the changes feed; what a poke cannot carry — a
 * rename of the series, the member's removal — makes the engine pull, and the removal empties the
 * device.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { type SyncEvent, createSyncEngine, createSyncStatusStore, openChroniclerDb } from '@chronicler/sync-client';
import { type App, buildApp } from '@chronicler/sync-server';
import { testConfig } from '@chronicler/sync-server/config';
import { nodeEventSource } from './node-event-source.ts';

let app: App;
let base: string;
beforeAll(async () => {
  app = await buildApp(testConfig());
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app.close();
});

interface Account {
  userId: string;
  email: string;
  cookie: string;
}

async function call(account: Account, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { cookie: account.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  return text ? JSON.parse(text) : null;
}

async function register(name: string, plan: string): Promise<Account> {
  const username = `${name}_${Math.floor(Math.random() * 1e9)}`;
  const email = `${username}@example.com`;
  const res = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'correct horse battery', displayName: name, email }),
  });
  expect(res.status).toBe(201);
  const userId = ((await res.json()) as { id: string }).id;
  await app.deps.database.db.updateTable('users').set({ plan }).where('id', '=', userId).execute();
  const cookie = res.headers.getSetCookie().join('; ').match(/chronicler_session=[^;]+/)![0];
  return { userId, email, cookie };
}

describe('the live channel, end to end', () => {
  it("writes a co-author's save from its poke without asking the feed, and pulls for what a poke cannot carry", async () => {
    const owner = await register('owner', 'loremaster');
    const member = await register('member', 'apprentice');
    const series = await call(owner, 'POST', '/api/collaboration/series', { name: 'The Shared Saga', description: 'Two authors.' });
    const invite = await call(owner, 'POST', `/api/collaboration/series/${series.id}/invites`, { inviteeEmail: member.email, role: 'editor' });
    await call(member, 'POST', `/api/collaboration/invites/${invite.id}/accept`);
    const book = await call(owner, 'POST', '/api/books', { seriesId: series.id, title: 'Book One' });
    const chapter = await call(owner, 'POST', '/api/chapters', { bookId: book.id, title: 'One', content: 'It began.' });

    const db = openChroniclerDb(member.userId, { indexedDB: new IDBFactory(), IDBKeyRange });
    const feedRequests: string[] = [];
    let greeted = false;
    const engine = createSyncEngine({
      db,
      fetch: (url, init) => {
        if (url.includes('/api/sync/changes')) feedRequests.push(url);
        return fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), cookie: member.cookie } });
      },
      baseUrl: base,
      locks: null,
      eventSource: (url) => {
        const source = nodeEventSource(url, { cookie: member.cookie });
        source.addEventListener('hello', () => (greeted = true));
        return source;
      },
      status: createSyncStatusStore(),
      platform: { window: null, document: null },
      // No minute timer: every pull here is one a poke or the stream's hello asked for.
      timers: { setTimeout: () => 0, clearTimeout: () => undefined, setInterval: () => 0, clearInterval: () => undefined },
    });
    const events: SyncEvent[] = [];
    engine.on((event) => events.push(event));
    try {
      engine.start();
      await vi.waitFor(async () => expect((await db.chapters.get(chapter.id))?.content).toBe('It began.'), { timeout: 10_000 });
      // The stream's hello asks for a pull: let it land before counting.
      await vi.waitFor(() => expect(greeted).toBe(true), { timeout: 10_000 });
      await engine.sync();
      const feedBefore = feedRequests.length;

      // A co-author's save: in the member's database from the poke, no feed request.
      const saved = await call(owner, 'PUT', `/api/chapters/${chapter.id}`, { content: 'It began.\n\nThe owner wrote on.' });
      await vi.waitFor(async () => expect((await db.chapters.get(chapter.id))?.content).toBe('It began.\n\nThe owner wrote on.'), { timeout: 10_000 });
      expect((await db.chapters.get(chapter.id))?.rev).toBe(saved.rev);
      expect(events).toContainEqual({ type: 'carried', seq: saved.rev, rows: 1 });
      expect(feedRequests.length).toBe(feedBefore);

      // A rename of the series is the feed's to bring: the poke makes the engine pull.
      await call(owner, 'PUT', `/api/series/${series.id}`, { title: 'The Saga, Renamed' });
      await vi.waitFor(async () => expect((await db.series.get(series.id))?.title).toBe('The Saga, Renamed'), { timeout: 10_000 });
      expect(feedRequests.length).toBeGreaterThan(feedBefore);

      // Removed: the poke makes it pull, and the series leaves the device.
      await call(owner, 'DELETE', `/api/collaboration/series/${series.id}/members/${member.userId}`);
      await vi.waitFor(async () => expect(await db.series.get(series.id)).toBeUndefined(), { timeout: 10_000 });
      expect(await db.chapters.where('seriesId').equals(series.id).count()).toBe(0);
    } finally {
      engine.stop();
      db.close();
    }
  });
});
