/**
 * The four themes of spec 000 §2/§9: light (default), dark, spooky, sunset.
 *
 * Each theme is a complete Mantine theme plus a CSS variables resolver, driven by one table of
 * semantic tokens so that backgrounds, text, borders and the primary colour always agree. Every
 * text/background pair in the table meets WCAG AA (4.5:1); `themes.test.ts` checks it.
 *
 * `index.html` paints the first frame from BOOT_COLORS before React loads (kept in step by a test).
 */
import {
  createTheme,
  darken,
  isVirtualColor,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type MantineTheme,
  type MantineThemeOverride,
} from '@mantine/core';
import { ensureContrast } from './color';

export const THEME_NAMES = ['light', 'dark', 'spooky', 'sunset'] as const;
export type ThemeName = (typeof THEME_NAMES)[number];
export const DEFAULT_THEME: ThemeName = 'light';
export const THEME_STORAGE_KEY = 'chronicler:theme';

export const THEME_LABELS: Record<ThemeName, string> = {
  light: 'Light',
  dark: 'Dark',
  spooky: 'Spooky',
  sunset: 'Sunset',
};

export function isThemeName(value: unknown): value is ThemeName {
  return typeof value === 'string' && (THEME_NAMES as readonly string[]).includes(value);
}

/** The toggle cycles light → dark → spooky → sunset → light. */
export function nextTheme(current: ThemeName): ThemeName {
  const i = THEME_NAMES.indexOf(current);
  return THEME_NAMES[(i + 1) % THEME_NAMES.length] ?? DEFAULT_THEME;
}

// ---- palettes -------------------------------------------------------------------------------

const ink: MantineColorsTuple = [
  '#eef0ff', '#dde0ff', '#babfff', '#959cfb', '#7880f5',
  '#636bf0', '#5158e6', '#4146cc', '#3539a6', '#2a2d85',
];
const pumpkin: MantineColorsTuple = [
  '#fff4e6', '#ffe4c4', '#ffc78c', '#ffa94d', '#ff922b',
  '#fd7e14', '#f76707', '#e8590c', '#c2410c', '#9a3412',
];
const ember: MantineColorsTuple = [
  '#fff1ec', '#ffe0d4', '#ffbfa8', '#ff9a7a', '#f97a55',
  '#ee613b', '#dc4d29', '#c03e1f', '#9e331b', '#7c2a17',
];
const midnight: MantineColorsTuple = [
  '#e7e8f0', '#c9cbd8', '#a6a9bb', '#7d8096', '#3e4152',
  '#30333f', '#262833', '#1c1e27', '#16171f', '#101117',
];
const crypt: MantineColorsTuple = [
  '#f3ebff', '#d9cbef', '#bba8d8', '#8e7aac', '#4a3a63',
  '#3a2d50', '#2c2140', '#1f1630', '#160f23', '#0e0917',
];
const dusk: MantineColorsTuple = [
  '#fff8f2', '#fcefe4', '#f7e1d1', '#efd0bb', '#e2b9a0',
  '#c79a80', '#8f6450', '#6e4a3a', '#4f3328', '#35221b',
];

/** Semantic colours of one theme. All text tokens reach 4.5:1 on every background token. */
export interface ThemeTokens {
  scheme: 'light' | 'dark';
  /** Cards, papers, dialogs (Mantine's body colour). */
  body: string;
  /** The page behind the cards. */
  appBg: string;
  /** Sidebar and mobile top bar background. */
  sidebarBg: string;
  text: string;
  dimmed: string;
  border: string;
  placeholder: string;
  /** Inputs and default buttons. */
  control: string;
  controlHover: string;
  anchor: string;
  error: string;
  /** Filled primary background and the text drawn on it. */
  primaryFilled: string;
  primaryContrast: string;
  /** Background of a destructive toast, with white text. */
  destructive: string;
  /** Decorative gradient of the brand mark and the auth hero panel. */
  brandGradient: string;
  /** Text on the brand gradient. */
  onBrand: string;
}

