export { ThemeProvider } from './ThemeProvider';
export { ThemeToggle } from './ThemeToggle';
export { ThemePicker } from './ThemePicker';
export { useThemeStore } from './theme-store';
export { THEME_LABELS, THEME_NAMES, nextTheme, type ThemeName } from './themes';
export { PACK_THEME_NAMES, PACK_THEME_LABELS, type PackThemeName } from './pack-themes';
