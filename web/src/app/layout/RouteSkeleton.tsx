import { useLocation } from 'react-router';
import { PageSpinner } from '@/components/PageSpinner';
import { DashboardSkeleton } from '@/features/progress';

/** What a screen shows while its code or data loads: the dashboard's outline on `/`, else a spinner. */
export function RouteSkeleton({ displayName }: { displayName: string | undefined }) {
  const { pathname } = useLocation();
  return pathname === '/' ? <DashboardSkeleton displayName={displayName} /> : <PageSpinner />;
}
