import { lazy, Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PageSpinner } from '@/components/PageSpinner';
import { useSession } from '@/lib/session';

// Dexie and the sync engine load only once someone is signed in (SignedInShell).
const SyncProvider = lazy(() => import('./SignedInShell').then((m) => ({ default: m.SyncProvider })));

/**
 * Spec 000 §2 "Protected routes": a spinner while the user loads; /auth when nobody is signed in.
 * An author remembered on this device goes straight in while offline (lib/session).
 * Inside, the signed-in user's local database and sync engine (app/SyncProvider; screens read it with useSync() from lib/sync).
 */
export function ProtectedRoute() {
  const status = useSession((s) => s.status);
  const location = useLocation();
  const spinner = <PageSpinner label="Loading your workspace" />;
  if (status === 'loading') return spinner;
  if (status === 'anonymous') return <Navigate to="/auth" replace state={{ from: location }} />;
  return (
    <Suspense fallback={spinner}>
      <SyncProvider>
        <Outlet />
      </SyncProvider>
    </Suspense>
  );
}
