import { describe, expect, it } from 'vitest';
import { shareFileName, themeShareColors, wrapText } from './shareCard';

/** A measure of 10 px per character. */
const ctx = { measureText: (text: string) => ({ width: text.length * 10 }) as TextMetrics };

describe('wrapText', () => {
  it('breaks at spaces to fit the width', () => {
    expect(wrapText(ctx, 'The Left Hand of Darkness', 100, 3)).toEqual(['The Left', 'Hand of', 'Darkness']);
  });

  it('ends the last allowed line with an ellipsis that fits', () => {
    const lines = wrapText(ctx, 'one two three four five six seven', 100, 2);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.endsWith('…')).toBe(true);
    expect(ctx.measureText(lines[1]!).width).toBeLessThanOrEqual(100);
  });

  it('keeps a word longer than the width on its own line', () => {
    expect(wrapText(ctx, 'Supercalifragilistic', 50, 2)).toEqual(['Supercalifragilistic']);
  });
});

describe('shareFileName', () => {
  it('is made of the figure and the title, in plain letters', () => {
    expect(shareFileName({ kicker: 'Book completed', figure: '85,000 words', title: 'Les Misérables', footer: '' })).toBe('chronicler-85-000-words-les-miserables.png');
    expect(shareFileName({ kicker: '', figure: '…', title: '', footer: '' })).toBe('chronicler-milestone.png');
  });
});

describe('themeShareColors', () => {
  it('reads the theme’s variables, the brand gradient’s two colours among them', () => {
    const el = document.createElement('div');
    el.style.setProperty('--mantine-color-body', '#1a1b2e');
    el.style.setProperty('--mantine-color-text', '#f0f0f5');
    el.style.setProperty('--app-brand-gradient', 'linear-gradient(135deg, #4a1a6b 0%, #9a3412 100%)');
    document.body.append(el);
    const colors = themeShareColors(el);
    expect(colors.background).toBe('#1a1b2e');
    expect(colors.text).toBe('#f0f0f5');
    expect([colors.brandFrom, colors.brandTo]).toEqual(['#4a1a6b', '#9a3412']);
    el.remove();
  });
});
