import { startTransition, Suspense, useCallback, useLayoutEffect, useMemo, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PageSpinner } from '@/components/PageSpinner';
import { preloadableLazy } from '@/lib/first-load';
import { readCachedUser, useSession } from '@/lib/session';

// The shell's first paint (sidebar, top bar, the screen's outline): no Dexie, no sync engine.
// main.tsx fetches it before the first render when someone is remembered (app/routes preloadFirstScreen).
export const ShellSkeleton = preloadableLazy(() => import('./ShellSkeleton'));

// Dexie and the sync engine load only once someone is signed in and the shell has painted (SignedInShell).
const SyncProvider = preloadableLazy(() => import('./SignedInShell').then((m) => ({ default: m.SyncProvider })));

/**
 * Spec 000 §2 "Protected routes": a spinner while the user loads; /auth when nobody is signed in.
 * An author remembered on this device goes straight in while offline (lib/session).
 *
 * First load (docs/web.md#first-load): the shell and the screen's outline paint first, from the
 * session's user (the one remembered on this device while GET /api/user is on its way); only then
 * are the signed-in user's local database and sync engine (app/SyncProvider; screens read it with
 * useSync() from lib/sync) and the screen itself downloaded, the outline staying until they are
 * ready.
 */
export function ProtectedRoute({ preloadScreen }: { preloadScreen?: (pathname: string) => Promise<void> } = {}) {
  const status = useSession((s) => s.status);
  const sessionUser = useSession((s) => s.user);
  const [remembered] = useState(readCachedUser);
  const [painted, setPainted] = useState(false);
  // Whether the signed-in app (the shell, a screen or the database's error) is on screen: the
  // outline is then taken away, in the same frame (a layout effect).
  const [shown, setShown] = useState(false);
  const onPainted = useCallback(() => {
    // zod and Dexie first, in a task of their own (./warmup), while the rest downloads beside them;
    // the shell without waiting for GET /api/user (it renders once the session is confirmed), and
    // the screen beside the sync engine rather than after it. Drawn only once they have arrived
    // (lib/first-load preloadableLazy): a Suspense fallback first made React hold them back 300 ms. Drawn as a
    // transition, in slices: at once, the shell's first render was one task of ~80 ms (×4 on a phone).
    void import('./warmup');
    const pathname = window.location.pathname;
    void Promise.all([SyncProvider.preload(), preloadScreen?.(pathname)])
      .catch(() => undefined)
      .then(() => startTransition(() => setPainted(true)));
  }, [preloadScreen]);
  const onShown = useCallback(() => setShown(true), []);
  const started = status !== 'loading' && painted;
  // The same element while `started` holds: when the outline is taken away (`shown`, set in the
  // app's layout effect) React then re-renders nothing but this component — re-rendering the shell
  // and the screen below it there was a synchronous ~30 ms render inside their first commit.
  const app = useMemo(
    () =>
      started ? (
        <Suspense fallback={null}>
          <SyncProvider pending={null} onShown={onShown}>
            {/* Its own boundary: the outline stays while the shell's code resolves, never twice (hidden and shown). */}
            <Suspense fallback={null}>
              <Outlet />
              <OnShown onShown={onShown} />
            </Suspense>
          </SyncProvider>
        </Suspense>
      ) : null,
    [started, onShown],
  );
  const location = useLocation();
  if (status === 'anonymous') return <Navigate to="/auth" replace state={{ from: location }} />;
  const user = sessionUser ?? remembered;
  const spinner = <PageSpinner label="Loading your workspace" />;
  const skeleton = user ? (
    <Suspense fallback={spinner}>
      <ShellSkeleton user={user} onPainted={onPainted} />
    </Suspense>
  ) : (
    spinner
  );
  // The outline is rendered once and stays where it is while the app loads beside it, hidden:
  // rendered again as a Suspense fallback it was built a second time (~50 ms on a phone).
  return (
    <>
      {shown ? null : skeleton}
      {app}
    </>
  );
}

/** Reports, before the browser paints, that the content beside it (in the same Suspense boundary) is on screen. */
function OnShown({ onShown }: { onShown: () => void }) {
  useLayoutEffect(() => onShown(), [onShown]);
  return null;
}
