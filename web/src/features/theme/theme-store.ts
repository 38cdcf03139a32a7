import { create } from 'zustand';
import { readLocal, writeLocal } from '@/lib/storage';
import { BOOT_COLORS, DEFAULT_THEME, THEME_STORAGE_KEY, isThemeName, nextTheme, type ThemeName } from './themes';

interface ThemeState {
  theme: ThemeName;
  setTheme: (theme: ThemeName) => void;
  cycleTheme: () => void;
}

export function readStoredTheme(): ThemeName {
  const stored = readLocal(THEME_STORAGE_KEY);
  return isThemeName(stored) ? stored : DEFAULT_THEME;
}

export const useThemeStore = create<ThemeState>((set, get) => ({
  theme: readStoredTheme(),
  setTheme: (theme) => {
    writeLocal(THEME_STORAGE_KEY, theme);
    set({ theme });
  },
  cycleTheme: () => get().setTheme(nextTheme(get().theme)),
}));

/** The document-level marks of a theme: data-theme, the page colour and the browser UI colour. */
export function applyDocumentTheme(theme: ThemeName): void {
  const root = document.documentElement;
  const boot = BOOT_COLORS[theme];
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
    if (event.key === THEME_STORAGE_KEY && isThemeName(event.newValue)) {
      useThemeStore.setState({ theme: event.newValue });
    }
  });
}
