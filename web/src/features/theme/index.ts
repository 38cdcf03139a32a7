export { ThemeProvider } from './ThemeProvider';
export { ThemeToggle } from './ThemeToggle';
export { ThemePicker } from './ThemePicker';
export { useThemeStore } from './theme-store';
export { THEME_LABELS, THEME_NAMES, nextTheme, type ThemeName } from './themes';
