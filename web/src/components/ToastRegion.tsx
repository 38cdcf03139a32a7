import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { notifications, useNotifications } from '@mantine/notifications';
import { afterFirstScreen, deferredModule } from '@/lib/first-load';
import { TOAST_BEHAVIOUR } from '@/lib/copy/toast-core';
import { PlainToasts } from './PlainToasts';

// The toast stack (Mantine's Notifications, its transitions, its portal) is not part of the first
// screen's JavaScript, nor downloaded on the way to it (docs/web.md#first-load): it loads with the
// first toast, or a few seconds after the first screen. Until it has arrived — or when it cannot,
// offline on a first visit — the toasts are drawn plainly (PlainToasts), so none is lost or
// delayed.
const toastStack = deferredModule(() => import('./ToastStack'));

/** Downloads the toast stack once (the unit tests' setup does, so their toasts use it). */
export function loadToastStack(): Promise<void> {
  return toastStack.load().then(() => undefined);
}

/**
 * The toast region (spec 000 §9): one toast at a time, 5000 ms, max 420 px wide, swipe right past
 * 50 px to dismiss, F8 moves focus to the region. Rendered once by the app providers.
 */
export function ToastRegion() {
  const regionRef = useRef<HTMLElement>(null);
  const pending = useNotifications();
  const [stackWanted, setStackWanted] = useState(false);
  // Once loaded it stays: a closing toast still needs the stack for its exit transition.
  if (!stackWanted && pending.notifications.length + pending.queue.length > 0) setStackWanted(true);
  const ToastStack = toastStack.useModule(stackWanted)?.default;
  const drag = useRef<{ id: string; el: HTMLElement; startX: number; startY: number; dx: number; pointerId: number } | null>(
    null,
  );

  useEffect(() => afterFirstScreen(() => setStackWanted(true)), []);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(TOAST_BEHAVIOUR.hotkey as readonly string[]).includes(event.key)) return;
      event.preventDefault();
      regionRef.current?.focus();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  const onPointerDown = (event: ReactPointerEvent<HTMLElement>) => {
    if (event.button !== 0) return;
    const target = event.target as HTMLElement;
    if (target.closest('button, a, input, textarea, select')) return;
    const el = target.closest<HTMLElement>('[data-toast-id]');
    const id = el?.dataset.toastId;
    if (!el || !id) return;
    drag.current = { id, el, startX: event.clientX, startY: event.clientY, dx: 0, pointerId: event.pointerId };
    el.setPointerCapture?.(event.pointerId);
  };

  const onPointerMove = (event: ReactPointerEvent<HTMLElement>) => {
    const d = drag.current;
    if (!d || d.pointerId !== event.pointerId) return;
    d.dx = Math.max(0, event.clientX - d.startX);
    // `translate` composes with the transform Mantine animates, so the two never fight.
    d.el.style.translate = `${d.dx}px 0`;
    d.el.style.opacity = String(Math.max(0.35, 1 - d.dx / 250));
  };

  const endDrag = (event: ReactPointerEvent<HTMLElement>) => {
    const d = drag.current;
    if (!d || d.pointerId !== event.pointerId) return;
    drag.current = null;
    if (d.dx >= TOAST_BEHAVIOUR.swipeThresholdPx) {
      d.el.style.translate = '120% 0';
      d.el.style.opacity = '0';
      notifications.hide(d.id);
    } else {
      d.el.style.translate = '';
      d.el.style.opacity = '';
    }
  };

  return (
    <section
      ref={regionRef}
      aria-label={`Notifications (${TOAST_BEHAVIOUR.hotkey.join('+')})`}
      tabIndex={-1}
      data-toast-region=""
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={endDrag}
      onPointerCancel={endDrag}
      style={{ outline: 'none' }}
    >
      {ToastStack ? <ToastStack /> : <PlainToasts shown={pending.notifications} />}
    </section>
  );
}
