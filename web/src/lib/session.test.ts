import { afterEach, describe, expect, it, vi } from 'vitest';
import { notifications } from '@mantine/notifications';
import { TEST_USER, stubFetch } from '@/test/fetch-stub';
import { LAST_USER_KEY, registerSignOutCleanup, registerSignOutGuard, signOut, signOutNavigation, useSession } from './session';

function signedInState() {
  useSession.setState({ status: 'authenticated', user: { ...TEST_USER }, source: 'server' });
  window.localStorage.setItem(LAST_USER_KEY, JSON.stringify(TEST_USER));
}

const disposers: Array<() => void> = [];
afterEach(() => {
  disposers.splice(0).forEach((d) => d());
  notifications.clean();
});

describe('sign-out', () => {
  it('ends the session, clears local data, queues "Logged out" and reloads to /', async () => {
    signedInState();
    const { calls } = stubFetch({ 'POST /api/logout': { status: 204 } });
    const reloadTo = vi.spyOn(signOutNavigation, 'reloadTo').mockImplementation(() => undefined);
    const cleanup = vi.fn();
    disposers.push(registerSignOutCleanup(cleanup));

    await expect(signOut()).resolves.toBe('signed-out');
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/logout']);
    expect(cleanup).toHaveBeenCalledOnce();
    expect(window.localStorage.getItem(LAST_USER_KEY)).toBeNull();
    expect(useSession.getState().status).toBe('anonymous');
    expect(JSON.parse(window.sessionStorage.getItem('chronicler:pending-toast') ?? '{}')).toMatchObject({ title: 'Logged out' });
    expect(reloadTo).toHaveBeenCalledWith('/');
  });

  it('a guard can stop it before anything is sent (unsynced changes remain)', async () => {
    signedInState();
    const { calls } = stubFetch({ 'POST /api/logout': { status: 204 } });
    disposers.push(registerSignOutGuard(async () => false));
    await expect(signOut()).resolves.toBe('cancelled');
    expect(calls).toHaveLength(0);
    expect(window.localStorage.getItem(LAST_USER_KEY)).not.toBeNull();
  });

  it('keeps everything when the server call fails and says "Logout failed"', async () => {
    signedInState();
    stubFetch({ 'POST /api/logout': 'network-error' });
    const show = vi.spyOn(notifications, 'show');
    const cleanup = vi.fn();
    disposers.push(registerSignOutCleanup(cleanup));
    await expect(signOut()).resolves.toBe('failed');
    expect(cleanup).not.toHaveBeenCalled();
    expect(useSession.getState().status).toBe('authenticated');
    expect(show).toHaveBeenCalledWith(
      expect.objectContaining({ title: 'Logout failed', message: 'An error occurred during logout', color: 'red' }),
    );
  });
});
