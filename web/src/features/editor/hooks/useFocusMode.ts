/**
 * Focus mode (docs/web.md#the-chapter-editor): the editor alone, over the whole window, and the
 * browser's full screen where it grants one (a phone's Safari does not: the window-wide layout
 * alone is then focus mode). Esc leaves it — in the browser's full screen, Esc never reaches the
 * page, it ends the full screen, so ending the full screen leaves focus mode too. Ctrl/Cmd+Shift+F
 * enters and leaves it from anywhere on the screen.
 */
import { type RefObject, useCallback, useEffect, useState } from 'react';

export interface FocusMode {
  on: boolean;
  enter(): void;
  leave(): void;
  toggle(): void;
}

export function isFocusModeShortcut(event: Pick<KeyboardEvent, 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'key'>): boolean {
  return (event.ctrlKey || event.metaKey) && event.shiftKey && !event.altKey && event.key.toLowerCase() === 'f';
}

function requestFullScreen(): void {
  const root = document.documentElement;
  if (document.fullscreenElement || typeof root.requestFullscreen !== 'function') return;
  // Refused (no user gesture, a policy, a browser without it): the window-wide layout stays.
  root.requestFullscreen({ navigationUI: 'hide' }).catch(() => undefined);
}

function exitFullScreen(): void {
  if (document.fullscreenElement && typeof document.exitFullscreen === 'function') document.exitFullscreen().catch(() => undefined);
}

/**
 * `screen`: the editor screen's element. Esc leaves focus mode only when it was pressed there (a
 * dialog above it, such as the comparison, takes its own Esc) and nothing took it before (the find
 * panel closes on Esc first).
 */
export function useFocusMode(screen: RefObject<HTMLElement | null>): FocusMode {
  const [on, setOn] = useState(false);
  const enter = useCallback(() => {
    setOn(true);
    requestFullScreen();
  }, []);
  const leave = useCallback(() => {
    setOn(false);
    exitFullScreen();
  }, []);
  const toggle = useCallback(() => (on ? leave() : enter()), [on, enter, leave]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isFocusModeShortcut(event)) {
        event.preventDefault();
        toggle();
        return;
      }
      if (!on || event.key !== 'Escape' || event.defaultPrevented) return;
      const target = event.target instanceof Node ? event.target : null;
      if (target && target !== document.body && !screen.current?.contains(target)) return;
      event.preventDefault();
      leave();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [on, toggle, leave, screen]);

  useEffect(() => {
    if (!on) return undefined;
    let wasFullScreen = Boolean(document.fullscreenElement);
    const onChange = () => {
      const now = Boolean(document.fullscreenElement);
      if (wasFullScreen && !now) setOn(false);
      wasFullScreen = now;
    };
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, [on]);

  // Leaving the screen (Back, a link) leaves the browser's full screen with it.
  useEffect(() => exitFullScreen, []);

  return { on, enter, leave, toggle };
}
