import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TEST_USER, stubFetch } from '@/test/fetch-stub';
import { renderApp } from '@/test/render';
import { SIDEBAR_COLLAPSED_KEY } from './sidebar-store';

const signedIn = () => stubFetch({ 'GET /api/user': { status: 200, body: TEST_USER } });

/**
 * The shell once loaded (its outline, painted first, is aria-busy and is replaced). The local
 * database and the sync engine load after the outline: a loaded 2-core CI box needs more than 4 s.
 */
const LOADED_SHELL_TIMEOUT = 15_000;
const loadedShell = () =>
  waitFor(
    () => {
      const shell = screen.getByTestId('app-shell');
      expect(shell.getAttribute('aria-busy')).toBeNull();
      return shell;
    },
    { timeout: LOADED_SHELL_TIMEOUT },
  );

describe('sidebar', () => {
  it('lists the links in spec order', async () => {
    signedIn();
    renderApp('/');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Dashboard', '/'],
      ['Series', '/series'],
      ['Characters', '/characters'],
      ['World', '/world'],
      ['Timeline', '/timeline'],
      ['AI Companion', '/ai-companion'],
      ["Writer's Companion", '/writers-companion'],
      ['Collaboration', '/collaboration'],
      ['Achievements', '/achievements'],
      ['Products', '/products'],
      ['Subscriptions', '/subscriptions'],
      ['Account', '/account'],
      ['Backups', '/backups'],
    ]);
    expect(within(nav).getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');
  });

  it('shows initials, display name and "{plan} Plan" in the footer', async () => {
    signedIn();
    renderApp('/characters');
    expect((await screen.findByTestId('sidebar-user-name')).textContent).toBe('Ursula Le Guin');
    expect(screen.getByTestId('sidebar-user-plan').textContent).toBe('The Wordsmith Plan');
    expect(screen.getAllByText('UG').length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Log out' })).toBeTruthy();
  });

  it('remembers the collapse under "sidebar-collapsed" and narrows the content margin', async () => {
    signedIn();
    const user = userEvent.setup();
    const { unmount } = renderApp('/');
    const shell = await loadedShell();
    expect(shell.hasAttribute('data-collapsed')).toBe(false);
    await user.click(screen.getByTestId('sidebar-toggle'));
    expect(window.localStorage.getItem(SIDEBAR_COLLAPSED_KEY)).toBe('true');
    expect(shell.hasAttribute('data-collapsed')).toBe(true);
    // Labels become tooltips: links keep their accessible names.
    expect(screen.getByRole('link', { name: 'Series' })).toBeTruthy();
    unmount();

    // A new page load starts collapsed.
    signedIn();
    renderApp('/');
    expect((await loadedShell()).hasAttribute('data-collapsed')).toBe(true);
    await user.click(screen.getByTestId('sidebar-toggle'));
    expect(window.localStorage.getItem(SIDEBAR_COLLAPSED_KEY)).toBe('false');
    expect(screen.getByTestId('app-shell').hasAttribute('data-collapsed')).toBe(false);
  });

  it('is not shown on /auth, /login and /register', async () => {
    for (const path of ['/auth', '/login', '/register']) {
      stubFetch({ 'GET /api/user': { status: 401, body: { message: 'no', code: 'UNAUTHENTICATED' } } });
      const { unmount } = renderApp(path);
      await screen.findByRole('heading', { level: 1 });
      expect(screen.queryByTestId('app-shell')).toBeNull();
      expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
      unmount();
    }
  });

  it('the mobile drawer points Writer\u2019s Companion to /ai-companion and has Sign Out', async () => {
    signedIn();
    const user = userEvent.setup();
    renderApp('/');
    // Once loaded (a tap on the outline's button can land just as the outline is replaced, and
    // the test would wait for a drawer nobody opened).
    await loadedShell();
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    const nav = await screen.findByRole('navigation', { name: 'Mobile' });
    expect(within(nav).getByRole('link', { name: "Writer's Companion" }).getAttribute('href')).toBe('/ai-companion');
    expect(within(nav).getAllByRole('link')).toHaveLength(13);
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeTruthy();
  });

  it('shows the Current Series slot on / and /series but not on /characters', async () => {
    signedIn();
    const { unmount } = renderApp('/series');
    await loadedShell();
    expect(screen.getAllByRole('region', { name: 'Current series' }).length).toBeGreaterThan(0);
    unmount();
    signedIn();
    renderApp('/characters');
    await loadedShell();
    expect(screen.queryByRole('region', { name: 'Current series' })).toBeNull();
  });
});
