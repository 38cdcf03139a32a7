/** Whether the search dialog is open: the shell's buttons and Ctrl/Cmd+K open it, the dialog closes it. */
import { create } from 'zustand';

interface SearchOpenState {
  opened: boolean;
  open(): void;
  close(): void;
  toggle(): void;
}

export const useSearchOpen = create<SearchOpenState>((set) => ({
  opened: false,
  open: () => set({ opened: true }),
  close: () => set({ opened: false }),
  toggle: () => set((s) => ({ opened: !s.opened })),
}));

/** Ctrl/Cmd+K, however the keyboard names the key. */
export function isSearchShortcut(event: Pick<KeyboardEvent, 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'key'>): boolean {
  return (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k';
}
