/**
 * "Painted" and "presented", as the browser reports them: the primitives the two moments
 * (moments.ts) and the staged reveal (stagedReveal.ts) are built on. A frame callback plus a task
 * only guesses a paint, and Chromium can present the frame later, so both ask the browser's paint
 * records first.
 */

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
