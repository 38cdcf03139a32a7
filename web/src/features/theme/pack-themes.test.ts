import { describe, expect, it } from 'vitest';
import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { contrast } from './color';
import { PACK_CSS_RESOLVERS, PACK_MANTINE_THEMES, PACK_THEME_NAMES, PACK_TOKENS } from './pack-themes';
import { THEME_NAMES } from './themes';

describe('the Custom Theme Pack', () => {
  it('has five themes, none named like a base theme', () => {
    expect(PACK_THEME_NAMES).toHaveLength(5);
    for (const name of PACK_THEME_NAMES) expect(THEME_NAMES as readonly string[]).not.toContain(name);
  });
});

describe.each(PACK_THEME_NAMES)('%s theme contrast (WCAG AA, 4.5:1)', (name) => {
  const t = PACK_TOKENS[name];
  const backgrounds = { body: t.body, appBg: t.appBg, sidebarBg: t.sidebarBg, control: t.control, controlHover: t.controlHover };
  const texts = { text: t.text, dimmed: t.dimmed, placeholder: t.placeholder, anchor: t.anchor, error: t.error };

  for (const [textName, fg] of Object.entries(texts)) {
    for (const [bgName, bg] of Object.entries(backgrounds)) {
      it(`${textName} on ${bgName}`, () => expect(contrast(fg, bg)).toBeGreaterThanOrEqual(4.5));
    }
  }
  it('text on the filled primary colour', () => expect(contrast(t.primaryContrast, t.primaryFilled)).toBeGreaterThanOrEqual(4.5));
  it('white on the destructive toast', () => expect(contrast('#ffffff', t.destructive)).toBeGreaterThanOrEqual(4.5));
  it('on-brand text on both ends of the brand gradient', () => {
    const stops = t.brandGradient.match(/#[0-9a-f]{6}/gi) ?? [];
    expect(stops.length).toBe(2);
    for (const stop of stops) expect(contrast(t.onBrand, stop)).toBeGreaterThanOrEqual(4.5);
  });
  it('the primary filled token is the Mantine primary shade', () => {
    const theme = PACK_MANTINE_THEMES[name];
    const palette = theme.colors?.[theme.primaryColor ?? 'blue'];
    expect(palette?.[theme.primaryShade as number]).toBe(t.primaryFilled);
  });
});

describe.each(PACK_THEME_NAMES)('%s theme palette text variables', (name) => {
  const t = PACK_TOKENS[name];
  const theme = mergeMantineTheme(DEFAULT_THEME, PACK_MANTINE_THEMES[name]);
  const vars = PACK_CSS_RESOLVERS[name](theme)[t.scheme];
  const palettes = Object.keys(theme.colors).filter((c) => Array.isArray(theme.colors[c]));
  it.each(palettes)('%s text, outline and light-variant text reach AA', (color) => {
    const shades = theme.colors[color] as readonly string[];
    for (const key of ['text', 'outline', 'light-color']) {
      const fg = vars[`--mantine-color-${color}-${key}`] as string;
      for (const bg of [t.body, t.appBg, t.sidebarBg]) expect(contrast(fg, bg)).toBeGreaterThanOrEqual(4.5);
    }
    if (t.scheme === 'light') expect(contrast(vars[`--mantine-color-${color}-light-color`] as string, shades[1] as string)).toBeGreaterThanOrEqual(4.5);
  });
});
