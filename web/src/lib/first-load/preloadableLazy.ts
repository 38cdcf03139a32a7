import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export type PreloadableLazy<T extends ComponentType<any>> = LazyExoticComponent<T> & {
  /** Starts (once) downloading the module; resolves when it has loaded. */
  preload: () => Promise<void>;
};

/**
 * `React.lazy` whose module can be fetched ahead of the first render — and which, once fetched,
 * renders at once, without suspending (docs/web.md#first-load).
 *
 * React 19 holds back the content that replaces a Suspense fallback until 300 ms after the fallback
 * appeared (it batches reveals). A first screen behind `lazy` therefore painted its spinner first and
 * its content up to 300 ms later, even when the module had already arrived: on a phone, that is 300 ms
 * of the first paint, and everything the page fetches in the meantime (the service worker, the toast
 * stack) then counts as blocking it. `main.tsx` awaits the first route's module (`preloadFirstScreen`
 * in app/routes) before the first render; a loaded module is handed to React through a thenable that
 * answers synchronously, so `lazy` returns the component in the same render.
 */
export function preloadableLazy<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): PreloadableLazy<T> {
  let loaded: { default: T } | undefined;
  let pending: Promise<{ default: T }> | undefined;
  const fetchModule = () => {
    pending ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        // A failed download may be tried again (the next render or preload).
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  const component = lazy(() => {
    if (!loaded) return fetchModule();
    const module = loaded;
    // React's lazy reads the thenable's result in the same call when `then` answers synchronously.
    return { then: (resolve: (value: { default: T }) => void) => resolve(module) } as unknown as Promise<{ default: T }>;
  });
  return Object.assign(component, { preload: () => fetchModule().then(() => undefined) });
}
