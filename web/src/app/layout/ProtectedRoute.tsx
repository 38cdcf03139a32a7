import { Navigate, Outlet, useLocation } from 'react-router';
import { PageSpinner } from '@/components/PageSpinner';
import { useSession } from '@/lib/session';
import { SyncProvider } from '@/app/SyncProvider';

/**
 * Spec 000 §2 "Protected routes": a spinner while the user loads; /auth when nobody is signed in.
 * An author remembered on this device goes straight in while offline (lib/session).
 * Inside, the signed-in user's local database and sync engine (app/SyncProvider; screens read it with useSync() from lib/sync).
 */
export function ProtectedRoute() {
  const status = useSession((s) => s.status);
  const location = useLocation();
  if (status === 'loading') return <PageSpinner label="Loading your workspace" />;
  if (status === 'anonymous') return <Navigate to="/auth" replace state={{ from: location }} />;
  return (
    <SyncProvider>
      <Outlet />
    </SyncProvider>
  );
}
