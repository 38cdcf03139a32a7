import { create } from 'zustand';
import { readLocal, writeLocal } from '@/lib/storage';

/** Spec 000 §2: the collapse choice is remembered under this key. */
export const SIDEBAR_COLLAPSED_KEY = 'sidebar-collapsed';

interface SidebarState {
  collapsed: boolean;
  setCollapsed: (collapsed: boolean) => void;
  toggle: () => void;
}

export const useSidebarStore = create<SidebarState>((set, get) => ({
  collapsed: readLocal(SIDEBAR_COLLAPSED_KEY) === 'true',
  setCollapsed: (collapsed) => {
    writeLocal(SIDEBAR_COLLAPSED_KEY, JSON.stringify(collapsed));
    set({ collapsed });
  },
  toggle: () => get().setCollapsed(!get().collapsed),
}));

/** Re-reads the stored choice (a fresh page load does this by itself). */
export function rehydrateSidebar(): void {
  useSidebarStore.setState({ collapsed: readLocal(SIDEBAR_COLLAPSED_KEY) === 'true' });
}
