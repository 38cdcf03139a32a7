/**
 * Pull (docs/sync-protocol.md#pull-the-changes-feed, docs/measurements.md#before-the-code):
 * GET /api/sync/changes?since=<cursor> page by page, each page and its
 * cursor applied in ONE Dexie transaction with bulk writes. Rows with unsent local work are
 * rebased (rebase.ts); a series that left the author's scope is purged with everything under it,
 * its queued work dead-lettered. User-scoped rows (the author's own: record, statistics …) are
 * applied like any row and never purged by a scope change; signing out deletes the database.
 */
import { type ChangesResponse, type EntityKind, backoffMs, classifyStatus, retryDelayMs } from '@chronicler/schema';
import { type AnyRow, ENTITY_KINDS, SERIES_CHILD_KINDS, SYNC_TABLES, entityTable, readSyncState, seriesIdOfRow } from '../db.ts';
import { applyServerRow, cleanRow } from '../rebase.ts';
import { type EngineContext, OFFLINE_PULL_MESSAGE } from './context.ts';
import { deadLetterSeriesWork } from './dead-letters.ts';
import { readJson } from './transport.ts';

export interface Puller {
  /** Pulls until the feed has no more; answers when to try again after a failure (else null). */
  cycle(): Promise<{ retryAt: number | null }>;
  /** The cursor this leader last read or wrote, if it has one (a poke at or below it needs no pull). */
  knownCursor(): number | null;
  /** Reads the cursor again on the next pull (leadership changed hands: another tab may have moved it). */
  forget(): void;
}

/** Removes a series the author can no longer reach, with its rows, shadows and drafts. */
async function purgeSeries(ctx: EngineContext, seriesId: string): Promise<void> {
  const { db } = ctx;
  await deadLetterSeriesWork(ctx, seriesId);
  const chapterGone = new Set((await db.chapters.where('seriesId').equals(seriesId).primaryKeys()) as string[]);
  await db.series.delete(seriesId);
  await db.shadows.delete(['series', seriesId]);
  for (const kind of SERIES_CHILD_KINDS) {
    const ids = (await entityTable(db, kind).where('seriesId').equals(seriesId).primaryKeys()) as string[];
    await entityTable(db, kind).bulkDelete(ids);
    await db.shadows.bulkDelete(ids.map((id) => [kind, id] as [EntityKind, string]));
  }
  const drafts = await db.drafts.toArray();
  await db.drafts.bulkDelete(drafts.filter((d) => chapterGone.has(d.chapterId)).map((d) => d.chapterId));
}

/** Tables a page without scope removals writes: its rows' kinds, and what a rebase reads. */
const PAGE_TABLES = ['shadows', 'outbox', 'syncState'] as const;

/**
 * How long a stored `lastSyncedAt` may lag behind a pull that brought nothing: other tabs show it
 * ("synced just now"), but rewriting it on every empty pull would wake every tab's live queries.
 */
export const LAST_SYNCED_REFRESH_MS = 30_000;

/** One page's rows by kind, without those of series that left the author's scope with it. */
function rowsByKind(page: ChangesResponse): Map<EntityKind, AnyRow[]> {
  const removed = new Set(page.scopeRemoved ?? []);
  const byKind = new Map<EntityKind, AnyRow[]>();
  for (const kind of ENTITY_KINDS) {
    // A user-scoped row (the author's own) has no series: scope removals never drop it.
    const rows = ((page.changes[kind] ?? []) as AnyRow[]).filter((row) => {
      const seriesId = seriesIdOfRow(kind, row);
      return seriesId === null || !removed.has(seriesId);
    });
    if (rows.length > 0) byKind.set(kind, rows);
  }
  return byKind;
}

/**
 * Applies one page of the feed and its cursor in ONE transaction with bulk writes, over the tables
 * it writes (a purge needs them all): a pull does not hold up the app's reads of other tables.
 */
