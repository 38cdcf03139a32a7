import { useCallback, useEffect, useRef, useState } from 'react';

/** Rows drawn beyond the window's edges, so a quick scroll never shows a gap. */
const OVERSCAN = 8;
/** What jsdom and a first render without layout assume of the window. */
const FALLBACK_VIEWPORT = 800;

export interface WindowedRows {
  /** The list's element: its place on the page decides which rows are in view. */
  ref: (element: HTMLElement | null) => void;
  /** The rows to draw: [start, end). */
  start: number;
  end: number;
  /** The list's full height, so the page scrolls as if every row were drawn. */
  height: number;
}

/**
 * The rows of a long list of fixed-height rows that are in the window (the page scrolls with the
 * window: docs/decisions/0001-editor-scrolls-with-the-page.md), re-read on scroll and resize in
 * an animation frame: 10,000 rows cost what the thirty in view cost (docs/decisions/0020-world-entries.md).
 */
export function useWindowedRows(count: number, rowHeight: number): WindowedRows {
  const element = useRef<HTMLElement | null>(null);
  const [range, setRange] = useState({ start: 0, end: Math.min(count, Math.ceil(FALLBACK_VIEWPORT / rowHeight) + OVERSCAN) });

  const measure = useCallback(() => {
    const top = element.current ? element.current.getBoundingClientRect().top : 0;
    const viewport = window.innerHeight || FALLBACK_VIEWPORT;
    const first = Math.max(0, Math.floor(-top / rowHeight) - OVERSCAN);
    const last = Math.min(count, Math.ceil((viewport - top) / rowHeight) + OVERSCAN);
    setRange((r) => (r.start === first && r.end === Math.max(first, last) ? r : { start: first, end: Math.max(first, last) }));
  }, [count, rowHeight]);

  useEffect(() => {
    measure();
    let frame = 0;
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(() => ((frame = 0), measure()));
    };
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, [measure]);

  const ref = useCallback(
    (node: HTMLElement | null) => {
      element.current = node;
      if (node) measure();
    },
    [measure],
  );
  return { ref, start: range.start, end: Math.min(range.end, count), height: count * rowHeight };
}
