import { afterEach, describe, expect, it, vi } from 'vitest';
import { SIGNED_IN_HINT_COOKIE, hasSignedInHint } from '@chronicler/schema';
import { notifications } from '@mantine/notifications';
import { type StubAnswer, TEST_USER, stubFetch } from '@/test/fetch-stub';
import {
  LAST_USER_KEY,
  cancelSessionRecheck,
  loadSession,
  registerSignOutCleanup,
  registerSignOutGuard,
  signOut,
  signOutNavigation,
  useSession,
} from './session';

function signedInState() {
  useSession.setState({ status: 'authenticated', user: { ...TEST_USER }, source: 'server' });
  window.localStorage.setItem(LAST_USER_KEY, JSON.stringify(TEST_USER));
}

const disposers: Array<() => void> = [];
afterEach(() => {
  disposers.splice(0).forEach((d) => d());
  notifications.clean();
  cancelSessionRecheck();
  vi.useRealTimers();
  vi.restoreAllMocks();
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

describe('re-checking the remembered user', () => {
  const unauthenticated = { status: 401, body: { message: 'Please sign in to continue', code: 'UNAUTHENTICATED' } };

  /** Running on the remembered user (an offline start); `answers` are GET /api/user's, in turn. */
  function onRememberedUser(answers: Array<{ status: number; body?: unknown } | 'network-error'>) {
    useSession.setState({ status: 'authenticated', user: { ...TEST_USER }, source: 'cache' });
    window.localStorage.setItem(LAST_USER_KEY, JSON.stringify(TEST_USER));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.spyOn(Math, 'random').mockReturnValue(1); // no jitter: waits of exactly 1 s, 2 s, 4 s …
    let turn = 0;
    const answer: StubAnswer = async () => answers[Math.min(turn++, answers.length - 1)]!;
    return stubFetch({ 'GET /api/user': answer }).calls;
  }

  const goOnline = () => window.dispatchEvent(new Event('online'));

  it('after reconnecting, keeps asking with growing waits until the server answers, then refreshes the user', async () => {
    const renamed = { ...TEST_USER, displayName: 'U. K. Le Guin', plan: 'loremaster' };
    const calls = onRememberedUser(['network-error', { status: 503 }, { status: 502 }, { status: 200, body: renamed }]);

    goOnline();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    expect(useSession.getState()).toMatchObject({ status: 'authenticated', source: 'cache' });

    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2); // 503
    await vi.advanceTimersByTimeAsync(2_000);
    expect(calls).toHaveLength(3); // 502
    expect(useSession.getState().source).toBe('cache');
    await vi.advanceTimersByTimeAsync(4_000);
    expect(calls).toHaveLength(4); // 200

    expect(useSession.getState()).toMatchObject({ status: 'authenticated', source: 'server', user: { displayName: 'U. K. Le Guin', plan: 'loremaster' } });
    expect(JSON.parse(window.localStorage.getItem(LAST_USER_KEY) ?? 'null')).toMatchObject({ displayName: 'U. K. Le Guin' });
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(calls).toHaveLength(4);
  });

  it('a busy answer (429, 408) is transient too: the remembered user stays and is asked again', async () => {
    const calls = onRememberedUser([{ status: 429 }, { status: 408 }, { status: 200, body: TEST_USER }]);
    goOnline();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    expect(useSession.getState()).toMatchObject({ status: 'authenticated', source: 'cache' });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toHaveLength(2);
    expect(window.localStorage.getItem(LAST_USER_KEY)).not.toBeNull();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(calls).toHaveLength(3);
    expect(useSession.getState()).toMatchObject({ status: 'authenticated', source: 'server' });
  });

  it('a 401 among the retries signs the author out (the remembered user is forgotten) and stops', async () => {
    const calls = onRememberedUser(['network-error', { status: 500 }, unauthenticated]);
    goOnline();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(1_000 + 2_000);
    expect(calls).toHaveLength(3);
    expect(useSession.getState()).toMatchObject({ status: 'anonymous', user: null });
    expect(window.localStorage.getItem(LAST_USER_KEY)).toBeNull();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(calls).toHaveLength(3);
  });

  it('an offline start keeps asking too; going offline pauses, and coming back asks at once', async () => {
    const calls = onRememberedUser(['network-error', 'network-error', 'network-error', { status: 200, body: TEST_USER }]);
    useSession.setState({ status: 'loading', user: null, source: null });
    await loadSession();
    expect(useSession.getState()).toMatchObject({ status: 'authenticated', source: 'cache' });
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toHaveLength(2);

    window.dispatchEvent(new Event('offline'));
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(calls).toHaveLength(2);

    goOnline();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1_000); // from the shortest wait again
    expect(calls).toHaveLength(4);
    expect(useSession.getState().source).toBe('server');
  });

  it('does not ask again once the session is confirmed', async () => {
    const calls = onRememberedUser([{ status: 200, body: TEST_USER }]);
    useSession.setState({ source: 'server' });
    goOnline();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(0);
  });
});

describe('a first visit', () => {
  const clearHint = () => {
    document.cookie = `${SIGNED_IN_HINT_COOKIE}=; Max-Age=0; Path=/`;
  };
  const unauthenticated = { status: 401, body: { message: 'Please sign in to continue', code: 'UNAUTHENTICATED' } };

  it('with no remembered user and no signed-in hint asks nothing and is anonymous at once', async () => {
    clearHint();
    const { calls } = stubFetch({ 'GET /api/user': unauthenticated });
    useSession.setState({ status: 'loading', user: null, source: null });
    await loadSession();
    expect(calls).toHaveLength(0);
    expect(useSession.getState()).toMatchObject({ status: 'anonymous', user: null });
  });

  it('asks when the server left the signed-in hint (signed in by another tab or before this version)', async () => {
    const { calls } = stubFetch({ 'GET /api/user': { status: 200, body: TEST_USER } });
    useSession.setState({ status: 'loading', user: null, source: null });
    await loadSession();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/user']);
    expect(useSession.getState()).toMatchObject({ status: 'authenticated', source: 'server' });
  });

  it('asks when a user is remembered even without the hint', async () => {
    clearHint();
    window.localStorage.setItem(LAST_USER_KEY, JSON.stringify(TEST_USER));
    const { calls } = stubFetch({ 'GET /api/user': { status: 200, body: TEST_USER } });
    await loadSession();
    expect(calls).toHaveLength(1);
    expect(useSession.getState().status).toBe('authenticated');
  });

  it('forgets a stale hint when the server says no session, so the next visit asks nothing', async () => {
    const { calls } = stubFetch({ 'GET /api/user': unauthenticated });
    await loadSession();
    expect(calls).toHaveLength(1);
    expect(hasSignedInHint(document.cookie)).toBe(false);
    await loadSession();
    expect(calls).toHaveLength(1);
    expect(useSession.getState().status).toBe('anonymous');
  });
});
