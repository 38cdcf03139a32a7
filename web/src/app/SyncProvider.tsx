/**
 * The sync engine inside the React app (docs/web.md#reading-and-writing-data, docs/sync-protocol.md).
 *
 * Mounted once inside the protected part of the app: for the signed-in user it opens that user's
 * Dexie database, makes the mutators and ONE sync engine (browser fetch with cookies, EventSource,
 * Web Locks leader election, online/focus triggers), starts it, and stops it when the user changes
 * or signs out. While the database opens it shows the page spinner (never a blank screen); when the
 * browser cannot open it, an error screen. Screens read it through `@/lib/sync` (useSync, useDb,
 * useMutators).
 *
 * - A 401 from the server pauses syncing and sends the author to sign in; nothing is dropped (the
 *   outbox stays in IndexedDB and is sent after the next sign-in).
 * - The app-busy registry learns `isSyncBusy` (no app update reload while entries are in flight).
 * - The author's synced record (plan, time zone) keeps the session's user live (lib/currentUser.ts).
 * - Sign-out: a guard warns "N unsynced changes remain" while the outbox is not empty and lets the
 *   author cancel; after a confirmed sign-out the user's Dexie database is deleted.
 */
import { startTransition, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import {
  type ChroniclerDb,
  type SyncEngineOptions,
  bindStatusToDb,
  createMutators,
  createRestructure,
  createSyncEngine,
  isSyncBusy,
  openChroniclerDb,
  requestPersistentStorage,
  syncStatus,
} from '@chronicler/sync-client';
import { PageSpinner } from '@/components/PageSpinner';
import { SignOutGuardModal, StorageUnavailable, toastForProblem } from '@/features/sync-problems';
import { registerBusyPredicate } from '@/lib/appBusy';
import { bindSessionToSyncedUser } from '@/lib/currentUser';
import { liveChannelPolicy } from '@/lib/first-load';
import { relayLiveEvents } from '@/lib/liveEvents';
import { registerSignOutCleanup, registerSignOutGuard, sessionExpired, useSession } from '@/lib/session';
import { SyncContext, type SyncContextValue } from '@/lib/sync';
import { toast } from '@/lib/toast';

export interface SyncProviderProps {
  children: ReactNode;
  /** Opens the user's database (tests pass one over fake-indexeddb). */
  openDb?: (userId: string) => ChroniclerDb;
  /** Overrides for the engine (tests); the browser defaults otherwise. */
  engineOptions?: Partial<Omit<SyncEngineOptions, 'db'>>;
  /** Shown while the database opens (the shell's skeleton; a spinner by default; null: nothing). */
  pending?: ReactNode;
  /** Called before the browser paints whenever something other than `pending` is drawn (sign-out, the storage error; the children report themselves). */
  onShown?: () => void;
}

interface GuardPrompt {
  count: number;
  resolve: (proceed: boolean) => void;
}

const browserFetch: SyncEngineOptions['fetch'] = (url, init) => globalThis.fetch(url, { ...init, credentials: 'include' });

/** Opens the signed-in user's database and runs the sync engine for it. */
export function SyncProvider({ children, openDb = openChroniclerDb, engineOptions, pending, onShown }: SyncProviderProps) {
  const userId = useSession((s) => s.user?.id ?? null);
  const [value, setValue] = useState<SyncContextValue | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [prompt, setPrompt] = useState<GuardPrompt | null>(null);
  // Options are read once per user: a new object each render must not restart the engine.
  const optionsRef = useRef({ openDb, engineOptions });
  // Starts the engine and the bindings of the database that `value` holds (set by the effect below).
  const beginRef = useRef<(() => void) | null>(null);

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
      // A second after the first paint, or at once for a screen that listens for live events.
      liveChannel: liveChannelPolicy,
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
      // A picture the server refused for good (over the allowance, no multimedia): kept on the
      // device, not retried; its form says so too (docs/decisions/0023-pictures-on-the-device.md).
      if (event.type === 'picture-refused') toast.show({ title: 'Picture not uploaded', message: event.message, variant: 'destructive' });
    });
    const unrelayLive = relayLiveEvents(engine, userId);
    let unbindStatus = () => undefined as void;
    const unregisterBusy = registerBusyPredicate(() => isSyncBusy(syncStatus));
    const unregisterGuard = registerSignOutGuard(async () => {
      let count = 0;
      try {
        // Pictures not yet uploaded are lost with the device's data too (docs/decisions/0023-pictures-on-the-device.md).
        count = (await db.outbox.count()) + (await db.pictures.where('uploaded').equals(0).count());
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

    let unbindUser = () => undefined as void;
    let bindTimer: ReturnType<typeof setTimeout> | undefined;
    let begun = false;
    // Once the shell and the screen have committed (the effect below): the engine starts and the
    // sync status and session follow the database. Begun before, their stores changed while React
    // rendered the shell and the screen as a transition, and React, to show one consistent state,
    // rendered them again at once, in one blocking task (docs/web.md#first-load).
    beginRef.current = () => {
      if (cancelled || begun) return;
      begun = true;
      engine.start();
      unbindStatus = bindStatusToDb(db, syncStatus);
      // In a task of its own: with the engine's start, one task of ~35 ms.
      bindTimer = setTimeout(() => {
        if (cancelled) return;
        // The author's synced record (plan, time zone) drives the session's user from now on.
        unbindUser = bindSessionToSyncedUser(db);
        void requestPersistentStorage(db);
      }, 0);
    };
    db.open().then(
      () => {
        if (cancelled) return;
        setFailure(null);
        // The signed-in app's first render (the shell and the screen) as a transition, in slices:
        // at once, it was one task of ~45 ms, ~180 ms of blocking time on a phone.
        startTransition(() => setValue({ userId, db, mutators, restructure: createRestructure(db), engine }));
      },
      (error: unknown) => {
        if (cancelled) return;
        setFailure(String((error as Error)?.message ?? error));
      },
    );

    return () => {
      cancelled = true;
      beginRef.current = null;
      clearTimeout(bindTimer);
      unbindUser();
      unlistenProblems();
      unrelayLive();
      engine.stop();
      unbindStatus();
      unregisterBusy();
      unregisterGuard();
      unregisterCleanup();
      if (!deleted) db.close();
      setValue(null);
    };
  }, [userId]);

  // After the commit that first shows the signed-in app.
  useEffect(() => {
    if (value) beginRef.current?.();
  }, [value]);

  const answer = (proceed: boolean) => {
    prompt?.resolve(proceed);
    setPrompt(null);
  };

  const guardModal = <SignOutGuardModal count={prompt?.count ?? null} onAnswer={answer} />;

  const showsOwnScreen = !userId || failure !== null;
  useLayoutEffect(() => {
    if (showsOwnScreen) onShown?.();
  }, [showsOwnScreen, onShown]);

  // Signed out (the protected route is about to redirect): never render screens without their data.
  if (!userId) return <PageSpinner label="Signing out" />;
  if (failure) return <StorageUnavailable reason={failure} />;
  if (!value || value.userId !== userId) return pending === undefined ? <PageSpinner label="Opening your workspace" /> : pending;
  return (
    <SyncContext.Provider value={value}>
      {children}
      {guardModal}
    </SyncContext.Provider>
  );
}
