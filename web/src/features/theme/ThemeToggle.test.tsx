import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ThemeProvider } from './ThemeProvider';
import { ThemeToggle } from './ThemeToggle';
import { ThemePicker } from './ThemePicker';
import { readStoredTheme, useThemeStore } from './theme-store';
import { THEME_STORAGE_KEY } from './themes';

function renderToggle() {
  useThemeStore.setState({ theme: readStoredTheme() });
  return render(
    <ThemeProvider env="test">
      <ThemeToggle />
      <ThemePicker />
    </ThemeProvider>,
  );
}

describe('theme toggle', () => {
  it('defaults to light', () => {
    renderToggle();
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(document.documentElement.getAttribute('data-mantine-color-scheme')).toBe('light');
  });

  it('cycles light → dark → spooky → sunset → light and stores each choice', async () => {
    const user = userEvent.setup();
    renderToggle();
    const order = ['dark', 'spooky', 'sunset', 'light'];
    const schemes = ['dark', 'dark', 'light', 'light'];
    for (const [i, expected] of order.entries()) {
      await user.click(screen.getByRole('button', { name: /^Theme: / }));
      expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe(expected);
      expect(document.documentElement.dataset.theme).toBe(expected);
      expect(document.documentElement.getAttribute('data-mantine-color-scheme')).toBe(schemes[i]);
    }
  });

  it('restores the stored theme on the next load', () => {
    window.localStorage.setItem(THEME_STORAGE_KEY, 'spooky');
    renderToggle();
    expect(screen.getByRole('button', { name: /^Theme: Spooky/ })).toBeTruthy();
    expect(document.documentElement.dataset.theme).toBe('spooky');
  });

  it('ignores an unknown stored value', () => {
    window.localStorage.setItem(THEME_STORAGE_KEY, 'neon');
    renderToggle();
    expect(screen.getByRole('button', { name: /^Theme: Light/ })).toBeTruthy();
  });

  it('the picker offers Light, Dark, Spooky, Sunset and applies the choice', async () => {
    const user = userEvent.setup();
    renderToggle();
    await user.click(screen.getByRole('button', { name: /^Choose theme/ }));
    // The menu is downloaded when first opened.
    const items = (await screen.findAllByRole('menuitem')).map((el) => el.textContent);
    expect(items).toEqual(['Light', 'Dark', 'Spooky', 'Sunset']);
    await user.click(screen.getByRole('menuitem', { name: 'Sunset' }));
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('sunset');
    expect(document.documentElement.dataset.theme).toBe('sunset');
  });
});
