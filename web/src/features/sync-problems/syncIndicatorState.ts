// What the sync indicator shows (SyncIndicator) and its status panel (SyncStatusPopover) reads.
import { useEffect, useMemo, useState } from 'react';
import { useOnline } from '@/lib/useOnline';
import { useSyncStatus } from '@/lib/sync';

/** Re-renders every `ms` so relative times stay true. */
export function useTick(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), ms);
    return () => window.clearInterval(id);
  }, [ms]);
  return now;
}

export function relativeSyncTime(at: number | null, now: number): string {
  if (at === null) return 'Not synced yet';
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 45) return 'Synced just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `Synced ${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `Synced ${hours} h ago`;
  return `Synced ${new Date(at).toLocaleDateString()}`;
}

/**
 * The panel's line under the unsynced count. "Synced just now" under "2 unsynced changes" reads as
 * a contradiction: with changes waiting, it says what happens to them and when the last sync was.
 */
export function syncTimeLine(state: Pick<IndicatorState, 'pendingCount' | 'syncing' | 'online' | 'lastSyncedAt'>, now: number): string {
  if (state.pendingCount === 0) return relativeSyncTime(state.lastSyncedAt, now);
  const last = state.lastSyncedAt === null ? 'not synced yet' : relativeSyncTime(state.lastSyncedAt, now).replace(/^Synced/, 'last synced');
  if (!state.online) return `Waiting for a connection · ${last}`;
  return state.syncing ? `Sending now · ${last}` : `Waiting to be sent · ${last}`;
}

export function unsyncedLabel(count: number): string {
  return count === 1 ? '1 unsynced change' : `${count} unsynced changes`;
}

export type Tone = 'ok' | 'offline' | 'pending' | 'problem';

export type IndicatorState = ReturnType<typeof useIndicatorState>;

export function useIndicatorState() {
  const browserOnline = useOnline();
  const storeOnline = useSyncStatus((s) => s.online);
  const pendingCount = useSyncStatus((s) => s.pendingCount);
  const syncing = useSyncStatus((s) => s.syncing);
  const lastSyncedAt = useSyncStatus((s) => s.lastSyncedAt);
  const deadLetters = useSyncStatus((s) => s.deadLetters);
  const lastError = useSyncStatus((s) => s.lastError);
  const authRequired = useSyncStatus((s) => s.authRequired);
  const online = browserOnline && storeOnline !== false;
  // One object per distinct state (SyncIndicator defers it: a new object at every render would
  // redraw it for nothing).
  return useMemo(() => {
    const problems = deadLetters.length + (lastError && lastError.kind !== 'network' ? 1 : 0);
    let tone: Tone = 'ok';
    if (!online) tone = 'offline';
    if (pendingCount > 0 && online) tone = 'pending';
    if (problems > 0 || authRequired) tone = 'problem';
    let label = online ? 'Online' : 'Offline';
    if (pendingCount > 0) label = unsyncedLabel(pendingCount);
    else if (syncing) label = 'Syncing';
    return { online, pendingCount, syncing, lastSyncedAt, deadLetters, lastError, authRequired, problems, tone, label };
  }, [online, pendingCount, syncing, lastSyncedAt, deadLetters, lastError, authRequired]);
}

