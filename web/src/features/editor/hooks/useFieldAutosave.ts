/**
 * Autosave of one chapter field edited beside the text (its synopsis, its notes;
 * docs/web.md#the-chapter-editor): each change is written through the mutators — the local row and
 * the outbox in one transaction, so offline-first — 700 ms after the author's last keystroke, at once
 * when the page is hidden or the panel closes. A value saved elsewhere replaces what is shown while
 * nothing typed here waits to be saved.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { registerBusyPredicate } from '@/lib/appBusy';

export const FIELD_AUTOSAVE_MS = 700;

export interface FieldAutosave {
  /** What to show: the author's unsaved value, else the saved one. */
  value: string;
  /** The author typed `next`. */
  change(next: string): void;
  /** Writes any waiting value now. */
  flush(): Promise<void>;
}

/**
 * `saved`: the field as the chapter row holds it now. `save`: writes a value (a chapter update).
 * `onSavedElsewhere`: called with a saved value that replaced the shown one (an uncontrolled view
 * updates itself).
 */
export function useFieldAutosave(
  saved: string,
  save: (value: string) => Promise<void>,
  onSavedElsewhere?: (value: string) => void,
): FieldAutosave {
  const [value, setValue] = useState(saved);
  const shown = useRef(saved);
  const pending = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const callbacks = useRef({ save, onSavedElsewhere });
  useLayoutEffect(() => {
    callbacks.current = { save, onSavedElsewhere };
  });

  const flush = useCallback(async () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    const next = pending.current;
    if (next === null) return;
    try {
      await callbacks.current.save(next);
    } finally {
      // A keystroke during the write keeps its own value waiting.
      if (pending.current === next) pending.current = null;
    }
  }, []);

  const change = useCallback(
    (next: string) => {
      pending.current = next;
      shown.current = next;
      setValue(next);
      if (timer.current !== null) clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), FIELD_AUTOSAVE_MS);
    },
    [flush],
  );

  // A value saved elsewhere (another device, a restore) is shown unless the author's own waits.
  useEffect(() => {
    if (pending.current !== null || shown.current === saved) return;
    shown.current = saved;
    setValue(saved);
    callbacks.current.onSavedElsewhere?.(saved);
  }, [saved]);

  useEffect(() => {
    const onHidden = () => {
      if (document.visibilityState === 'hidden') void flush();
    };
    const onPageHide = () => void flush();
    const unregister = registerBusyPredicate(() => pending.current !== null);
    window.addEventListener('pagehide', onPageHide);
    document.addEventListener('visibilitychange', onHidden);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      document.removeEventListener('visibilitychange', onHidden);
      unregister();
      void flush();
    };
  }, [flush]);

  return { value, change, flush };
}
