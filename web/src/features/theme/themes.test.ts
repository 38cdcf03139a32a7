import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { contrast } from './color';
import { BOOT_COLORS, CSS_RESOLVERS, MANTINE_THEMES, THEME_NAMES, TOKENS, nextTheme, type ThemeName } from './themes';

describe('theme order', () => {
  it('cycles light → dark → spooky → sunset → light', () => {
    expect(THEME_NAMES).toEqual(['light', 'dark', 'spooky', 'sunset']);
    const seen: ThemeName[] = ['light'];
    for (let i = 0; i < 4; i++) seen.push(nextTheme(seen[seen.length - 1] as ThemeName));
    expect(seen).toEqual(['light', 'dark', 'spooky', 'sunset', 'light']);
  });
});

describe.each(THEME_NAMES)('%s theme contrast (WCAG AA, 4.5:1)', (name) => {
  const t = TOKENS[name];
  const backgrounds = { body: t.body, appBg: t.appBg, sidebarBg: t.sidebarBg, control: t.control, controlHover: t.controlHover };
  const texts = { text: t.text, dimmed: t.dimmed, anchor: t.anchor, error: t.error };

  for (const [textName, fg] of Object.entries(texts)) {
    for (const [bgName, bg] of Object.entries(backgrounds)) {
      it(`${textName} on ${bgName}`, () => {
        expect(contrast(fg, bg)).toBeGreaterThanOrEqual(4.5);
      });
    }
  }

  it('text on the filled primary colour', () => {
    expect(contrast(t.primaryContrast, t.primaryFilled)).toBeGreaterThanOrEqual(4.5);
  });

  it('white on the destructive toast', () => {
    expect(contrast('#ffffff', t.destructive)).toBeGreaterThanOrEqual(4.5);
  });

  it('on-brand text on both ends of the brand gradient', () => {
    const stops = t.brandGradient.match(/#[0-9a-f]{6}/gi) ?? [];
    expect(stops.length).toBe(2);
    for (const stop of stops) expect(contrast(t.onBrand, stop)).toBeGreaterThanOrEqual(4.5);
  });

  it('the primary filled token is the Mantine primary shade', () => {
    const theme = MANTINE_THEMES[name];
    const shade = typeof theme.primaryShade === 'number' ? theme.primaryShade : 6;
    const palette = theme.colors?.[theme.primaryColor ?? 'blue'];
    expect(palette?.[shade]).toBe(t.primaryFilled);
  });
});

describe.each(THEME_NAMES)('%s theme palette text variables', (name) => {
  const t = TOKENS[name];
  const theme = mergeMantineTheme(DEFAULT_THEME, MANTINE_THEMES[name]);
  const vars = CSS_RESOLVERS[name](theme)[t.scheme];
  const palettes = Object.keys(theme.colors).filter((c) => Array.isArray(theme.colors[c]));

  it.each(palettes)('%s text, outline and light-variant text reach AA', (color) => {
    const shades = theme.colors[color] as readonly string[];
    const text = vars[`--mantine-color-${color}-text`] as string;
    const lightColor = vars[`--mantine-color-${color}-light-color`] as string;
    const outline = vars[`--mantine-color-${color}-outline`] as string;
    for (const bg of [t.body, t.appBg, t.sidebarBg]) {
      expect(contrast(outline, bg)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(text, bg)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(lightColor, bg)).toBeGreaterThanOrEqual(4.5);
    }
    if (t.scheme === 'light') expect(contrast(lightColor, shades[1] as string)).toBeGreaterThanOrEqual(4.5);
  });
});

describe('first paint', () => {
  it('index.html paints every theme in the colours of BOOT_COLORS', () => {
    const html = readFileSync(resolve(__dirname, '../../../index.html'), 'utf8');
    const literal = html.match(/var themes = (\{.*?\});/)?.[1];
    expect(literal).toBeTruthy();
    const parsed = JSON.parse(literal as string) as Record<string, [string, string]>;
    for (const name of THEME_NAMES) {
      expect(parsed[name]).toEqual([BOOT_COLORS[name].scheme, BOOT_COLORS[name].bg]);
    }
  });
});
