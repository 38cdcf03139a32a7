/**
 * The sync status the UI binds to (zustand): online/offline, syncing, unsynced changes (live from
 * the outbox), last synced time, dead letters, the last error and whether sign-in is needed.
 * A vanilla store so the engine and tests use it without React; web's `useSyncStatus` (lib/sync)
 * binds components to it.
 */
import { liveQuery } from 'dexie';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ChroniclerDb, DeadLetter } from './db.ts';

export type SyncErrorKind = 'quota' | 'storage' | 'rejected' | 'auth' | 'network' | 'server';

export interface SyncError {
  kind: SyncErrorKind;
  message: string;
  at: number;
}

export interface SyncStatusState {
  online: boolean;
  /** A push or pull is running in this tab (the leader). */
  syncing: boolean;
  /** This tab runs the sync engine (one leader tab per user, Web Locks). */
  leader: boolean;
  /** Outbox entries not yet acknowledged (all tabs: read from the database). */
  pendingCount: number;
  /** Entries on the wire right now. */
  inflightCount: number;
  lastSyncedAt: number | null;
  deadLetters: DeadLetter[];
  lastError: SyncError | null;
  /** The server answered 401: syncing is paused until the author signs in again. */
  authRequired: boolean;

  setOnline(online: boolean): void;
  setSyncing(syncing: boolean): void;
  setLeader(leader: boolean): void;
  setAuthRequired(required: boolean): void;
  setLastSyncedAt(at: number): void;
  reportError(error: Omit<SyncError, 'at'> & { at?: number }): void;
  clearError(): void;
}

export type SyncStatusStore = StoreApi<SyncStatusState>;

export function createSyncStatusStore(): SyncStatusStore {
  return createStore<SyncStatusState>()((set) => ({
    online: typeof navigator === 'undefined' || navigator.onLine !== false,
    syncing: false,
    leader: false,
    pendingCount: 0,
    inflightCount: 0,
    lastSyncedAt: null,
    deadLetters: [],
    lastError: null,
    authRequired: false,
    setOnline: (online) => set({ online }),
    setSyncing: (syncing) => set({ syncing }),
    setLeader: (leader) => set({ leader }),
    setAuthRequired: (authRequired) => set({ authRequired }),
    setLastSyncedAt: (lastSyncedAt) => set({ lastSyncedAt }),
    reportError: (error) => set({ lastError: { ...error, at: error.at ?? Date.now() } }),
    clearError: () => set({ lastError: null }),
  }));
}

/** The app's store. */
export const syncStatus: SyncStatusStore = createSyncStatusStore();

/** True while outbox entries are on the wire: the app-update prompt must not reload then. */
export function isSyncBusy(store: SyncStatusStore = syncStatus): boolean {
  return store.getState().inflightCount > 0;
}

/**
 * Keeps the store's counts, dead letters and last-synced time live from the database (any tab's
 * writes). Answers an unsubscribe function; call it on sign-out.
 */
export function bindStatusToDb(db: ChroniclerDb, store: SyncStatusStore = syncStatus): () => void {
  const subscription = liveQuery(async () => {
    const [pendingEntries, pendingPictures, inflightCount, deadLetters, state] = await Promise.all([
      db.outbox.count(),
      // A picture not yet uploaded is unsynced work too (docs/decisions/0023-pictures-on-the-device.md); a refused one is not waiting.
      db.pictures.where('uploaded').equals(0).filter((r) => r.refused === undefined).count(),
      db.outbox.where('status').equals('inflight').count(),
      db.deadLetters.orderBy('createdAt').reverse().toArray(),
      db.syncState.get('state'),
    ]);
    return { pendingCount: pendingEntries + pendingPictures, inflightCount, deadLetters, lastSyncedAt: state?.lastSyncedAt ?? null };
  }).subscribe({
    next: (value) => store.setState(value),
    error: (error: unknown) =>
      store.getState().reportError({ kind: 'storage', message: `Could not read the local database: ${String((error as Error)?.message ?? error)}` }),
  });
  return () => subscription.unsubscribe();
}
