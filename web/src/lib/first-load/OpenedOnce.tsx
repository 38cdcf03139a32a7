import { Component, Suspense, useEffect, useState, type ReactNode } from 'react';

/**
 * A closed overlay (a Modal, a Drawer, a Popover's or Menu's dropdown) that is not rendered — nor
 * downloaded, when `children` draws a lazy component — until it is first opened
 * (docs/web.md#first-load). Mounted, a closed Mantine overlay still costs: its Portal and Floating
 * UI set state as they mount, and React re-renders them synchronously inside the first commit of
 * the screen that holds them (the signed-in shell's sync indicators, theme picker, sign-out guard
 * and mobile drawer: a ~20 ms synchronous render and ~20 kB of JavaScript before the dashboard).
 *
 * The first render is closed and the overlay opens once it has mounted: Mantine records the
 * element to return focus to when `opened` changes, not when it mounts opened. Once opened, it
 * stays mounted, so it closes with its transition and opens again at once. A layer whose download
 * fails (offline before the service worker has cached it) draws nothing: the page around it stays.
 */
export function OpenedOnce({ opened, children }: { opened: boolean; children: (opened: boolean) => ReactNode }) {
  const [wanted, setWanted] = useState(opened);
  // Set during render (React re-renders this component at once, before committing).
  if (opened && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <NothingOnError>
      <Suspense fallback={null}>
        <AfterMount>{(mounted) => children(opened && mounted)}</AfterMount>
      </Suspense>
    </NothingOnError>
  );
}

class NothingOnError extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/** `children(false)` until it has committed (with a lazy child: until the child has loaded and committed), then `children(true)`. */
function AfterMount({ children }: { children: (mounted: boolean) => ReactNode }) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return children(mounted);
}
