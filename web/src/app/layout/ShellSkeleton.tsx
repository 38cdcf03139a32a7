/**
 * The signed-in shell as it first paints (docs/web.md#first-load): the sidebar, the
 * mobile top bar and the screen's skeleton, from the session's user (remembered on this device
 * or just confirmed) — before the local database (Dexie), the sync engine and the schemas (zod)
 * download. ProtectedRoute shows it, then loads SignedInShell and the screen once it has painted;
 * the real AppLayout replaces it. Its own lazy chunk: `/auth` never downloads it.
 */
import { memo, useEffect } from 'react';
import { Skeleton } from '@mantine/core';
import { MobileTopBar, ShellFrame, Sidebar, useSidebarStore } from '@/features/layout';
import { ThemeToggle } from '@/features/theme';
import { afterPaint } from '@/lib/first-load';
import { signOut, type User } from '@/lib/session';
import { RouteSkeleton } from './RouteSkeleton';

/** Runs `callback` once the browser has painted what is on screen now (lib/first-load afterPaint). */
function useAfterPaint(callback: (() => void) | undefined) {
  useEffect(() => (callback ? afterPaint(callback) : undefined), [callback]);
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
 * a long task on a phone right after the first paint.
 */
export default memo(
  ShellSkeleton,
  (a, b) =>
    a.onPainted === b.onPainted && a.user.id === b.user.id && a.user.displayName === b.user.displayName && a.user.username === b.user.username && a.user.plan === b.user.plan,
);
