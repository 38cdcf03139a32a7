/**
 * The signed-in author's role in a series (collaboration), kept in the local database from
 * GET /api/collaboration/series: screens lock their writing controls for a viewer, offline too, and
 * unlock (or lock) the moment a role change arrives — the changes feed resends a series whose
 * membership changed as a scope addition, and that refreshes the roles. `canEdit` is true while the
 * role is unknown: the server is the judge.
 */
import { useCallback, useEffect } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { type CollaborativeSeries, ROLE_MESSAGES, type SeriesRole } from '@chronicler/schema';
import { type ChroniclerDb, type SyncEvent, canEditWith, seriesRoleOf, storeSeriesRoles } from '@chronicler/sync-client';
import { afterPresented } from './first-load';
import { api } from './api';
import { useFirstSyncSettled, useOptionalSync, useSyncEvents } from './sync';

export interface SeriesRoleState {
  role: SeriesRole | null;
  canEdit: boolean;
  /** Why the screen is read-only ('' when it is not). */
  readOnlyReason: string;
  /** false once the series is not on this device (the author left it or was removed); null while unknown. */
  seriesPresent: boolean | null;
}

export function useSeriesRole(seriesId: string | null | undefined): SeriesRoleState {
  const db = useOptionalSync()?.db ?? null;
  const state = useLiveQuery(
    async () => (db && seriesId ? { role: await seriesRoleOf(db, seriesId), present: (await db.series.get(seriesId)) !== undefined } : null),
    [db, seriesId],
    null,
  );
  const role = state?.role ?? null;
  const canEdit = canEditWith(role);
  return { role, canEdit, readOnlyReason: canEdit ? '' : ROLE_MESSAGES.readOnly, seriesPresent: state ? state.present : null };
}

/** Whether a sync event changed which series the author takes part in (or their role in one). */
export function changesScope(event: SyncEvent): boolean {
  return event.type === 'pulled' && (event.scopeAdded.length > 0 || event.scopeRemoved.length > 0);
}

/** Fetches the author's series and stores their roles locally; answers the list. */
export async function refreshSeriesRoles(db: ChroniclerDb | null): Promise<CollaborativeSeries[]> {
  const series = await api.get<CollaborativeSeries[]>('/api/collaboration/series');
  if (db) await storeSeriesRoles(db, series);
  return series;
}

/**
 * Keeps the local roles current app-wide (the app shell mounts it): once the first sync has settled
 * and the screen has drawn it, when the network returns, and at scope changes. Not at once on
 * start: on a first load the request went out beside the first screen's own and ended last on a
 * phone's connections; the stored roles stand meanwhile, and the server judges every write.
 */
export function useSeriesRolesSync(): void {
  const db = useOptionalSync()?.db ?? null;
  const settled = useFirstSyncSettled();
  const refresh = useCallback(() => {
    if (!db) return;
    refreshSeriesRoles(db).catch(() => undefined); // offline or signed out: the stored roles stand
  }, [db]);
  useEffect(() => {
    if (!settled) return undefined;
    // After the screen has drawn what the first sync brought (its paint), not beside it.
    const cancel = afterPresented(performance.now(), refresh, 500);
    window.addEventListener('online', refresh);
    return () => {
      cancel();
      window.removeEventListener('online', refresh);
    };
  }, [refresh, settled]);
  useSyncEvents((event) => {
    if (changesScope(event)) refresh();
  });
}
