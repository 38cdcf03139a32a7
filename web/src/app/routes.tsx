/**
 * The route table of spec 000 §2 and 001 §2. Screens are lazy-loaded so the first download holds
 * only the shell (docs/web.md#first-load); /subscription redirects to /subscriptions
 * (docs/spec-differences.md).
 */
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, useLocation, type RouteObject } from 'react-router';
import { PageSpinner } from '@/components/PageSpinner';
import { preloadableLazy } from '@/lib/first-load';
import { readCachedUser } from '@/lib/session';
import { ProtectedRoute, ShellSkeleton } from './layout/ProtectedRoute';
import { RouteErrorBoundary } from './layout/RouteErrorBoundary';

// The signed-in shell shares one lazy chunk with the sync engine (layout/SignedInShell).
const AppLayout = preloadableLazy(() => import('./layout/SignedInShell').then((m) => ({ default: m.AppLayout })));
const AuthRoute = preloadableLazy(() => import('./routes/AuthRoute'));
const LoginRoute = preloadableLazy(() => import('./routes/LoginRoute'));
const RegisterRoute = preloadableLazy(() => import('./routes/RegisterRoute'));
const DashboardRoute = preloadableLazy(() => import('./routes/DashboardRoute'));
const SeriesRoute = lazy(() => import('./routes/SeriesRoute'));
const SeriesDetailRoute = lazy(() => import('./routes/SeriesDetailRoute'));
const NewBookRoute = lazy(() => import('./routes/NewBookRoute'));
const TrashRoute = lazy(() => import('./routes/TrashRoute'));
const CharactersRoute = lazy(() => import('./routes/CharactersRoute'));
const WorldRoute = lazy(() => import('./routes/WorldRoute'));
const TimelineRoute = lazy(() => import('./routes/TimelineRoute'));
const CollaborationRoute = lazy(() => import('./routes/CollaborationRoute'));
const AchievementsRoute = lazy(() => import('./routes/AchievementsRoute'));
// The charts (recharts) load with this page only (docs/decisions/0019-analytics-charts.md).
const AnalyticsRoute = lazy(() => import('./routes/AnalyticsRoute'));
const AiCompanionRoute = lazy(() => import('./routes/AiCompanionRoute'));
const WritersCompanionRoute = lazy(() => import('./routes/WritersCompanionRoute'));
const ProductsRoute = lazy(() => import('./routes/ProductsRoute'));
const CheckoutRoute = lazy(() => import('./routes/CheckoutRoute'));
const SubscriptionsRoute = lazy(() => import('./routes/SubscriptionsRoute'));
// The editor screen is the feature's own component (it applies the entry rule itself).
const ChapterEditor = lazy(() => import('@/features/editor').then((m) => ({ default: m.ChapterEditor })));
const NotFoundRoute = lazy(() => import('./routes/NotFoundRoute'));
const InspirationRoute = lazy(() => import('./routes/InspirationRoute'));
const ToolkitRoute = lazy(() => import('./routes/ToolkitRoute'));
const AccountRoute = lazy(() => import('./routes/AccountRoute'));
const ExportRoute = lazy(() => import('./routes/ExportRoute'));
const BackupsRoute = lazy(() => import('./routes/BackupsRoute'));
const ImportRoute = lazy(() => import('./routes/ImportRoute'));

/**
 * Downloads what the first screen at `pathname` paints with, so that the first render draws it
 * instead of a spinner (lib/first-load preloadableLazy: React shows content that replaces a fallback only
 * 300 ms after the fallback). main.tsx waits for it, at most `maxWaitMs`, before rendering. The
 * standalone screens by path; any other path is a signed-in screen, whose outline (ShellSkeleton)
 * is drawn first when an author is remembered on this device — without one, a spinner is all that
 * shows until the session is known. index.html's inline preload has usually started these downloads.
 */
export function preloadFirstScreen(pathname: string, maxWaitMs = 1000): Promise<void> {
  const standaloneScreens: Record<string, { preload: () => Promise<void> }> = { '/auth': AuthRoute, '/login': LoginRoute, '/register': RegisterRoute };
  const screen = standaloneScreens[pathname] ?? (readCachedUser() ? ShellSkeleton : undefined);
  if (!screen) return Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, maxWaitMs);
  });
  // A failed download is the lazy screen's to report (its error boundary), on its own render.
  return Promise.race([screen.preload().catch(() => undefined), timeout]).finally(() => clearTimeout(timer));
}

/**
 * Downloads the signed-in shell and, on `/`, the dashboard, once the outline has painted
 * (ProtectedRoute waits for it before drawing them): drawn before they had arrived, each first
 * showed a fallback and React then held it back 300 ms after it arrived — the local database and
 * the sync engine, which the shell starts, with it (docs/web.md#first-load).
 */
function preloadSignedInScreen(pathname: string): Promise<void> {
  return Promise.all([AppLayout.preload(), pathname === '/' ? DashboardRoute.preload() : undefined]).then(() => undefined);
}

/** A lazy screen outside the shell, with its own full-page spinner. */
function standalone(Screen: LazyExoticComponent<ComponentType>) {
  return (
    <Suspense fallback={<PageSpinner />}>
      <Screen />
    </Suspense>
  );
}

/** /subscription → /subscriptions, keeping any query string. */
function SubscriptionRedirect() {
  const { search, hash } = useLocation();
  return <Navigate to={`/subscriptions${search}${hash}`} replace />;
}

export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorBoundary />,
    children: [
      { path: '/auth', element: standalone(AuthRoute) },
      { path: '/login', element: standalone(LoginRoute) },
      { path: '/register', element: standalone(RegisterRoute) },
      { path: '/subscription', element: <SubscriptionRedirect /> },
      {
        element: <ProtectedRoute preloadScreen={preloadSignedInScreen} />,
        children: [
          {
            element: <AppLayout />,
            children: [
              { index: true, element: <DashboardRoute /> },
              { path: '/series', element: <SeriesRoute /> },
              { path: '/series/:id', element: <SeriesDetailRoute /> },
              { path: '/series/:id/books/new', element: <NewBookRoute /> },
              { path: '/series/:id/trash', element: <TrashRoute /> },
              { path: '/characters', element: <CharactersRoute /> },
              { path: '/world', element: <WorldRoute /> },
              { path: '/timeline', element: <TimelineRoute /> },
              { path: '/collaboration', element: <CollaborationRoute /> },
              { path: '/achievements', element: <AchievementsRoute /> },
              { path: '/analytics', element: <AnalyticsRoute /> },
              { path: '/ai-companion', element: <AiCompanionRoute /> },
              { path: '/writers-companion', element: <WritersCompanionRoute /> },
              { path: '/products', element: <ProductsRoute /> },
              { path: '/checkout', element: <CheckoutRoute /> },
              { path: '/subscriptions', element: <SubscriptionsRoute /> },
              { path: '/chapter-editor', element: <ChapterEditor /> },
              { path: '/inspiration', element: <InspirationRoute /> },
              { path: '/toolkit', element: <ToolkitRoute /> },
              { path: '/account', element: <AccountRoute /> },
              { path: '/series/:id/export', element: <ExportRoute /> },
              { path: '/backups', element: <BackupsRoute /> },
              { path: '/series/:id/import', element: <ImportRoute /> },
            ],
          },
        ],
      },
      { path: '*', element: standalone(NotFoundRoute) },
    ],
  },
];
