/**
 * Ctrl/Cmd+K on every signed-in screen, and the search dialog, mounted (and downloaded, with the
 * index's client and worker) when search first opens (docs/web.md#first-load). The shell's
 * buttons (features/layout SearchButton) open it through `useSearchOpen`.
 */
import { lazy, useEffect } from 'react';
import { OpenedOnce } from '@/lib/first-load';
import { registerSignOutCleanup, useSession } from '@/lib/session';
import { isSearchShortcut, useSearchOpen } from './search-store';

const SearchDialog = lazy(() => import('./components/SearchDialog'));

export function SearchHost() {
  const opened = useSearchOpen((s) => s.opened);
  const toggle = useSearchOpen((s) => s.toggle);
  const close = useSearchOpen((s) => s.close);
  const userId = useSession((s) => s.user?.id ?? null);
  // Signing out stops the index's worker and deletes the stored index with the rest of the author's data.
  useEffect(() => {
    if (!userId) return undefined;
    return registerSignOutCleanup(async () => {
      close();
      const { stopSearch } = await import('./model/search-client');
      await stopSearch(userId);
    });
  }, [userId, close]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isSearchShortcut(event)) return;
      event.preventDefault();
      toggle();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);
  return <OpenedOnce opened={opened}>{(isOpen) => <SearchDialog opened={isOpen} onClose={close} />}</OpenedOnce>;
}
