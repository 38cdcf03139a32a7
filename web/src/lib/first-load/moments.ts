/**
 * The two moments first-load work is scheduled against (README.md in this folder):
 *
 * - **first paint** (`afterFirstPaint`): the page has loaded (the `load` event) and painted its
 *   first screen. At `load` alone — which a module page reaches before React has drawn anything —
 *   secondary UI was requests and tasks ahead of the first paint, which a phone's browser (and
 *   Lighthouse) then waits for too.
 * - **first screen** (`afterFirstScreen`): FIRST_SCREEN_DELAY_MS after the first paint, once the
 *   first screen's own downloads are done: on `/` the dashboard is drawn from the local database
 *   and the first pull, whose downloads come after the outline's paint. On a phone (HTTP/1.1, six
 *   connections) the toast stack and the update prompt fetched at the paint queued beside them and
 *   held the dashboard ~0.3 s (Lighthouse's simulated graph, `bench/lighthouse/lantern.ts`;
 *   bench/JOURNAL.md, "signed-in `/` first load — Lighthouse's LCP is the downloads, not the CPU").
 *
 * Both answer a function that cancels. docs/web.md#first-load says why the plan is what it is.
 */
import { afterPaint } from './paint';

/** How long after the first paint the first screen counts as done with its own downloads. */
export const FIRST_SCREEN_DELAY_MS = 3000;

/**
 * Runs `callback` `delayMs` after the first paint: once the page has loaded and the browser has
 * painted what is on screen (afterPaint).
 */
export function afterFirstPaint(callback: () => void, delayMs = 0): () => void {
  let cancelPaint: (() => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const painted = delayMs > 0 ? () => (timer = setTimeout(callback, delayMs)) : callback;
  const onLoaded = () => {
    cancelPaint = afterPaint(painted);
  };
  if (document.readyState === 'complete') onLoaded();
  else window.addEventListener('load', onLoaded, { once: true });
  return () => {
    window.removeEventListener('load', onLoaded);
    cancelPaint?.();
    if (timer !== undefined) clearTimeout(timer);
  };
}

/**
 * Runs `callback` at the first screen: the toast stack, the update prompt with the service worker,
 * the web app manifest. What needs them earlier does not wait: a toast draws itself plainly until
 * the stack is there (components/PlainToasts).
 */
export function afterFirstScreen(callback: () => void): () => void {
  return afterFirstPaint(callback, FIRST_SCREEN_DELAY_MS);
}
