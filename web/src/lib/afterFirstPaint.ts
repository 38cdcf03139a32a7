/**
 * Runs `callback` once the page has loaded (the `load` event) and painted its first screen. At
 * `load` alone — which a module page reaches before React has drawn anything — secondary UI was
 * requests and tasks ahead of the first paint, which a phone's browser (and Lighthouse) then waits
 * for too (docs/web.md#first-load). `afterFirstScreen` waits longer.
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

/** How long after the first paint the secondary UI (the toast stack, the update prompt with the service worker) waits. */
export const SECONDARY_UI_DELAY_MS = 3000;

/**
 * Runs `callback` once the page has loaded, painted, and then had SECONDARY_UI_DELAY_MS for its
 * first screen: on `/` the dashboard is drawn from the local database and the first pull, whose
 * downloads come after the outline's paint. On a phone (HTTP/1.1, six connections) the toast stack
 * and the update prompt fetched at the paint queued beside them and held the dashboard ~0.3 s
 * (Lighthouse's simulated graph, `bench/lighthouse/lantern.ts`; bench/JOURNAL.md, "signed-in `/`
 * first load — Lighthouse's LCP is the downloads, not the CPU"). What needs them earlier does not
 * wait: a toast draws itself plainly until the stack is there (components/PlainToasts). Returns a
 * function that cancels.
 */
export function afterFirstScreen(callback: () => void, delayMs = SECONDARY_UI_DELAY_MS): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cancelPaint = afterLoadAndFirstPaint(() => {
    timer = setTimeout(callback, delayMs);
  });
  return () => {
    cancelPaint();
    if (timer !== undefined) clearTimeout(timer);
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

/**
 * Runs `callback` once what was committed at `since` (a `performance.now()` time) has been
 * presented: the browser's largest-contentful-paint record at or after it, when the commit holds a
 * new largest element (the dashboard's first screenful does); where there is no such record, two
 * frames on; at most `maxWaitMs` later in any case. A frame callback plus a task ran ~25 ms before
 * Chromium presented the frame, so the dashboard's second half was requested before its first
 * screenful counted as painted. Returns a function that cancels.
 */
export function afterPresented(since: number, callback: () => void, maxWaitMs = 250): () => void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    callback();
  };
  const timers = [setTimeout(run, maxWaitMs)];
  let observer: PerformanceObserver | undefined;
  let frame: number | undefined;
  if (typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')) {
    // A commit without a new largest element records nothing: maxWaitMs then.
    observer = new PerformanceObserver((list) => {
      if (list.getEntries().some((entry) => entry.startTime >= since)) timers.push(setTimeout(run, 0));
    });
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
  } else {
    // No such record: two frames on, the first has been presented.
    frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => {
        frame = undefined;
        timers.push(setTimeout(run, 0));
      });
    });
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
