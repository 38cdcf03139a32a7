/**
 * The sync engine inside the React app (DESIGN.md §1, §3).
 *
 *   <SyncProvider>            // mounted once inside the protected part of the app
 *     const { userId, db, mutators, engine } = useSync();
 *     const db = useDb();  const mutators = useMutators();
 *
 * For the signed-in user it opens that user's Dexie database, makes the mutators and ONE sync
 * engine (browser fetch with cookies, EventSource, Web Locks leader election, online/focus
 * triggers), starts it, and stops it when the user changes or signs out. While the database opens
 * it shows the page spinner (never a blank screen); when the browser cannot open it, an error
 * screen.
 *
 * - A 401 from the server pauses syncing and sends the author to sign in; nothing is dropped (the
 *   outbox stays in IndexedDB and is sent after the next sign-in).
 * - The app-busy registry learns `isSyncBusy` (no app update reload while entries are in flight).
 * - Sign-out: a guard warns "N unsynced changes remain" while the outbox is not empty and lets the
 *   author cancel; after a confirmed sign-out the user's Dexie database is deleted.
 *
 * Tests (and stories) that want a real database without the engine use `SyncTestProvider`.
 */
// The sign-out warning and the storage error (the shell imports the other Mantine CSS).
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Center, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { PageSpinner } from '@/components/PageSpinner';
import { registerBusyPredicate } from '@/lib/appBusy';
import { registerSignOutCleanup, registerSignOutGuard, sessionExpired, useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import {
  BOOK_TOASTS,
  CHAPTER_TOASTS,
  CHARACTER_TOASTS,
  DASHBOARD_TOASTS,
  LOCATION_TOASTS,
  SERIES_TOASTS,
  type ToastContent,
  timelineEventDeleteFailedToast,
  timelineEventSaveFailedToast,
  timelineReorderFailedToast,
  withError,
} from '@chronicler/schema';
import { type ChroniclerDb, type DeadLetter, type OutboxEntry, openChroniclerDb } from './db.ts';
import { type SyncEngine, type SyncEngineOptions, type SyncEvent, createSyncEngine } from './engine.ts';
import { type Mutators, createMutators } from './mutators.ts';
import { bindStatusToDb, isSyncBusy, syncStatus } from './status.ts';
import { requestPersistentStorage } from './storage.ts';

export interface SyncContextValue {
  userId: string;
  db: ChroniclerDb;
  mutators: Mutators;
  /** null in SyncTestProvider without an engine. */
  engine: SyncEngine | null;
}

const SyncContext = createContext<SyncContextValue | null>(null);

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

/** Text of the sign-out warning (exported for tests). */
export function unsyncedWarning(count: number): string {
  return count === 1 ? '1 unsynced change remains' : `${count} unsynced changes remain`;
}

/**
 * The toast for a change the server refused for good (a dead letter): the catalogue's failure toast
 * of that kind of change, with the server's reason (e.g. a plan limit). The optimistic change is
 * already reverted by the engine; the words stay recoverable in the sync indicator's problems panel.
 */
export function problemToast(entry: Pick<OutboxEntry, 'entity' | 'kind'>, message: string): ToastContent {
  const error = { message };
  const { entity, kind } = entry;
  switch (entity) {
    case 'series':
      if (kind === 'create') return withError(SERIES_TOASTS.seriesCreateFailed, error);
      if (kind === 'update') return withError(DASHBOARD_TOASTS.seriesUpdateFailed, error);
      return withError({ title: 'Error deleting series', variant: 'destructive' }, error);
    case 'books':
      if (kind === 'create') return withError(BOOK_TOASTS.bookCreateFailed, error);
      if (kind === 'delete') return withError(BOOK_TOASTS.bookDeleteFailed, error);
      return withError(BOOK_TOASTS.bookUpdateFailed, error);
    case 'chapters':
    case 'chapterConflicts':
      return withError(CHAPTER_TOASTS.chapterSaveFailed, error);
    case 'characters':
      if (kind === 'create') return withError(CHARACTER_TOASTS.characterAddFailed, error);
      if (kind === 'delete') return withError(CHARACTER_TOASTS.characterDeleteFailed, error);
      return withError(CHARACTER_TOASTS.characterUpdateFailed, error);
    case 'characterRelationships':
      return withError(CHARACTER_TOASTS.relationshipAddFailed, error);
    case 'locations':
      if (kind === 'create') return withError(LOCATION_TOASTS.locationAddFailed, error);
      if (kind === 'delete') return withError(LOCATION_TOASTS.locationDeleteFailed, error);
      return withError(LOCATION_TOASTS.locationUpdateFailed, error);
    case 'timelineEvents':
      if (kind === 'reorder') return timelineReorderFailedToast(error);
      if (kind === 'delete') return timelineEventDeleteFailedToast(error);
      return timelineEventSaveFailedToast(kind === 'create' ? 'create' : 'edit', error);
    default:
      return { title: 'Change not saved', message, variant: 'destructive' };
  }
}

/**
 * The toast for a new entry of the problems panel. A 2xx one was saved, onto a row a delete on
 * another device had removed (engine keepRemovedWords): not a failure, so a plain heads-up.
 */
export function toastForProblem(letter: Pick<DeadLetter, 'entry' | 'status'>, message: string): ToastContent {
  if (letter.status >= 200 && letter.status < 300) return { title: 'Deleted on another device', message, variant: 'default' };
  return problemToast(letter.entry, message);
}

export interface SyncProviderProps {
  children: ReactNode;
  /** Opens the user's database (tests pass one over fake-indexeddb). */
  openDb?: (userId: string) => ChroniclerDb;
  /** Overrides for the engine (tests); the browser defaults otherwise. */
  engineOptions?: Partial<Omit<SyncEngineOptions, 'db'>>;
}

interface GuardPrompt {
  count: number;
  resolve: (proceed: boolean) => void;
}

const browserFetch: SyncEngineOptions['fetch'] = (url, init) => globalThis.fetch(url, { ...init, credentials: 'include' });

/** Opens the signed-in user's database and runs the sync engine for it. */
export function SyncProvider({ children, openDb = openChroniclerDb, engineOptions }: SyncProviderProps) {
  const userId = useSession((s) => s.user?.id ?? null);
  const [value, setValue] = useState<SyncContextValue | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [prompt, setPrompt] = useState<GuardPrompt | null>(null);
  // Options are read once per user: a new object each render must not restart the engine.
  const optionsRef = useRef({ openDb, engineOptions });

  useEffect(() => {
    if (!userId) return undefined;
    let cancelled = false;
    let deleted = false;
    const { openDb: open, engineOptions: extra } = optionsRef.current;
    const db = open(userId);
    const mutators = createMutators(db);
    const engine = createSyncEngine({
      db,
      fetch: browserFetch,
      baseUrl: '',
      locks: typeof navigator !== 'undefined' ? ((navigator as { locks?: SyncEngineOptions['locks'] }).locks ?? null) : null,
      eventSource:
        typeof EventSource === 'function'
          ? (url) => new EventSource(url, { withCredentials: true }) as unknown as ReturnType<NonNullable<SyncEngineOptions['eventSource']>>
          : null,
      platform: {
        window: typeof window !== 'undefined' ? window : null,
        document: typeof document !== 'undefined' ? document : null,
      },
      // The session is gone: show sign-in. The outbox stays in IndexedDB and syncs after sign-in.
      onAuthRequired: () => sessionExpired(),
      ...extra,
    });

    // A change refused for good: say so once (the engine already reverted it locally).
    const unlistenProblems = engine.on((event) => {
      if (event.type === 'problem' && !event.deadLetter.causedBy) toast.show(toastForProblem(event.deadLetter, event.message));
    });
    const unbindStatus = bindStatusToDb(db, syncStatus);
    const unregisterBusy = registerBusyPredicate(() => isSyncBusy(syncStatus));
    const unregisterGuard = registerSignOutGuard(async () => {
      let count = 0;
      try {
        count = await db.outbox.count();
      } catch {
        count = 0;
      }
      if (count === 0) return true;
      return new Promise<boolean>((resolve) => setPrompt({ count, resolve }));
    });
    const unregisterCleanup = registerSignOutCleanup(async () => {
      deleted = true;
      engine.stop();
      unbindStatus();
      await db.delete();
    });

    db.open().then(
      () => {
        if (cancelled) return;
        setFailure(null);
        setValue({ userId, db, mutators, engine });
        engine.start();
        void requestPersistentStorage(db);
      },
      (error: unknown) => {
        if (cancelled) return;
        setFailure(String((error as Error)?.message ?? error));
      },
    );

    return () => {
      cancelled = true;
      unlistenProblems();
      engine.stop();
      unbindStatus();
      unregisterBusy();
      unregisterGuard();
      unregisterCleanup();
      if (!deleted) db.close();
      setValue(null);
    };
  }, [userId]);

  const answer = (proceed: boolean) => {
    prompt?.resolve(proceed);
    setPrompt(null);
  };

  const guardModal = (
    <Modal opened={prompt !== null} onClose={() => answer(false)} title="Sign out?" centered>
      <Stack gap="md">
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title={prompt ? unsyncedWarning(prompt.count) : ''}>
          These changes have not reached the server yet. If you sign out now they are deleted from this device. Stay signed
          in and connect to the internet to sync them first.
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => answer(false)} data-autofocus>
            Stay signed in
          </Button>
          <Button color="red" onClick={() => answer(true)}>
            Sign out anyway
          </Button>
        </Group>
      </Stack>
    </Modal>
  );

  // Signed out (the protected route is about to redirect): never render screens without their data.
  if (!userId) return <PageSpinner label="Signing out" />;
  if (failure) {
    return (
      <Center mih="60vh" p="md">
        <Alert color="red" variant="light" title="Chronicler could not open its storage on this device" maw={520} role="alert">
          <Text size="sm">
            Your work is stored in this browser. It could not be opened ({failure}). Private windows and some browser
            settings block storage; try a normal window or allow site data, then reload.
          </Text>
          <Button mt="sm" variant="light" color="red" onClick={() => window.location.reload()}>
            Reload
          </Button>
        </Alert>
      </Center>
    );
  }
  if (!value || value.userId !== userId) return <PageSpinner label="Opening your workspace" />;
  return (
    <SyncContext.Provider value={value}>
      {children}
      {guardModal}
    </SyncContext.Provider>
  );
}

export interface SyncTestProviderProps {
  db: ChroniclerDb;
  children: ReactNode;
  mutators?: Mutators;
  engine?: SyncEngine | null;
}

/** A provider over a given database, without the engine (component tests with fake-indexeddb). */
export function SyncTestProvider({ db, children, mutators, engine = null }: SyncTestProviderProps) {
  const [value] = useState<SyncContextValue>(() => ({ userId: db.userId, db, mutators: mutators ?? createMutators(db), engine }));
  return <SyncContext.Provider value={value}>{children}</SyncContext.Provider>;
}
