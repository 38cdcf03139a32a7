/**
 * The base themes and the Custom Theme Pack together: what the provider can apply, and what the
 * picker and the toggle offer (the pack only to its owners).
 */
import type { CSSVariablesResolver, MantineThemeOverride } from '@mantine/core';
import {
  PACK_BOOT_COLORS,
  PACK_CSS_RESOLVERS,
  PACK_MANTINE_THEMES,
  PACK_THEME_LABELS,
  PACK_THEME_NAMES,
  PACK_TOKENS,
  type PackThemeName,
  isPackThemeName,
} from './pack-themes';
import { BOOT_COLORS, CSS_RESOLVERS, DEFAULT_THEME, MANTINE_THEMES, THEME_LABELS, THEME_NAMES, TOKENS, type ThemeName, type ThemeTokens, isThemeName } from './themes';

export type AppThemeName = ThemeName | PackThemeName;

export const ALL_TOKENS: Record<AppThemeName, ThemeTokens> = { ...TOKENS, ...PACK_TOKENS };
export const ALL_MANTINE_THEMES: Record<AppThemeName, MantineThemeOverride> = { ...MANTINE_THEMES, ...PACK_MANTINE_THEMES };
export const ALL_CSS_RESOLVERS: Record<AppThemeName, CSSVariablesResolver> = { ...CSS_RESOLVERS, ...PACK_CSS_RESOLVERS };
export const ALL_BOOT_COLORS: Record<AppThemeName, { scheme: 'light' | 'dark'; bg: string }> = { ...BOOT_COLORS, ...PACK_BOOT_COLORS };
export const ALL_THEME_LABELS: Record<AppThemeName, string> = { ...THEME_LABELS, ...PACK_THEME_LABELS };

export function isAppThemeName(value: unknown): value is AppThemeName {
  return isThemeName(value) || isPackThemeName(value);
}

/** The themes offered to an author: the four base themes, then the pack's five for its owners. */
export function offeredThemes(ownsPack: boolean): AppThemeName[] {
  return ownsPack ? [...THEME_NAMES, ...PACK_THEME_NAMES] : [...THEME_NAMES];
}

/** The toggle's next theme among those offered (from a theme not offered: the first). */
export function nextOfferedTheme(current: AppThemeName, ownsPack: boolean): AppThemeName {
  const offered = offeredThemes(ownsPack);
  const i = offered.indexOf(current);
  return i === -1 ? DEFAULT_THEME : (offered[(i + 1) % offered.length] ?? DEFAULT_THEME);
}

export { isPackThemeName };
