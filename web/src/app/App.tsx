import { lazy, Suspense, useEffect, useState } from 'react';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { afterFirstScreen } from '@/lib/afterFirstScreen';
import { AppProviders } from './providers';
import { routes } from './routes';

// The service worker and its "new version" prompt wait for the page's load event (Workbox's
// advice) and the first screen's paint: the first screen never waits for them (issue 16).
const UpdatePrompt = lazy(() => import('./UpdatePrompt').then((m) => ({ default: m.UpdatePrompt })));

const router = createBrowserRouter(routes);

/** True once the first screen is on screen (lib/afterFirstScreen). */
function useAfterFirstScreen(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => afterFirstScreen(() => setReady(true)), []);
  return ready;
}

export function App() {
  const loaded = useAfterFirstScreen();
  return (
    <AppProviders>
      <RouterProvider router={router} />
      {loaded && (
        <Suspense fallback={null}>
          <UpdatePrompt />
        </Suspense>
      )}
    </AppProviders>
  );
}
