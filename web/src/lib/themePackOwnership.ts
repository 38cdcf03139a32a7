/**
 * Whether the signed-in author owns the Custom Theme Pack, as a tiny store: the theme toggle and
 * picker (also on /auth, before any database is open) read it without importing Dexie or the
 * product rules; the signed-in shell fills it from the synced entitlements
 * (lib/ThemePackOwnershipFromEntitlements, rendered by app/layout/AppLayout). `loaded` is false
 * until those have been read, so "not known yet" is never taken for "not owned".
 */
import { create } from 'zustand';

interface ThemePackOwnership {
  owns: boolean;
  loaded: boolean;
  set(next: { owns: boolean; loaded: boolean }): void;
}

export const useThemePackOwnership = create<ThemePackOwnership>((set) => ({
  owns: false,
  loaded: false,
  set: (next) => set(next),
}));
