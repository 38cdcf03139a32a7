import { startTransition, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { afterPresented } from './paint';

/**
 * A screen drawn in steps once its first screenful is `ready` (the dashboard): answers the step to
 * draw, 0 (the first screenful) up to `steps`. Each step is a transition React renders in slices,
 * after the previous one has painted: one long task on a phone became several short ones, and no
 * commit is big. Draw what each step adds below what is already drawn, so nothing drawn first
 * moves.
 *
 * The first step waits until the browser has presented the first screenful (its largest paint,
 * afterPresented): a frame callback and a task came ~25 ms before that, and a download started then
 * counted as part of the first screenful's paint. `onAdvance(step)` runs just before `step` is
 * drawn: start a step's downloads there, not at the commit before it — requested at the commit,
 * they finished before the paint and a phone's browser counted them as part of it.
 *
 * No step waits longer than STEP_DEADLINE_MS: a transition that urgent renders keep restarting (the
 * pages of a first sync landing) or a frame that never comes (a tab in the background) left the
 * dashboard's second column undrawn for seconds. Past the deadline the step is drawn urgently.
 */
export const STEP_DEADLINE_MS = 1_000;

export function useStagedReveal(ready: boolean, steps: number, onAdvance?: (step: number) => void): number {
  const [step, setStep] = useState(0);
  const advance = useRef(onAdvance);
  advance.current = onAdvance;
  // When the first screenful was committed (a layout effect runs before the browser paints it).
  const firstScreenfulAt = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (ready && firstScreenfulAt.current === null) firstScreenfulAt.current = performance.now();
  }, [ready]);
  useEffect(() => {
    if (!ready || step >= steps) return undefined;
    let asked = false;
    const next = () => {
      if (asked) return;
      asked = true;
      advance.current?.(step + 1);
      startTransition(() => setStep(step + 1));
    };
    const deadline = setTimeout(() => {
      if (!asked) advance.current?.(step + 1);
      asked = true;
      setStep((current) => Math.max(current, step + 1));
    }, STEP_DEADLINE_MS);
    if (step === 0) {
      const stopWaiting = afterPresented(firstScreenfulAt.current ?? performance.now(), next);
      return () => {
        stopWaiting();
        clearTimeout(deadline);
      };
    }
    // Later steps: a task queued from the next frame, after the previous step's paint.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(next, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      clearTimeout(deadline);
    };
  }, [ready, step, steps]);
  return step;
}
