/**
 * Acknowledging answered entries in groups (acks.ts): one Dexie transaction per group of
 * consecutive successes, with the same outcome as one per entry — and a crash between the
 * server's answer and the local commit only replays, with the same Idempotency-Key.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import type { Character } from '@chronicler/schema';
import type { ChroniclerDb } from './db.ts';
import type { SyncEngineOptions, SyncEvent } from './engine.ts';
import { createMutators } from './mutators.ts';
import { type Call, type Reply, USER_ID, engineForTest, freshDb, manualClock, page, scriptedFetch, serverCharacter, serverSeries } from './testing/fixtures.ts';

const open: ChroniclerDb[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
  vi.restoreAllMocks();
});

/**
 * A server for character creates and updates that keeps, per Idempotency-Key, the answer it gave:
 * a replay gets that stored answer and changes nothing (as sync-server's idempotency records).
 * `decide` may refuse a write (4xx, 5xx) instead; a batch stops at its first transient answer.
 */
function characterServer(seriesId: string, existing: Character[], decide: (index: number, body: Record<string, unknown>) => Reply | null = () => null) {
  let seq = 10;
  const rows = new Map(existing.map((c) => [c.id, c]));
  const stored = new Map<string, { status: number; body: unknown }>();
  /** Idempotency keys whose write was applied, in order (each must appear once). */
  const applied: string[] = [];
  /** Every key received, in order (replays included). */
  const received: string[] = [];
  let writes = 0;

  function write(method: string, path: string, key: string, body: Record<string, unknown>): { status: number; body: unknown } {
    received.push(key);
    const known = stored.get(key);
    if (known) return known;
    const refusal = decide(writes++, body);
    if (refusal && !(refusal instanceof Error)) {
      const answer = { status: refusal.status, body: refusal.body };
      if (refusal.status < 500) stored.set(key, answer); // a 4xx is recorded; a 5xx is not
      return answer;
    }
    seq += 1;
    let row: Character;
    if (method === 'POST') row = serverCharacter(seriesId, { ...(body as Partial<Character>), rev: seq });
    else row = { ...rows.get(path.split('/').pop()!)!, ...(body as Partial<Character>), rev: seq };
    rows.set(row.id, row);
    applied.push(key);
    const answer = { status: method === 'POST' ? 201 : 200, body: method === 'POST' ? row : { ...row, mergeStatus: 'fast-forward' } };
    stored.set(key, answer);
    return answer;
  }

  const fetch = scriptedFetch((call: Call) => {
    if (call.method === 'GET') return { status: 200, body: page({}, 5) };
    if (call.path === '/api/sync/batch') {
      const { entries } = call.body as { entries: { method: string; path: string; headers: { idempotencyKey: string }; body?: Record<string, unknown> }[] };
      const answers: { status: number; body: unknown }[] = [];
      for (const e of entries) {
        const answer = write(e.method, e.path, e.headers.idempotencyKey, e.body ?? {});
        answers.push(answer);
        if (answer.status >= 500) break;
      }
      return { status: 200, body: answers };
    }
    return write(call.method, call.path, call.headers['Idempotency-Key']!, (call.body ?? {}) as Record<string, unknown>);
  });
  return { fetch, rows, applied, received };
}

async function seed(factory = new IDBFactory()) {
  const db = freshDb(USER_ID, factory);
  open.push(db);
  await db.open();
  const series = serverSeries();
  const ada = serverCharacter(series.id, { name: 'Ada', rev: 4 });
  await db.series.put(series);
  await db.characters.put(ada);
  await db.syncState.update('state', { cursor: 5 });
  return { db, series, ada };
}

function engineFor(db: ChroniclerDb, fetch: SyncEngineOptions['fetch'], extra: Partial<SyncEngineOptions> = {}) {
  const clock = manualClock();
  const events: SyncEvent[] = [];
  const engine = engineForTest(db, fetch, { now: clock.now, batchThreshold: 2, ...extra });
  engine.on((e) => events.push(e));
  return { engine, events, clock };
}

