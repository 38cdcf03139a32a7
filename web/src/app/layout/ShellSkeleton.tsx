/**
 * The signed-in shell as it first paints (issue 16, first-route JavaScript): the sidebar, the
 * mobile top bar and the screen's skeleton, from the session's user (remembered on this device
 * or just confirmed) — before the local database (Dexie), the sync engine and the schemas (zod)
 * download. ProtectedRoute shows it, then loads SignedInShell and the screen once it has painted;
 * the real AppLayout replaces it. Its own lazy chunk: `/auth` never downloads it.
 */
import { memo, useEffect } from 'react';
import { Skeleton } from '@mantine/core';
import { MobileTopBar, ShellFrame, Sidebar, useSidebarStore } from '@/features/layout';
import { ThemeToggle } from '@/features/theme';
import { signOut, type User } from '@/lib/session';
import { RouteSkeleton } from './RouteSkeleton';

/**
 * Runs `callback` once the browser has painted what is on screen now. The first time, that is the
 * browser's own first-contentful-paint record (a frame callback plus a task only guesses it, and
 * Chromium can present the frame a little later); after it (or where paint timing is missing, or
 * in a hidden tab, which paints nothing) a task queued from the next frame, at most a second later.
 */
function useAfterPaint(callback: (() => void) | undefined) {
  useEffect(() => {
    if (!callback) return undefined;
    let done = false;
    const run = () => {
      if (done) return;
      done = true;
      callback();
    };
    const timers: ReturnType<typeof setTimeout>[] = [];
    let frame: number | undefined;
    let observer: PerformanceObserver | undefined;
    if (awaitsFirstPaint()) {
      observer = new PerformanceObserver((list) => {
        if (list.getEntriesByName('first-contentful-paint').length > 0) timers.push(setTimeout(run, 0));
      });
      observer.observe({ type: 'paint', buffered: true });
      timers.push(setTimeout(run, 1000));
    } else {
      frame = requestAnimationFrame(() => timers.push(setTimeout(run, 0)));
    }
    return () => {
      done = true;
      if (frame !== undefined) cancelAnimationFrame(frame);
      for (const timer of timers) clearTimeout(timer);
      observer?.disconnect();
    };
  }, [callback]);
}

/** True while this page has not yet recorded its first contentful paint (and the browser records it). */
function awaitsFirstPaint(): boolean {
  if (typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes('paint')) return false;
  if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return false;
  return performance.getEntriesByName('first-contentful-paint').length === 0;
}

interface ShellSkeletonProps {
  user: User;
  /** Called once the skeleton is on screen: the rest of the signed-in app may load now. */
  onPainted?: () => void;
}

function ShellSkeleton({ user, onPainted }: ShellSkeletonProps) {
  const collapsed = useSidebarStore((s) => s.collapsed);
  const drawerOpen = useSidebarStore((s) => s.drawerOpen);
  const setDrawerOpen = useSidebarStore((s) => s.setDrawerOpen);
  useAfterPaint(onPainted);
  const placeholder = (width: number) => <Skeleton height={28} width={width} radius="xl" aria-hidden />;
  return (
    <ShellFrame
      pending
      sidebar={
        <Sidebar
          user={user}
          onSignOut={() => void signOut()}
          syncIndicator={placeholder(collapsed ? 28 : 96)}
          themeControl={placeholder(34)}
        />
      }
      topBar={
        // A tap on the menu opens the drawer as soon as the shell has loaded it (AppLayout).
        <MobileTopBar onOpenMenu={() => setDrawerOpen(true)} menuOpen={drawerOpen} syncIndicator={placeholder(28)} themeControl={<ThemeToggle size="lg" />} />
      }
      drawer={null}
    >
      <RouteSkeleton displayName={user.displayName} />
    </ShellFrame>
  );
}

/**
 * Drawn again only when what it shows changes: the session's confirmation (GET /api/user) brings a
 * new user object with the same name and plan, and re-rendering the sidebar and outline for it was
 * a long task on a phone right after the first paint (issue 16).
 */
export default memo(
  ShellSkeleton,
  (a, b) =>
    a.onPainted === b.onPainted && a.user.id === b.user.id && a.user.displayName === b.user.displayName && a.user.username === b.user.username && a.user.plan === b.user.plan,
);
