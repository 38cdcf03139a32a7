/**
 * "Is it safe to reload the page right now?" — a registry of predicates.
 *
 * The sync engine registers one that is true while outbox entries are in flight; the chapter
 * editor registers one that is true while it holds unsaved input. The service-worker update prompt
 * never reloads while any predicate returns true (docs/web.md#app-updates).
 *
 *   const unregister = registerBusyPredicate(() => outbox.inFlight > 0);
 *
 * Also exposed as `window.__chroniclerBusy()` for tests and for code outside the bundle.
 */
export type BusyPredicate = () => boolean;

const predicates = new Set<BusyPredicate>();

export function registerBusyPredicate(predicate: BusyPredicate): () => void {
  predicates.add(predicate);
  return () => {
    predicates.delete(predicate);
  };
}

/** True when any registered predicate says the app is busy (a throwing predicate counts as busy). */
export function isAppBusy(): boolean {
  for (const predicate of predicates) {
    try {
      if (predicate()) return true;
    } catch {
      return true;
    }
  }
  return false;
}

declare global {
  interface Window {
    __chroniclerBusy?: () => boolean;
  }
}

if (typeof window !== 'undefined') {
  window.__chroniclerBusy = isAppBusy;
}
