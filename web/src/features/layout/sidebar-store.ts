import { create } from 'zustand';
import { readLocal, writeLocal } from '@/lib/storage';

/** Spec 000 §2: the collapse choice is remembered under this key. */
export const SIDEBAR_COLLAPSED_KEY = 'sidebar-collapsed';

interface SidebarState {
  collapsed: boolean;
  setCollapsed: (collapsed: boolean) => void;
  toggle: () => void;
  /** The mobile menu drawer (kept here: a tap on the menu button while the shell is still loading opens it once it is). */
  drawerOpen: boolean;
  setDrawerOpen: (open: boolean) => void;
}

export const useSidebarStore = create<SidebarState>((set, get) => ({
  collapsed: readLocal(SIDEBAR_COLLAPSED_KEY) === 'true',
  setCollapsed: (collapsed) => {
    writeLocal(SIDEBAR_COLLAPSED_KEY, JSON.stringify(collapsed));
    set({ collapsed });
  },
  toggle: () => get().setCollapsed(!get().collapsed),
  drawerOpen: false,
  setDrawerOpen: (drawerOpen) => set({ drawerOpen }),
}));

/** Re-reads the stored choice (a fresh page load does this by itself). */
export function rehydrateSidebar(): void {
  useSidebarStore.setState({ collapsed: readLocal(SIDEBAR_COLLAPSED_KEY) === 'true', drawerOpen: false });
}
