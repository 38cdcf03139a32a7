import { useEffect, useState } from 'react';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { afterFirstScreen, deferredModule, linkWebManifest } from '@/lib/first-load';
import { AppProviders } from './providers';
import { routes } from './routes';

// The service worker and its "new version" prompt wait for the page's load event (Workbox's advice)
// and the first screen (lib/first-load afterFirstScreen): the first screen never waits for them, nor for the
// service worker's precaching (docs/web.md#first-load).
const updatePrompt = deferredModule(() => import('./UpdatePrompt'));

const router = createBrowserRouter(routes);

function useLoaded(): boolean {
  const [loaded, setLoaded] = useState(false);
  useEffect(
    () =>
      loaded
        ? undefined
        : afterFirstScreen(() => {
            linkWebManifest();
            setLoaded(true);
          }),
    [loaded],
  );
  return loaded;
}

/** Its own component: when the page has painted, only this re-renders — not the providers and the router. */
function DeferredUpdatePrompt() {
  const module = updatePrompt.useModule(useLoaded());
  return module ? <module.UpdatePrompt /> : null;
}

export function App() {
  return (
    <AppProviders>
      <RouterProvider router={router} />
      <DeferredUpdatePrompt />
    </AppProviders>
  );
}