async function applyPage(ctx: EngineContext, page: ChangesResponse, byKind: Map<EntityKind, AnyRow[]>): Promise<number> {
  const { db } = ctx;
  const removed = page.scopeRemoved ?? [];
  const tables: string[] = removed.length > 0 ? [...SYNC_TABLES] : [...byKind.keys(), ...PAGE_TABLES];
  let count = 0;
  await db.transaction('rw', tables, async () => {
    for (const seriesId of removed) await purgeSeries(ctx, seriesId);
    // Shadows exist only for rows with unsent local changes: none at all on a first sync, and
    // then the per-row lookups (thousands of keys a page) are skipped.
    const anyShadows = byKind.size > 0 && (await db.shadows.count()) > 0;
    for (const [kind, rows] of byKind) {
      count += rows.length;
      const shadows = anyShadows ? await db.shadows.bulkGet(rows.map((row) => [kind, row.id] as [EntityKind, string])) : [];
      const puts: AnyRow[] = [];
      const deletes: string[] = [];
      const rebased: AnyRow[] = [];
      rows.forEach((row, i) => {
        if (shadows[i]) rebased.push(row);
        else if (row.deletedAt) deletes.push(row.id);
        else puts.push(cleanRow(row));
      });
      const table = entityTable(db, kind);
      if (puts.length > 0) await table.bulkPut(puts as never[]);
      if (deletes.length > 0) await table.bulkDelete(deletes);
      for (const row of rebased) await applyServerRow(db, kind, row, { checkLocalRev: false });
    }
    await db.syncState.update('state', { cursor: page.cursor, lastSyncedAt: ctx.now() });
  });
  return count;
}

export function createPuller(ctx: EngineContext, pageLimit: number): Puller {
  const { db, now, random, status, flags } = ctx;
  /** Failed pulls in a row (the backoff's attempt number). */
  let attempts = 0;
  /**
   * The sync state as this leader last read or wrote it: only the leader writes the cursor, so a
   * pull need not read it again (one IndexedDB transaction less per poke).
   */
  let known: { cursor: number; clientId: string; lastSyncedAt: number } | null = null;

  async function syncState() {
    if (known) return known;
    const state = await readSyncState(db);
    known = { cursor: state.cursor, clientId: state.clientId, lastSyncedAt: state.lastSyncedAt ?? 0 };
    return known;
  }

  /** Applies a page, or, when it brings nothing, at most refreshes the stored last-synced time. */
  async function take(page: ChangesResponse, state: NonNullable<typeof known>): Promise<number> {
    const byKind = rowsByKind(page);
    const nothing = byKind.size === 0 && (page.scopeRemoved ?? []).length === 0 && page.cursor === state.cursor;
    if (nothing && now() - state.lastSyncedAt < LAST_SYNCED_REFRESH_MS) return 0;
    const rows = await applyPage(ctx, page, byKind);
    known = { ...state, cursor: page.cursor, lastSyncedAt: now() };
    return rows;
  }

  async function cycle(): Promise<{ retryAt: number | null }> {
    for (let pages = 0; !flags.stopped && !flags.paused && pages < 10_000; pages++) {
      const state = await syncState();
      let response: Response;
      try {
        response = await ctx.transport.request('GET', `/api/sync/changes?since=${state.cursor}&limit=${pageLimit}`, { 'X-Client-Id': state.clientId });
      } catch {
        if (flags.stopped) return { retryAt: null };
        attempts += 1;
        ctx.noteNetworkTrouble(OFFLINE_PULL_MESSAGE);
        return { retryAt: now() + backoffMs(attempts, random) };
      }
      if (flags.stopped) return { retryAt: null };
      const statusClass = classifyStatus(response.status);
      if (statusClass === 'auth') {
        ctx.pauseForAuth();
        return { retryAt: null };
      }
      if (statusClass !== 'applied') {
        attempts += 1;
        const message =
          statusClass === 'transient' ? 'The server is busy; new changes from elsewhere will arrive shortly.' : `Could not fetch changes (HTTP ${response.status})`;
        status.getState().reportError({ kind: 'server', message, at: now() });
        return { retryAt: now() + retryDelayMs(attempts, random, response.headers.get('Retry-After'), now()) };
      }
      const page = (await readJson(response)) as ChangesResponse | null;
      if (flags.stopped) return { retryAt: null };
      if (!page || typeof page.cursor !== 'number' || !page.changes) {
        status.getState().reportError({ kind: 'server', message: 'The server sent changes this app cannot read', at: now() });
        return { retryAt: null };
      }
      attempts = 0;
      const rows = await take(page, state);
      status.getState().setLastSyncedAt(now());
      ctx.clearTransientError();
      ctx.emit({
        type: 'pulled',
        cursor: page.cursor,
        rows,
        hasMore: page.hasMore === true,
        scopeAdded: page.scopeAdded ?? [],
        scopeRemoved: page.scopeRemoved ?? [],
      });
      if (!page.hasMore) return { retryAt: null };
    }
    return { retryAt: null };
  }

  return {
    cycle,
    knownCursor: () => known?.cursor ?? null,
    forget() {
      known = null;
    },
  };
}