export const TOKENS: Record<ThemeName, ThemeTokens> = {
  light: {
    scheme: 'light',
    body: '#ffffff',
    appBg: '#f5f5fa',
    sidebarBg: '#fbfbfe',
    text: '#1b1c26',
    dimmed: '#575a6e',
    border: '#dfe0ea',
    placeholder: '#6f7286',
    control: '#ffffff',
    controlHover: '#f1f1f8',
    anchor: ink[7],
    error: '#c02626',
    primaryFilled: ink[6],
    primaryContrast: '#ffffff',
    destructive: '#b42318',
    brandGradient: 'linear-gradient(135deg, #3b3fc4 0%, #7a3cd8 100%)',
    onBrand: '#ffffff',
  },
  dark: {
    scheme: 'dark',
    body: midnight[7],
    appBg: midnight[8],
    sidebarBg: '#191a22',
    text: midnight[0],
    dimmed: midnight[2],
    border: midnight[4],
    placeholder: '#8f93a8',
    control: midnight[6],
    controlHover: midnight[5],
    anchor: ink[3],
    error: '#ff8787',
    primaryFilled: ink[6],
    primaryContrast: '#ffffff',
    destructive: '#b42318',
    brandGradient: 'linear-gradient(135deg, #2f328f 0%, #5b2a9e 100%)',
    onBrand: '#ffffff',
  },
  spooky: {
    scheme: 'dark',
    body: crypt[7],
    appBg: crypt[8],
    sidebarBg: '#130d1f',
    text: crypt[0],
    dimmed: crypt[2],
    border: crypt[4],
    placeholder: '#a08dbd',
    control: crypt[6],
    controlHover: crypt[5],
    anchor: pumpkin[4],
    error: '#ff8f8f',
    primaryFilled: pumpkin[4],
    primaryContrast: '#1a0d00',
    destructive: '#b42318',
    brandGradient: 'linear-gradient(135deg, #4a1a6b 0%, #9a3412 100%)',
    onBrand: '#fff4e6',
  },
  sunset: {
    scheme: 'light',
    body: '#fffaf6',
    appBg: '#fff1e7',
    sidebarBg: '#ffe9dc',
    text: '#2e1a14',
    dimmed: '#7a4733',
    border: '#efc9b3',
    placeholder: '#8c5c48',
    control: '#ffffff',
    controlHover: '#fff1e7',
    anchor: ember[8],
    error: '#b3261e',
    primaryFilled: ember[7],
    primaryContrast: '#ffffff',
    destructive: '#b42318',
    brandGradient: 'linear-gradient(135deg, #c2410c 0%, #be185d 100%)',
    onBrand: '#ffffff',
  },
};

/** Colours `index.html` paints before the app loads (first paint in the stored theme). */
export const BOOT_COLORS: Record<ThemeName, { scheme: 'light' | 'dark'; bg: string }> = {
  light: { scheme: 'light', bg: TOKENS.light.appBg },
  dark: { scheme: 'dark', bg: TOKENS.dark.appBg },
  spooky: { scheme: 'dark', bg: TOKENS.spooky.appBg },
  sunset: { scheme: 'light', bg: TOKENS.sunset.appBg },
};

// ---- Mantine themes -------------------------------------------------------------------------

const fontFamily =
  "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif, 'Apple Color Emoji', 'Segoe UI Emoji'";
const headingFamily =
  "'Iowan Old Style', 'Palatino Linotype', 'Book Antiqua', Palatino, Georgia, 'Times New Roman', serif";

export function base(overrides: MantineThemeOverride): MantineThemeOverride {
  return createTheme({
    fontFamily,
    fontFamilyMonospace: "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace",
    headings: { fontFamily: headingFamily, fontWeight: '700' },
    defaultRadius: 'md',
    cursorType: 'pointer',
    // With the threshold at the luminance where black and white contrast equally (≈0.179), the
    // text Mantine picks for filled colours always reaches at least 4.58:1.
    autoContrast: true,
    luminanceThreshold: 0.179,
    respectReducedMotion: true,
    focusRing: 'auto',
    ...overrides,
  });
}

