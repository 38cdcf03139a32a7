/**
 * Runs `callback` once the page has loaded (the `load` event) and painted its first screen: the
 * service worker, the update prompt and the toast stack wait for it (issue 16, first load). At
 * `load` alone — which a module page reaches before React has drawn anything — they were requests
 * and tasks ahead of the first paint, which a phone's browser (and Lighthouse) then waits for too.
 * Not later than that: a page taken offline just after it shows must already have them (the offline
 * e2e tests; waiting for the first paint + 1.5 s was too late for them, issue 16 session 11).
 *
 * "Painted" as afterPaint says. Returns a function that cancels.
 */
export function afterLoadAndFirstPaint(callback: () => void): () => void {
  let cancelPaint: (() => void) | undefined;
  const onLoaded = () => {
    cancelPaint = afterPaint(callback);
  };
  if (document.readyState === 'complete') onLoaded();
  else window.addEventListener('load', onLoaded, { once: true });
  return () => {
    window.removeEventListener('load', onLoaded);
    cancelPaint?.();
  };
}

/**
 * Runs `callback` once the browser has painted what is on screen now. The first time, that is the
 * browser's own first-contentful-paint record (a frame callback plus a task only guesses it, and
 * Chromium can present the frame a little later); after it (or where paint timing is missing, or
 * in a hidden tab, which paints nothing) a task queued from the next frame; at most a second later
 * in any case. Returns a function that cancels.
 */
export function afterPaint(callback: () => void): () => void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    callback();
  };
  const timers = [setTimeout(run, 1000)];
  let frame: number | undefined;
  let observer: PerformanceObserver | undefined;
  if (awaitsFirstPaint()) {
    observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) timers.push(setTimeout(run, 0));
    });
    observer.observe({ type: 'paint', buffered: true });
  } else {
    frame = requestAnimationFrame(() => timers.push(setTimeout(run, 0)));
  }
  return () => {
    done = true;
    if (frame !== undefined) cancelAnimationFrame(frame);
    for (const timer of timers) clearTimeout(timer);
    observer?.disconnect();
  };
}

/** True while this page has not yet recorded its first contentful paint (and the browser records it). */
function awaitsFirstPaint(): boolean {
  if (typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes('paint')) return false;
  if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return false;
  return performance.getEntriesByName('first-contentful-paint').length === 0;
}
