/**
 * Panning the relationship map (at 200% zoom the outer nodes were cut off): drag the
 * background with a pointer, or focus the map and use the arrow keys. The offset is in viewBox
 * units and kept within reach of the drawing, so the map can never be lost off-screen.
 */
import { type KeyboardEvent, type PointerEvent, useCallback, useRef, useState } from 'react';

export const PAN_STEP = 40;
/** How far the drawing may move from its place, in viewBox units, at zoom 1. */
const PAN_LIMIT = 320;

export interface Pan {
  x: number;
  y: number;
}

export const NO_PAN: Pan = { x: 0, y: 0 };

export function clampPan(pan: Pan, zoom: number): Pan {
  const limit = PAN_LIMIT * Math.max(1, zoom);
  const clamp = (v: number) => Math.max(-limit, Math.min(limit, v));
  return { x: clamp(pan.x), y: clamp(pan.y) };
}

const KEY_STEPS: Record<string, Pan> = {
  ArrowLeft: { x: PAN_STEP, y: 0 },
  ArrowRight: { x: -PAN_STEP, y: 0 },
  ArrowUp: { x: 0, y: PAN_STEP },
  ArrowDown: { x: 0, y: -PAN_STEP },
};

/** `viewBoxWidth` converts screen pixels into viewBox units while dragging. */
export function useMapPan(zoom: number, viewBoxWidth: number) {
  const [pan, setPan] = useState<Pan>(NO_PAN);
  const drag = useRef<{ id: number; x: number; y: number; start: Pan; scale: number } | null>(null);

  const onPointerDown = useCallback(
    (event: PointerEvent<SVGSVGElement>) => {
      // Nodes and links keep their clicks: only the background starts a drag.
      if ((event.target as Element).closest('[role="button"]')) return;
      const rect = event.currentTarget.getBoundingClientRect();
      drag.current = { id: event.pointerId, x: event.clientX, y: event.clientY, start: pan, scale: rect.width > 0 ? viewBoxWidth / rect.width : 1 };
      event.currentTarget.setPointerCapture?.(event.pointerId);
    },
    [pan, viewBoxWidth],
  );
  const onPointerMove = useCallback(
    (event: PointerEvent<SVGSVGElement>) => {
      const d = drag.current;
      if (!d || d.id !== event.pointerId) return;
      setPan(clampPan({ x: d.start.x + (event.clientX - d.x) * d.scale, y: d.start.y + (event.clientY - d.y) * d.scale }, zoom));
    },
    [zoom],
  );
  const onPointerUp = useCallback((event: PointerEvent<SVGSVGElement>) => {
    if (drag.current?.id === event.pointerId) drag.current = null;
  }, []);
  const onKeyDown = useCallback(
    (event: KeyboardEvent<SVGSVGElement>) => {
      const step = KEY_STEPS[event.key];
      if (!step || event.target !== event.currentTarget) return;
      event.preventDefault();
      setPan((p) => clampPan({ x: p.x + step.x, y: p.y + step.y }, zoom));
    },
    [zoom],
  );
  const reset = useCallback(() => setPan(NO_PAN), []);

  return { pan, reset, handlers: { onPointerDown, onPointerMove, onPointerUp, onPointerCancel: onPointerUp, onKeyDown } };
}
