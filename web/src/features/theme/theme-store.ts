import { create } from 'zustand';
import { readLocal, writeLocal } from '@/lib/storage';
import { DEFAULT_THEME, THEME_STORAGE_KEY } from './themes';
import { ALL_BOOT_COLORS, type AppThemeName, isAppThemeName, nextOfferedTheme } from './all-themes';

interface ThemeState {
  theme: AppThemeName;
  setTheme: (theme: AppThemeName) => void;
  /** The next theme; the Custom Theme Pack's themes join the cycle for its owners. */
  cycleTheme: (ownsPack?: boolean) => void;
}

export function readStoredTheme(): AppThemeName {
  const stored = readLocal(THEME_STORAGE_KEY);
  return isAppThemeName(stored) ? stored : DEFAULT_THEME;
}

export const useThemeStore = create<ThemeState>((set, get) => ({
  theme: readStoredTheme(),
  setTheme: (theme) => {
    writeLocal(THEME_STORAGE_KEY, theme);
    set({ theme });
  },
  cycleTheme: (ownsPack = false) => get().setTheme(nextOfferedTheme(get().theme, ownsPack)),
}));

/** The document-level marks of a theme: data-theme, the page colour and the browser UI colour. */
export function applyDocumentTheme(theme: AppThemeName): void {
  const root = document.documentElement;
  const boot = ALL_BOOT_COLORS[theme];
  root.dataset.theme = theme;
  root.style.backgroundColor = boot.bg;
  root.style.colorScheme = boot.scheme;
  let meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'theme-color';
    document.head.appendChild(meta);
  }
  meta.content = boot.bg;
}

// Another tab changed the theme: follow it.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === THEME_STORAGE_KEY && isAppThemeName(event.newValue)) {
      useThemeStore.setState({ theme: event.newValue });
    }
  });
}
