import { useEffect } from 'react';
import { useThemePackOwnership } from '@/lib/themePackOwnership';
import { isPackThemeName } from './all-themes';
import { useThemeStore } from './theme-store';
import { DEFAULT_THEME } from './themes';

/**
 * Whether the signed-in author owns the Custom Theme Pack. A pack theme left on this device by
 * someone who owns it falls back to the default theme for an author who does not (once their
 * entitlements have been read).
 */
export function useThemePack(): boolean {
  const ownsPack = useThemePackOwnership((s) => s.owns);
  const loaded = useThemePackOwnership((s) => s.loaded);
  const theme = useThemeStore((s) => s.theme);
  const setTheme = useThemeStore((s) => s.setTheme);
  useEffect(() => {
    if (loaded && !ownsPack && isPackThemeName(theme)) setTheme(DEFAULT_THEME);
  }, [loaded, ownsPack, theme, setTheme]);
  return ownsPack;
}