/** Counts the transactions over more than one table (acknowledgements and rejections; the outbox's own bookkeeping is single-table). */
function countWideTransactions(db: ChroniclerDb): { count: number } {
  const counter = { count: 0 };
  const original = db.transaction.bind(db) as (...args: unknown[]) => Promise<unknown>;
  vi.spyOn(db, 'transaction').mockImplementation(((...args: unknown[]) => {
    const tables = args[1];
    if (Array.isArray(tables) && tables.length > 1) counter.count += 1;
    return original(...args);
  }) as never);
  return counter;
}

describe('acknowledging a batch', () => {
  it('applies a group of N answers in one transaction and leaves exactly the unacknowledged entries', async () => {
    const { db, series } = await seed();
    const m = createMutators(db);
    const made: Character[] = [];
    for (let i = 0; i < 150; i++) made.push(await m.characters.create({ seriesId: series.id, name: `C${i}` }));
    const server = characterServer(series.id, [], (i) =>
      i === 60 ? { status: 422, body: { message: 'Name taken', code: 'VALIDATION_FAILED' } } : i === 120 ? { status: 503, body: { message: 'busy', code: 'INTERNAL' } } : null,
    );
    const { engine, events } = engineFor(db, server.fetch);
    const wide = countWideTransactions(db);

    const result = await engine.push();

    expect(server.fetch.calls.filter((c) => c.path === '/api/sync/batch')).toHaveLength(1);
    expect(result).toMatchObject({ acked: 119, rejected: 1 });
    // 0–59 in one transaction, the refusal of 60, 61–119 in one: not one per entry.
    expect(wide.count).toBe(3);
    // Left: exactly the entries the server did not take (120: busy; 121–149: never run), in order.
    const left = await db.outbox.orderBy('seq').toArray();
    expect(left.map((e) => (e.body as { name: string }).name)).toEqual(made.slice(120).map((c) => c.name));
    expect(left[0]).toMatchObject({ status: 'pending', attempts: 1 });
    expect(left.slice(1).every((e) => e.status === 'pending' && e.attempts === 0)).toBe(true);
    // The acknowledged rows are the server's; their shadows are gone; the refused one is reverted.
    for (const [i, c] of made.entries()) {
      const local = await db.characters.get(c.id);
      if (i === 60) expect(local).toBeUndefined();
      else if (i < 120) expect(local).toEqual(server.rows.get(c.id));
      else expect(local).toMatchObject({ name: c.name, rev: 0 });
    }
    expect(await db.shadows.count()).toBe(30);
    expect(await db.deadLetters.count()).toBe(1);
    // Listeners hear every acknowledgement, in send order.
    const acked = events.filter((e) => e.type === 'acked').map((e) => (e as { entityId: string }).entityId);
    expect(acked).toEqual(made.slice(0, 120).filter((_, i) => i !== 60).map((c) => c.id));
  });

  it('rebases the work still queued on the answers, and the next chained edit takes the answered revision', async () => {
    const { db, series, ada } = await seed();
    const m = createMutators(db);
    for (let i = 0; i < 5; i++) await m.characters.create({ seriesId: series.id, name: `C${i}` });
    await m.characters.update(ada.id, { goals: 'Find the map' });
    let busy = true;
    const server = characterServer(series.id, [ada], (_i, body) => (busy && body.description ? { status: 503, body: { message: 'busy', code: 'INTERNAL' } } : null));
    const { engine, clock } = engineFor(db, server.fetch);
    // Sent once already (its answer may be on the way): the next edit is chained to it, and an
    // unsent one after that.
    await db.outbox.toCollection().modify({ attempts: 1 });
    await m.characters.update(ada.id, { description: 'A cartographer' });

    await engine.push();

    const batch = server.fetch.calls.find((c) => c.path === '/api/sync/batch')!;
    expect((batch.body as { entries: unknown[] }).entries).toHaveLength(6); // cut before the chained entry
    const adaRev = server.rows.get(ada.id)!.rev;
    // The chained edit waited (busy) with its base taken from the answer to the one before.
    const [waiting] = await db.outbox.toArray();
    expect(waiting).toMatchObject({ chained: false, baseRev: adaRev, body: { description: 'A cartographer' } });
    // Locally: the server's row with the pending edit on top; the shadow is the server's row.
    expect(await db.characters.get(ada.id)).toMatchObject({ rev: adaRev, goals: 'Find the map', description: 'A cartographer' });
    expect(await db.shadows.get(['characters', ada.id])).toMatchObject({ rev: adaRev, row: { goals: 'Find the map', description: '' } });

    busy = false;
    clock.advance(60_000);
    await engine.push();
    const put = server.fetch.calls.filter((c) => c.method === 'PUT').at(-1)!;
    expect(put.headers['X-Base-Rev']).toBe(String(adaRev));
    expect(await db.outbox.count()).toBe(0);
    expect(await db.shadows.count()).toBe(0);
    expect(await db.characters.get(ada.id)).toEqual(server.rows.get(ada.id));
  });

  it('sends an update folded into its unsent create as one request', async () => {
    const { db, series } = await seed();
    const m = createMutators(db);
    const server = characterServer(series.id, []);
    const { engine } = engineFor(db, server.fetch, { batchThreshold: 50 });
    const cy = await m.characters.create({ seriesId: series.id, name: 'Cy' });
    await m.characters.update(cy.id, { goals: 'Sail north' });
    await m.characters.update(cy.id, { occupation: 'Pilot' });

    await engine.sync();

    const writes = server.fetch.calls.filter((c) => c.method !== 'GET');
    expect(writes.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/characters']);
    expect(writes[0]!.body).toMatchObject({ id: cy.id, name: 'Cy', goals: 'Sail north', occupation: 'Pilot' });
    expect(await db.characters.get(cy.id)).toEqual(server.rows.get(cy.id));
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('a crash between the server answer and the local acknowledgement', () => {
  it.each([
    ['a batch', 2],
    ['single requests', Number.MAX_SAFE_INTEGER],
  ])('replays %s with the same Idempotency-Keys and ends with exactly one effect each', async (_label, batchThreshold) => {
    const factory = new IDBFactory();
    const { db, series, ada } = await seed(factory);
    const m = createMutators(db);
    const created: Character[] = [];
    for (let i = 0; i < 4; i++) created.push(await m.characters.create({ seriesId: series.id, name: `C${i}` }));
    await m.characters.update(ada.id, { goals: 'Find the map' });
    const keys = (await db.outbox.orderBy('seq').toArray()).map((e) => e.idemKey);
    const server = characterServer(series.id, [ada]);

    // The tab dies after the first answer arrived, before its acknowledgement commits: the
    // transaction does its writes, then never commits (aborted), as when the process is killed.
    const first = engineFor(db, server.fetch, { batchThreshold });
    const original = db.transaction.bind(db) as (...args: unknown[]) => Promise<unknown>;
    vi.spyOn(db, 'transaction').mockImplementation(((...args: unknown[]) => {
      const scope = args.at(-1) as (tx: unknown) => Promise<unknown>;
      if (!Array.isArray(args[1]) || server.applied.length === 0) return original(...args);
      return original(...args.slice(0, -1), async (tx: unknown) => {
        await scope(tx);
        throw new Error('the tab was closed');
      });
    }) as never);
    await expect(first.engine.push()).rejects.toThrow('the tab was closed');
    first.engine.stop();
    db.close();
    vi.restoreAllMocks();

    // The server took the write(s); nothing was acknowledged locally.
    expect(server.applied.length).toBeGreaterThan(0);
    const sentBeforeCrash = [...server.received];
    const reopened = freshDb(USER_ID, factory);
    open.push(reopened);
    const stillQueued = await reopened.outbox.orderBy('seq').toArray();
    expect(stillQueued.map((e) => e.idemKey)).toEqual(keys);
    expect(stillQueued[0]!.status).toBe('inflight');

    // The next start sends them again: the server answers what it stored, the rest is new.
    const second = engineFor(reopened, server.fetch, { batchThreshold });
    await second.engine.sync();

    expect(await reopened.outbox.count()).toBe(0);
    expect([...server.applied].sort()).toEqual([...keys].sort()); // every change applied exactly once
    // What had reached the server went again first, under the same keys, and was answered from its record.
    expect(server.received.slice(sentBeforeCrash.length, 2 * sentBeforeCrash.length)).toEqual(sentBeforeCrash);
    for (const c of [...created, ada]) expect(await reopened.characters.get(c.id)).toEqual(server.rows.get(c.id));
    expect(await reopened.shadows.count()).toBe(0);
    expect(await reopened.deadLetters.count()).toBe(0);
  });
});
