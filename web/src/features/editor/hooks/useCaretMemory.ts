/**
 * The chapter opens where the author left the caret on this device (lib/caretMemory). Moves are
 * written at most once a second and when the page goes away, never on every keystroke.
 */
import { useCallback, useEffect, useRef } from 'react';
import { type Caret, localCarets, recallCaret, rememberCaret } from '@/lib/caretMemory';

const WRITE_EVERY_MS = 1_000;

export function useCaretMemory(chapterId: string | null) {
  const pending = useRef<Caret | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const flush = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
    if (chapterId && pending.current) rememberCaret(localCarets, chapterId, pending.current, Date.now());
    pending.current = null;
  }, [chapterId]);

  useEffect(() => {
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [flush]);

  const onCaretMove = useCallback(
    (caret: Caret) => {
      if (!chapterId) return;
      pending.current = caret;
      timer.current ??= setTimeout(flush, WRITE_EVERY_MS);
    },
    [chapterId, flush],
  );

  const recall = useCallback((textLength: number) => (chapterId ? recallCaret(localCarets, chapterId, textLength) : null), [chapterId]);

  return { recall, onCaretMove };
}
