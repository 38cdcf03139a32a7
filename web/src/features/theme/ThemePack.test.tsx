/**
 * The Custom Theme Pack in the picker and the toggle: offered only to owners (entitlements in
 * Dexie, read by the signed-in shell's ThemePackOwnershipFromEntitlements, rendered beside them
 * here).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { newId } from '@chronicler/schema';
import { freshDb } from '@chronicler/sync-client/testing';
import { ThemePackOwnershipFromEntitlements } from '@/lib/ThemePackOwnershipFromEntitlements';
import { USER_ID, renderWithDb } from '@/test/renderWithDb';
import { PACK_BOOT_COLORS, PACK_THEME_NAMES } from './pack-themes';
import { ThemePicker } from './ThemePicker';
import { ThemeToggle } from './ThemeToggle';
import { useThemeStore } from './theme-store';

async function ownerDb() {
  const db = freshDb();
  const stamp = new Date().toISOString();
  await db.entitlements.put({ id: newId(), rev: 1, createdAt: stamp, updatedAt: stamp, deletedAt: null, userId: USER_ID, kind: 'custom-theme-pack', expiresAt: null, giftCode: null, giftRedeemedAt: null });
  return db;
}

describe('Custom Theme Pack', () => {
  it('owners get the five extra themes in the picker and can apply one', async () => {
    useThemeStore.setState({ theme: 'light' });
    const user = userEvent.setup();
    renderWithDb(<><ThemePackOwnershipFromEntitlements /><ThemePicker /></>, { db: await ownerDb() });
    await user.click(screen.getByRole('button', { name: /Choose theme/ }));
    expect(await screen.findByRole('menuitem', { name: 'Nebula' })).toBeTruthy();
    expect(screen.getAllByRole('menuitem')).toHaveLength(9);
    await user.click(screen.getByRole('menuitem', { name: 'Forest' }));
    expect(document.documentElement.dataset.theme).toBe('forest');
    expect(document.documentElement.getAttribute('data-mantine-color-scheme')).toBe('dark');
  });

  it('the toggle cycles through the pack after the base themes for owners', async () => {
    useThemeStore.setState({ theme: 'sunset' });
    const user = userEvent.setup();
    renderWithDb(<><ThemePackOwnershipFromEntitlements /><ThemeToggle /></>, { db: await ownerDb() });
    await waitFor(() => expect(screen.getByRole('button', { name: /Switch to Parchment/ })).toBeTruthy());
    await user.click(screen.getByRole('button', { name: /Switch to Parchment/ }));
    expect(useThemeStore.getState().theme).toBe('parchment');
  });

  it('others see only the four base themes, and a pack theme left on the device falls back to light', async () => {
    useThemeStore.setState({ theme: 'ocean' });
    const user = userEvent.setup();
    const db = freshDb();
    // Not before this device's first pull: a new device knows nothing of what the author owns yet.
    renderWithDb(<><ThemePackOwnershipFromEntitlements /><ThemePicker /></>, { db });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(useThemeStore.getState().theme).toBe('ocean');
    await db.syncState.update('state', { lastSyncedAt: Date.now() });
    await waitFor(() => expect(useThemeStore.getState().theme).toBe('light'));
    await user.click(screen.getByRole('button', { name: /Choose theme/ }));
    expect((await screen.findAllByRole('menuitem')).map((m) => m.textContent)).toEqual(['Light', 'Dark', 'Spooky', 'Sunset']);
  });

  it('index.html paints the pack themes in their first-paint colours too', () => {
    const html = readFileSync(resolve(__dirname, '../../../index.html'), 'utf8');
    const parsed = JSON.parse(html.match(/var themes = (\{.*?\});/)![1]!) as Record<string, [string, string]>;
    for (const name of PACK_THEME_NAMES) expect(parsed[name]).toEqual([PACK_BOOT_COLORS[name].scheme, PACK_BOOT_COLORS[name].bg]);
  });
});
