/**
 * React bindings of the sync client (@chronicler/sync-client): the signed-in user's database,
 * mutators and sync engine in a context, and hooks over them and over the status store.
 *
 *   const { userId, db, mutators, engine } = useSync();
 *   const db = useDb();  const mutators = useMutators();
 *
 * The provider that opens the database and runs the engine is the app's (`app/SyncProvider`);
 * tests (and stories) that want a real database without the engine use `SyncTestProvider`.
 */
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import {
  type ChroniclerDb,
  type Mutators,
  type SyncEngine,
  type SyncEvent,
  type SyncStatusState,
  type SyncStatusStore,
  type Restructure,
  createMutators,
  createRestructure,
  syncStatus,
} from '@chronicler/sync-client';

export interface SyncContextValue {
  userId: string;
  db: ChroniclerDb;
  mutators: Mutators;
  /** Trash, move, split and merge, each with its undo (docs/decisions/0014-trash-and-restructure.md). */
  restructure: Restructure;
  /** null in SyncTestProvider without an engine. */
  engine: SyncEngine | null;
}

export const SyncContext = createContext<SyncContextValue | null>(null);

/** The signed-in user's database, mutators and sync engine. Throws outside a provider. */
export function useSync(): SyncContextValue {
  const value = useContext(SyncContext);
  if (!value) throw new Error('useSync() must be used inside <SyncProvider> (the signed-in part of the app)');
  return value;
}

/** Like useSync but null outside a provider (shared chrome that also renders signed out). */
export function useOptionalSync(): SyncContextValue | null {
  return useContext(SyncContext);
}

export function useDb(): ChroniclerDb {
  return useSync().db;
}

export function useMutators(): Mutators {
  return useSync().mutators;
}

/** Subscribes to engine events (problems, conflicts, acks) while mounted. */
export function useSyncEvents(listener: (event: SyncEvent) => void): void {
  const engine = useOptionalSync()?.engine ?? null;
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(() => engine?.on((event) => ref.current(event)), [engine]);
}

/** How long a screen waits for a device's first sync before it shows what the device has. */
export const FIRST_SYNC_WAIT_MS = 5000;

/**
 * False while a device that has never synced is bringing the author's data for the first time
 * (a fresh install or a cleared browser): a screen that would show "no series yet" and then redraw
 * itself when the first page of changes lands keeps its loading outline instead. True once a page
 * has arrived (the stored last-synced time), when offline, on a sync error or a lost session, after
 * FIRST_SYNC_WAIT_MS, and without an engine (tests: the local data is all there is).
 */
export function useFirstSyncSettled(store: SyncStatusStore = syncStatus): boolean {
  const engine = useOptionalSync()?.engine ?? null;
  const settled = useStore(store, (s) => s.lastSyncedAt !== null || !s.online || s.lastError !== null || s.authRequired);
  const [waited, setWaited] = useState(false);
  useEffect(() => {
    if (settled || !engine) return undefined;
    const timer = setTimeout(() => setWaited(true), FIRST_SYNC_WAIT_MS);
    return () => clearTimeout(timer);
  }, [settled, engine]);
  return !engine || settled || waited;
}

/** A slice of the sync status store (the app's, or a test's own). */
export function useSyncStatus<T>(selector: (state: SyncStatusState) => T, store: SyncStatusStore = syncStatus): T {
  return useStore(store, selector);
}

export interface SyncTestProviderProps {
  db: ChroniclerDb;
  children: ReactNode;
  mutators?: Mutators;
  engine?: SyncEngine | null;
}

/** A provider over a given database, without the engine (component tests with fake-indexeddb). */
export function SyncTestProvider({ db, children, mutators, engine = null }: SyncTestProviderProps) {
  const [value] = useState<SyncContextValue>(() => ({ userId: db.userId, db, mutators: mutators ?? createMutators(db), restructure: createRestructure(db), engine }));
  return <SyncContext.Provider value={value}>{children}</SyncContext.Provider>;
}
