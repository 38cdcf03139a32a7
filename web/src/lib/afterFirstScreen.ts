/**
 * Work the first screen does not need — the service worker and its update prompt, the toast stack
 * prefetched for offline use — waits until the page has loaded AND painted its first content, and
 * then a little longer (issue 16, first load). Run at the load event, it went out before the first
 * paint (a module page loads before React has painted anything) and competed with the screen's own
 * files on a phone's few connections: ~15 requests before the signed-in outline and the dashboard.
 */

/** How long after the first contentful paint the deferred work starts. */
export const AFTER_FIRST_SCREEN_MS = 1500;

/** Calls `callback` once, after load, the first contentful paint and AFTER_FIRST_SCREEN_MS; returns a cancel. */
export function afterFirstScreen(callback: () => void): () => void {
  let cancelled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let fallback: ReturnType<typeof setTimeout> | undefined;
  let observer: PerformanceObserver | undefined;
  const later = () => {
    if (cancelled || timer !== undefined) return;
    observer?.disconnect();
    if (fallback !== undefined) clearTimeout(fallback);
    timer = setTimeout(() => {
      if (!cancelled) callback();
    }, AFTER_FIRST_SCREEN_MS);
  };
  const afterPaint = () => {
    if (cancelled) return;
    const paintTiming = typeof PerformanceObserver !== 'undefined' && (PerformanceObserver.supportedEntryTypes ?? []).includes('paint');
    // A hidden tab paints nothing; without paint timing there is nothing to wait for.
    if (!paintTiming || document.visibilityState === 'hidden' || performance.getEntriesByName('first-contentful-paint').length > 0) {
      later();
      return;
    }
    observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) later();
    });
    observer.observe({ type: 'paint', buffered: true });
    // A page that never paints content still gets its prompt.
    fallback = setTimeout(later, 5000);
  };
  if (document.readyState === 'complete') afterPaint();
  else window.addEventListener('load', afterPaint, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', afterPaint);
    observer?.disconnect();
    if (timer !== undefined) clearTimeout(timer);
    if (fallback !== undefined) clearTimeout(fallback);
  };
}
