/**
 * Runs `callback` once the page has loaded (the `load` event) and painted its first screen: the
 * service worker, the update prompt and the toast stack wait for it (issue 16, first load). At
 * `load` alone — which a module page reaches before React has drawn anything — they were requests
 * and tasks ahead of the first paint, which a phone's browser (and Lighthouse) then waits for too.
 * Not later than that: a page taken offline just after it shows must already have them (the offline
 * e2e tests; waiting for the first paint + 1.5 s was too late for them, issue 16 session 11).
 *
 * "Painted" is the browser's first-contentful-paint record, or where paint timing is missing or the
 * tab is hidden (nothing paints) the next frame; at most a second after `load` in any case.
 * Returns a function that cancels.
 */
export function afterLoadAndFirstPaint(callback: () => void): () => void {
  let cancelled = false;
  const cleanups: (() => void)[] = [];
  const run = () => {
    if (cancelled) return;
    cancelled = true;
    callback();
  };
  const onLoaded = () => {
    if (cancelled) return;
    const timer = setTimeout(run, 1000);
    cleanups.push(() => clearTimeout(timer));
    if (awaitsFirstPaint()) {
      const observer = new PerformanceObserver((list) => {
        if (list.getEntriesByName('first-contentful-paint').length === 0) return;
        const next = setTimeout(run, 0);
        cleanups.push(() => clearTimeout(next));
      });
      observer.observe({ type: 'paint', buffered: true });
      cleanups.push(() => observer.disconnect());
    } else {
      const frame = requestAnimationFrame(() => {
        const next = setTimeout(run, 0);
        cleanups.push(() => clearTimeout(next));
      });
      cleanups.push(() => cancelAnimationFrame(frame));
    }
  };
  if (document.readyState === 'complete') onLoaded();
  else {
    window.addEventListener('load', onLoaded, { once: true });
    cleanups.push(() => window.removeEventListener('load', onLoaded));
  }
  return () => {
    cancelled = true;
    for (const cleanup of cleanups) cleanup();
  };
}

/** True while this page has not yet recorded its first contentful paint (and the browser records it). */
export function awaitsFirstPaint(): boolean {
  if (typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes('paint')) return false;
  if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return false;
  return performance.getEntriesByName('first-contentful-paint').length === 0;
}
