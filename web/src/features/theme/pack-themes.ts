/**
 * The Custom Theme Pack (premium product `custom-theme-pack`): five more complete themes
 * (parchment, forest, ocean, nebula, rosewood), built exactly like the four base themes — one table
 * of semantic tokens per theme, a full Mantine theme and a CSS variables resolver — so every
 * component stays readable. `pack-themes.test.ts` checks the same WCAG AA pairs as
 * `themes.test.ts`. They are offered in the picker and the toggle cycle only to owners of the pack.
 */
import type { CSSVariablesResolver, MantineColorsTuple, MantineThemeOverride } from '@mantine/core';
import { mix } from './color';
import { type ThemeTokens, base, paletteTextVariables, schemeVariables } from './themes';

export const PACK_THEME_NAMES = ['parchment', 'forest', 'ocean', 'nebula', 'rosewood'] as const;
export type PackThemeName = (typeof PACK_THEME_NAMES)[number];

export const PACK_THEME_LABELS: Record<PackThemeName, string> = {
  parchment: 'Parchment',
  forest: 'Forest',
  ocean: 'Ocean',
  nebula: 'Nebula',
  rosewood: 'Rosewood',
};

export function isPackThemeName(value: unknown): value is PackThemeName {
  return typeof value === 'string' && (PACK_THEME_NAMES as readonly string[]).includes(value);
}

/** Ten shades around `color` (index 5), lighter towards 0 and darker towards 9, as Mantine expects. */
function palette(color: string): MantineColorsTuple {
  const lighter = [0.92, 0.78, 0.6, 0.4, 0.2].map((k) => mix(color, '#ffffff', k));
  const darker = [0.15, 0.3, 0.45, 0.6].map((k) => mix(color, '#000000', k));
  return [...lighter, color, ...darker] as unknown as MantineColorsTuple;
}

const sepia = palette('#a0672b');
const moss = palette('#5f9e6e');
const tide = palette('#1f7fa8');
const aurora = palette('#8f7cf0');
const rose = palette('#c0476a');
const pine = palette('#2c4a38');
const starless = palette('#2a2350');

export const PACK_TOKENS: Record<PackThemeName, ThemeTokens> = {
  parchment: {
    scheme: 'light',
    body: '#fffdf7',
    appBg: '#f6f0e1',
    sidebarBg: '#f1e8d4',
    text: '#2b2418',
    dimmed: '#5f523b',
    border: '#ddd0b3',
    placeholder: '#6b5c41',
    control: '#fffdf7',
    controlHover: '#f6f0e1',
    anchor: sepia[8],
    error: '#a61b1b',
    primaryFilled: sepia[7],
    primaryContrast: '#ffffff',
    destructive: '#b42318',
    brandGradient: 'linear-gradient(135deg, #6e4a1f 0%, #8a3b12 100%)',
    onBrand: '#ffffff',
  },
  forest: {
    scheme: 'dark',
    body: '#17241c',
    appBg: '#101a14',
    sidebarBg: '#0c140f',
    text: '#e3efe6',
    dimmed: '#a9c2b1',
    border: '#35503f',
    placeholder: '#8fac98',
    control: '#1e2f24',
    controlHover: '#27392d',
    anchor: moss[2],
    error: '#ff9b9b',
    primaryFilled: moss[3],
    primaryContrast: '#0b1a10',
    destructive: '#b42318',
    brandGradient: 'linear-gradient(135deg, #1f4d2f 0%, #3d5a1e 100%)',
    onBrand: '#ffffff',
  },
  ocean: {
    scheme: 'light',
    body: '#ffffff',
    appBg: '#eef6fa',
    sidebarBg: '#e4f0f6',
    text: '#0f2530',
    dimmed: '#3f5b68',
    border: '#c7dde8',
    placeholder: '#52707e',
    control: '#ffffff',
    controlHover: '#eef6fa',
    anchor: tide[8],
    error: '#b3261e',
    primaryFilled: tide[7],
    primaryContrast: '#ffffff',
    destructive: '#b42318',
    brandGradient: 'linear-gradient(135deg, #0b4f6c 0%, #155e75 100%)',
    onBrand: '#ffffff',
  },
  nebula: {
    scheme: 'dark',
    body: '#1a1530',
    appBg: '#120e24',
    sidebarBg: '#0d0a1b',
    text: '#ece8ff',
    dimmed: '#b7aede',
    border: '#3d3566',
    placeholder: '#a198cc',
    control: '#221c3d',
    controlHover: '#2b2449',
    anchor: aurora[2],
    error: '#ff9b9b',
    primaryFilled: aurora[3],
    primaryContrast: '#140f2b',
    destructive: '#b42318',
    brandGradient: 'linear-gradient(135deg, #3b2a8a 0%, #6b2a7e 100%)',
    onBrand: '#ffffff',
  },
  rosewood: {
    scheme: 'light',
    body: '#fffafb',
    appBg: '#fbeff2',
    sidebarBg: '#f7e4e9',
    text: '#2d1419',
    dimmed: '#6d3a46',
    border: '#ebc8d1',
    placeholder: '#7a4a56',
    control: '#ffffff',
    controlHover: '#fbeff2',
    anchor: rose[8],
    error: '#a61b1b',
    primaryFilled: rose[7],
    primaryContrast: '#ffffff',
    destructive: '#b42318',
    brandGradient: 'linear-gradient(135deg, #8a1f3d 0%, #6b2148 100%)',
    onBrand: '#ffffff',
  },
};

export const PACK_BOOT_COLORS: Record<PackThemeName, { scheme: 'light' | 'dark'; bg: string }> = {
  parchment: { scheme: 'light', bg: PACK_TOKENS.parchment.appBg },
  forest: { scheme: 'dark', bg: PACK_TOKENS.forest.appBg },
  ocean: { scheme: 'light', bg: PACK_TOKENS.ocean.appBg },
  nebula: { scheme: 'dark', bg: PACK_TOKENS.nebula.appBg },
  rosewood: { scheme: 'light', bg: PACK_TOKENS.rosewood.appBg },
};

export const PACK_MANTINE_THEMES: Record<PackThemeName, MantineThemeOverride> = {
  parchment: base({ primaryColor: 'sepia', primaryShade: 7, colors: { sepia } }),
  forest: base({ primaryColor: 'moss', primaryShade: 3, colors: { moss, dark: pine } }),
  ocean: base({ primaryColor: 'tide', primaryShade: 7, colors: { tide } }),
  nebula: base({ primaryColor: 'aurora', primaryShade: 3, colors: { aurora, dark: starless } }),
  rosewood: base({ primaryColor: 'rose', primaryShade: 7, colors: { rose } }),
};

export const PACK_CSS_RESOLVERS: Record<PackThemeName, CSSVariablesResolver> = Object.fromEntries(
  PACK_THEME_NAMES.map((name) => {
    const tokens = PACK_TOKENS[name];
    const vars = schemeVariables(tokens);
    const resolver: CSSVariablesResolver = (theme) => {
      const all = { ...paletteTextVariables(theme, tokens), ...vars };
      return { variables: {}, light: all, dark: all };
    };
    return [name, resolver];
  }),
) as Record<PackThemeName, CSSVariablesResolver>;
