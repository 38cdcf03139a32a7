import { lazy, Suspense, useCallback, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PageSpinner } from '@/components/PageSpinner';
import { readCachedUser, useSession } from '@/lib/session';

// The shell's first paint (sidebar, top bar, the screen's outline): no Dexie, no sync engine.
const ShellSkeleton = lazy(() => import('./ShellSkeleton'));

// Dexie and the sync engine load only once someone is signed in and the shell has painted (SignedInShell).
const SyncProvider = lazy(() => import('./SignedInShell').then((m) => ({ default: m.SyncProvider })));

/**
 * Spec 000 §2 "Protected routes": a spinner while the user loads; /auth when nobody is signed in.
 * An author remembered on this device goes straight in while offline (lib/session).
 *
 * First load (issue 16): the shell and the screen's outline paint first, from the session's user
 * (the one remembered on this device while GET /api/user is on its way); only then are the
 * signed-in user's local database and sync engine (app/SyncProvider; screens read it with useSync()
 * from lib/sync) and the screen itself downloaded, the outline staying until they are ready.
 */
export function ProtectedRoute() {
  const status = useSession((s) => s.status);
  const sessionUser = useSession((s) => s.user);
  const [remembered] = useState(readCachedUser);
  const [painted, setPainted] = useState(false);
  const onPainted = useCallback(() => {
    setPainted(true);
    // The screen downloads beside the sync engine rather than after it.
    if (window.location.pathname === '/') void import('../routes/DashboardRoute');
  }, []);
  const location = useLocation();
  if (status === 'anonymous') return <Navigate to="/auth" replace state={{ from: location }} />;
  const user = sessionUser ?? remembered;
  const spinner = <PageSpinner label="Loading your workspace" />;
  const skeleton = user ? (
    <Suspense fallback={spinner}>
      <ShellSkeleton user={user} onPainted={painted ? undefined : onPainted} />
    </Suspense>
  ) : (
    spinner
  );
  if (status === 'loading' || !painted) return skeleton;
  return (
    <Suspense fallback={skeleton}>
      <SyncProvider pending={skeleton}>
        {/* Its own boundary: the outline stays while the shell's code resolves, never twice (hidden and shown). */}
        <Suspense fallback={skeleton}>
          <Outlet />
        </Suspense>
      </SyncProvider>
    </Suspense>
  );
}
