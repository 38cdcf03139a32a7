import { Suspense, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { CurrentSeriesSlot } from '@/components/CurrentSeriesSlot';
import { SyncIndicator, SyncProgress } from '@/features/sync-problems';
import { ThemePackOwnershipFromEntitlements } from '@/lib/ThemePackOwnershipFromEntitlements';
import { MobileDrawer, MobileTopBar, SearchButton, ShellFrame, Sidebar, useSidebarStore } from '@/features/layout';
import { SearchHost, useSearchOpen } from '@/features/search';
import { ThemePicker, ThemeToggle } from '@/features/theme';
import { signOut, useSession } from '@/lib/session';
import { useSeriesRolesSync } from '@/lib/useSeriesRole';
import { afterFirstScreen, deferredModule } from '@/lib/first-load';
import { RouteSkeleton } from './RouteSkeleton';

/** Keeps the open series' pictures on the device; downloaded after the first screen (docs/decisions/0023-pictures-on-the-device.md). */
const picturesKeeper = deferredModule(() => import('@/components/pictures/PicturesKeeper'));

function DeferredPicturesKeeper() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => afterFirstScreen(() => setWanted(true)), []);
  const module = picturesKeeper.useModule(wanted);
  return module ? <module.default /> : null;
}

/** Screens that show the Current Series card: /, /series, book pages and the chapter editor. */
export function showsCurrentSeries(pathname: string): boolean {
  return pathname === '/' || pathname === '/series' || pathname.startsWith('/series/') || pathname === '/chapter-editor';
}

/** The signed-in shell: sidebar, mobile top bar and drawer, and the page. */
export function AppLayout() {
  const user = useSession((s) => s.user);
  const collapsed = useSidebarStore((s) => s.collapsed);
  const { pathname } = useLocation();
  const drawerOpen = useSidebarStore((s) => s.drawerOpen);
  const setDrawerOpen = useSidebarStore((s) => s.setDrawerOpen);
  const [signingOut, setSigningOut] = useState(false);
  const searchOpened = useSearchOpen((s) => s.opened);
  const openSearch = useSearchOpen((s) => s.open);

  // A new page closes the drawer (not the first render: a tap while the shell loaded opens it).
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current !== pathname) setDrawerOpen(false);
    shownPath.current = pathname;
  }, [pathname, setDrawerOpen]);
  // The author's role per shared series, kept current for every screen (collaboration).
  useSeriesRolesSync();

  const handleSignOut = async () => {
    setSigningOut(true);
    const result = await signOut();
    if (result !== 'signed-out') setSigningOut(false);
  };

  // The current series, live from the local database (components/CurrentSeriesSlot).
  const seriesCard = showsCurrentSeries(pathname) ? <CurrentSeriesSlot /> : null;

  return (
    <ShellFrame
      sidebar={
        <Sidebar
          user={user}
          onSignOut={handleSignOut}
          signingOut={signingOut}
          syncIndicator={<SyncIndicator compact={collapsed} />}
          themeControl={<ThemePicker position={collapsed ? 'right-start' : 'bottom-start'} />}
          currentSeries={seriesCard}
          search={<SearchButton onOpen={openSearch} opened={searchOpened} compact={collapsed} />}
        />
      }
      topBar={
        <MobileTopBar
          onOpenMenu={() => setDrawerOpen(true)}
          menuOpen={drawerOpen}
          syncIndicator={<SyncIndicator compact />}
          themeControl={<ThemeToggle size="lg" />}
          search={<SearchButton onOpen={openSearch} opened={searchOpened} compact />}
        />
      }
      drawer={
        <MobileDrawer
          opened={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          user={user}
          onSignOut={handleSignOut}
          signingOut={signingOut}
          currentSeries={seriesCard}
        />
      }
    >
      <SyncProgress />
      <ThemePackOwnershipFromEntitlements />
      <SearchHost />
      <DeferredPicturesKeeper />
      <Suspense fallback={<RouteSkeleton displayName={user?.displayName} />}>
        <Outlet />
      </Suspense>
    </ShellFrame>
  );
}
