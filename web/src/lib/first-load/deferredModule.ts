import { useEffect, useState } from 'react';

export interface DeferredModule<T> {
  /** Starts (once) downloading the module; a failed download may be tried again. */
  load: () => Promise<T>;
  /** The module once `wanted` and downloaded (undefined until then). */
  useModule: (wanted: boolean) => T | undefined;
}

/**
 * A module the page downloads only when it is wanted — the toast stack, the update prompt, after
 * the first screen (docs/web.md#first-load) — and keeps. A failed download (offline on a first
 * visit, before the service worker serves the app) is tried again when the network returns, and
 * never reaches the screen: `React.lazy` throws it to the nearest error boundary, and the update
 * prompt's, wanted while the page was offline, took the whole app down with it (seen in the
 * editor's e2e tests).
 */
export function deferredModule<T>(importModule: () => Promise<T>): DeferredModule<T> {
  let loaded: T | undefined;
  let loading: Promise<T> | undefined;
  const load = () =>
    (loading ??= importModule().then(
      (module) => (loaded = module),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  function useModule(wanted: boolean): T | undefined {
    const [module, setModule] = useState<T | undefined>(() => loaded);
    useEffect(() => {
      if (module !== undefined || !wanted) return undefined;
      let live = true;
      const attempt = () =>
        void load().then(
          (arrived) => live && setModule(() => arrived),
          () => undefined,
        );
      attempt();
      window.addEventListener('online', attempt);
      return () => {
        live = false;
        window.removeEventListener('online', attempt);
      };
    }, [module, wanted]);
    return module;
  }
  return { load, useModule };
}
