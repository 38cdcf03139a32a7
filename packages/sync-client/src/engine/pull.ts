/**
 * Pull (DESIGN.md §3, §6): GET /api/sync/changes?since=<cursor> page by page, each page and its
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

/** Applies one page of the feed and its cursor in ONE transaction with bulk writes. */
async function applyPage(ctx: EngineContext, page: ChangesResponse): Promise<number> {
  const { db } = ctx;
  let count = 0;
  await db.transaction('rw', SYNC_TABLES as unknown as string[], async () => {
    const removed = new Set(page.scopeRemoved);
    for (const seriesId of removed) await purgeSeries(ctx, seriesId);
    // Shadows exist only for rows with unsent local changes: none at all on a first sync, and
    // then the per-row lookups (thousands of keys a page) are skipped.
    const anyShadows = (await db.shadows.count()) > 0;
    for (const kind of ENTITY_KINDS) {
      // A user-scoped row (the author's own) has no series: scope removals never drop it.
      const rows = ((page.changes[kind] ?? []) as AnyRow[]).filter((row) => {
        const seriesId = seriesIdOfRow(kind, row);
        return seriesId === null || !removed.has(seriesId);
      });
      if (rows.length === 0) continue;
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
      for (const row of rebased) await applyServerRow(db, kind, row, false);
    }
    await db.syncState.update('state', { cursor: page.cursor, lastSyncedAt: ctx.now() });
  });
  return count;
}

export function createPuller(ctx: EngineContext, pageLimit: number): Puller {
  const { db, now, random, status, flags } = ctx;
  /** Failed pulls in a row (the backoff's attempt number). */
  let attempts = 0;

  async function cycle(): Promise<{ retryAt: number | null }> {
    for (let pages = 0; !flags.stopped && !flags.paused && pages < 10_000; pages++) {
      const state = await readSyncState(db);
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
      const rows = await applyPage(ctx, page);
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

  return { cycle };
}