export const MANTINE_THEMES: Record<ThemeName, MantineThemeOverride> = {
  light: base({ primaryColor: 'ink', primaryShade: 6, colors: { ink, pumpkin, ember } }),
  dark: base({ primaryColor: 'ink', primaryShade: 6, colors: { ink, pumpkin, ember, dark: midnight } }),
  spooky: base({ primaryColor: 'pumpkin', primaryShade: 4, colors: { ink, pumpkin, ember, dark: crypt } }),
  sunset: base({ primaryColor: 'ember', primaryShade: 7, colors: { ink, pumpkin, ember, gray: dusk } }),
};

export function schemeVariables(t: ThemeTokens): Record<string, string> {
  return {
    '--mantine-color-body': t.body,
    '--mantine-color-text': t.text,
    '--mantine-color-bright': t.text,
    '--mantine-color-dimmed': t.dimmed,
    '--mantine-color-placeholder': t.placeholder,
    '--mantine-color-anchor': t.anchor,
    '--mantine-color-error': t.error,
    '--mantine-color-default': t.control,
    '--mantine-color-default-hover': t.controlHover,
    '--mantine-color-default-color': t.text,
    '--mantine-color-default-border': t.border,
    '--mantine-primary-color-contrast': t.primaryContrast,
    '--app-bg': t.appBg,
    '--app-sidebar-bg': t.sidebarBg,
    '--app-border': t.border,
    '--app-destructive-bg': t.destructive,
    '--app-brand-gradient': t.brandGradient,
    '--app-on-brand': t.onBrand,
  };
}

/** AA target used for the generated colour variables (a little above 4.5 for rounding). */
const AA = 4.6;

/**
 * Text variables of every palette, made readable on this theme's backgrounds: the `*-text` colour
 * (Text c="teal", anchors in a colour), the `*-outline` colour of outline variants and the
 * `*-light-color` of light variants (Badge, Alert, ThemeIcon, NavLink). Mantine's defaults fall short of AA for several palettes (teal, yellow…).
 */
export function paletteTextVariables(theme: MantineTheme, t: ThemeTokens): Record<string, string> {
  const out: Record<string, string> = {};
  const backgrounds = [t.body, t.appBg, t.sidebarBg];
  const towards = t.scheme === 'light' ? 'black' : 'white';
  for (const [name, palette] of Object.entries(theme.colors)) {
    if (isVirtualColor(palette) || !Array.isArray(palette) || palette.length < 10) continue;
    const shades = palette as readonly string[];
    if (t.scheme === 'light') {
      out[`--mantine-color-${name}-text`] = ensureContrast(shades[7]!, backgrounds, AA, towards);
      out[`--mantine-color-${name}-outline`] = out[`--mantine-color-${name}-text`]!;
      out[`--mantine-color-${name}-light-color`] = ensureContrast(shades[9]!, [shades[1]!, shades[2]!, ...backgrounds], AA, towards);
    } else {
      const lightBg = darken(shades[9]!, 0.5);
      const hoverBg = darken(shades[9]!, 0.3);
      out[`--mantine-color-${name}-text`] = ensureContrast(shades[4]!, backgrounds, AA, towards);
      out[`--mantine-color-${name}-outline`] = out[`--mantine-color-${name}-text`]!;
      out[`--mantine-color-${name}-light-color`] = ensureContrast(shades[0]!, [lightBg, hoverBg, ...backgrounds], AA, towards);
    }
  }
  return out;
}

export const CSS_RESOLVERS: Record<ThemeName, CSSVariablesResolver> = Object.fromEntries(
  THEME_NAMES.map((name) => {
    const tokens = TOKENS[name];
    const base = schemeVariables(tokens);
    const resolver: CSSVariablesResolver = (theme) => {
      const vars = { ...paletteTextVariables(theme, tokens), ...base };
      return { variables: {}, light: vars, dark: vars };
    };
    return [name, resolver];
  }),
) as Record<ThemeName, CSSVariablesResolver>;
