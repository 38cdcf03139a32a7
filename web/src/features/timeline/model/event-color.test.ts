import { describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_COLOR } from '@chronicler/schema';
import { eventCssColor } from './event-color';

describe('eventCssColor', () => {
  it("draws the spec's default colour in the theme's primary colour, and a chosen colour as chosen", () => {
    expect(eventCssColor(DEFAULT_EVENT_COLOR)).toBe('var(--mantine-primary-color-filled)');
    expect(eventCssColor(DEFAULT_EVENT_COLOR.toUpperCase())).toBe('var(--mantine-primary-color-filled)');
    expect(eventCssColor('#14b8a6')).toBe('#14b8a6');
  });
});
