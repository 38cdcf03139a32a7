import { lazy, Suspense, useEffect, useState } from 'react';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { AppProviders } from './providers';
import { routes } from './routes';

// The service worker and its "new version" prompt wait for the page's load event (Workbox's
// advice): the first screen never waits for them (issue 16, first-route JavaScript).
const UpdatePrompt = lazy(() => import('./UpdatePrompt').then((m) => ({ default: m.UpdatePrompt })));

const router = createBrowserRouter(routes);

function useLoaded(): boolean {
  const [loaded, setLoaded] = useState(() => document.readyState === 'complete');
  useEffect(() => {
    if (loaded) return;
    if (document.readyState === 'complete') {
      setLoaded(true);
      return;
    }
    const onLoad = () => setLoaded(true);
    window.addEventListener('load', onLoad, { once: true });
    return () => window.removeEventListener('load', onLoad);
  }, [loaded]);
  return loaded;
}

export function App() {
  const loaded = useLoaded();
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
