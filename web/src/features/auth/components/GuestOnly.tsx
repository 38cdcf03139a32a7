import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PageSpinner } from '@/components/PageSpinner';
import { useSession } from '@/lib/session';
import { redirectTarget } from '../redirect';

/**
 * The account screens are for signed-out visitors: a signed-in author is sent on, as /auth does
 * (spec 000 §2), to the page that sent them here or "/". Used by /auth, /login and /register.
 */
export function GuestOnly({ children }: { children: ReactNode }) {
  const status = useSession((s) => s.status);
  const location = useLocation();
  if (status === 'loading') return <PageSpinner />;
  if (status === 'authenticated') return <Navigate to={redirectTarget(location)} replace />;
  return children;
}
