import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import type { AccountSession } from '@chronicler/schema';
import { signOutNavigation, useSession } from '@/lib/session';
import { type StubAnswer, TEST_USER, stubFetch } from '@/test/fetch-stub';
import { renderInApp } from '@/test/render';
import { AccountSettingsScreen } from './AccountSettingsScreen';

const PHONE = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const LAPTOP = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:132.0) Gecko/20100101 Firefox/132.0';

function session(id: string, userAgent: string, current = false): AccountSession {
  return { id, userAgent, current, createdAt: '2026-11-01T09:00:00.000Z', lastSeenAt: '2026-11-25T08:00:00.000Z', expiresAt: '2026-12-25T08:00:00.000Z' };
}

/** A fake server holding the author's sessions; routes as sync-server/src/auth/account-routes.ts. */
function accountServer(initial: AccountSession[], extra: Record<string, StubAnswer> = {}) {
  let sessions = [...initial];
  const stub = stubFetch({
    'GET /api/user': { status: 200, body: TEST_USER },
    'GET /api/user/sessions': async () => ({ status: 200, body: { sessions } }),
    'GET /api/media/usage': { status: 200, body: { usedBytes: 13_107_200, allowanceBytes: 5 * 1024 ** 3, perPictureBytes: 10 * 1024 ** 2 } },
    'POST /api/user/sessions/sign-out-others': async () => {
      const ended = sessions.filter((s) => !s.current).length;
      sessions = sessions.filter((s) => s.current);
      return { status: 200, body: { ok: true, ended } };
    },
    ...Object.fromEntries(
      initial.map((s) => [
        `DELETE /api/user/sessions/${s.id}`,
        async () => {
          sessions = sessions.filter((x) => x.id !== s.id);
          return { status: 200, body: { ok: true } };
        },
      ]),
    ),
    ...extra,
  });
  return { calls: stub.calls, endAll: () => (sessions = sessions.filter((s) => s.current)) };
}

function renderScreen() {
  notifications.clean();
  useSession.setState({ status: 'authenticated', user: { ...TEST_USER }, source: 'server' });
  return renderInApp(<AccountSettingsScreen />);
}

const rows = () => screen.getAllByTestId('session-row');

afterEach(() => {
  notifications.clean();
});

describe('account settings: devices', () => {
  it('lists the signed-in devices with this one marked, and signs out one of the others', async () => {
    const user = userEvent.setup();
    const { calls } = accountServer([session('s-this', LAPTOP, true), session('s-phone', PHONE)]);
    renderScreen();
    expect(screen.getByRole('heading', { level: 1, name: 'Account' })).toBeTruthy();
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(within(rows()[0]!).getByText('Firefox on macOS')).toBeTruthy();
    expect(within(rows()[0]!).getByText('This device')).toBeTruthy();
    expect(within(rows()[0]!).queryByRole('button')).toBeNull();
    expect(within(rows()[1]!).getByText('Chrome on Android')).toBeTruthy();

    await user.click(within(rows()[1]!).getByRole('button', { name: /^Sign out: Chrome on Android/ }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(calls.map((c) => `${c.method} ${c.path}`)).toContain('DELETE /api/user/sessions/s-phone');
    expect(await screen.findByText('Device signed out')).toBeTruthy();
    expect(screen.getByText('No other device is signed in.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Sign out other devices' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('signs out every other device at once and says how many', async () => {
    const user = userEvent.setup();
    accountServer([session('s-this', LAPTOP, true), session('s-a', PHONE), session('s-b', PHONE)]);
    renderScreen();
    await waitFor(() => expect(rows()).toHaveLength(3));
    await user.click(screen.getByRole('button', { name: 'Sign out other devices' }));
    expect(await screen.findByText('2 devices were signed out.')).toBeTruthy();
    await waitFor(() => expect(rows()).toHaveLength(1));
  });

  it('offline: says so instead of an empty list, and lists the devices on "Try again"', async () => {
    const user = userEvent.setup();
    let online = false;
    stubFetch({
      'GET /api/user': { status: 200, body: TEST_USER },
      'GET /api/user/sessions': async () => (online ? { status: 200, body: { sessions: [session('s-this', LAPTOP, true)] } } : 'network-error'),
    });
    renderScreen();
    expect(await screen.findByText(/You are offline/)).toBeTruthy();
    online = true;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
  });

  it('"Sign out everywhere" asks first, then ends every session and leaves like a sign-out', async () => {
    const user = userEvent.setup();
    const reloadTo = vi.spyOn(signOutNavigation, 'reloadTo').mockImplementation(() => undefined);
    const { calls } = accountServer([session('s-this', LAPTOP, true)], { 'POST /api/logout/everywhere': { status: 200, body: { ok: true, ended: 1 } } });
    renderScreen();
    await waitFor(() => expect(rows()).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere?' });
    expect(calls.some((c) => c.path === '/api/logout/everywhere')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(reloadTo).toHaveBeenCalledWith('/'));
    expect(calls.filter((c) => c.path === '/api/logout/everywhere')).toHaveLength(1);
    expect(useSession.getState().status).toBe('anonymous');
  });
});

describe('account settings: password', () => {
  it('checks the fields before asking the server', async () => {
    const user = userEvent.setup();
    const { calls } = accountServer([session('s-this', LAPTOP, true)]);
    renderScreen();
    await user.type(screen.getByLabelText(/^New password/), 'abc');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'abd');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByText('Current password is required')).toBeTruthy();
    expect(screen.getByText('Password must be at least 6 characters')).toBeTruthy();
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/user/password')).toBe(false);
  });

  it("shows the server's refusal beside the current password, keeping what was typed", async () => {
    const user = userEvent.setup();
    accountServer([session('s-this', LAPTOP, true)], {
      'POST /api/user/password': {
        status: 422,
        body: { message: 'The current password is not correct', code: 'VALIDATION_ERROR', fields: { currentPassword: 'The current password is not correct' } },
      },
    });
    renderScreen();
    await user.type(screen.getByLabelText(/^Current password/), 'wrong-one');
    await user.type(screen.getByLabelText(/^New password/), 'a new long phrase');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'a new long phrase');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The current password is not correct')).toBeTruthy();
    expect((screen.getByLabelText(/^New password/) as HTMLInputElement).value).toBe('a new long phrase');
  });

  it('changes it, says the other devices were signed out, and lists the devices again', async () => {
    const user = userEvent.setup();
    const server = accountServer([session('s-this', LAPTOP, true), session('s-phone', PHONE)], {
      'POST /api/user/password': async () => {
        server.endAll();
        return { status: 200, body: { ok: true } };
      },
    });
    renderScreen();
    await waitFor(() => expect(rows()).toHaveLength(2));
    await user.type(screen.getByLabelText(/^Current password/), 'old secret words');
    await user.type(screen.getByLabelText(/^New password/), 'a new long phrase');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'a new long phrase');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password changed')).toBeTruthy();
    expect(server.calls.find((c) => c.path === '/api/user/password')?.body).toEqual({ currentPassword: 'old secret words', newPassword: 'a new long phrase' });
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect((screen.getByLabelText(/^Current password/) as HTMLInputElement).value).toBe('');
  });
});

describe('account settings: storage', () => {
  it('shows what the pictures use of the plan’s cloud storage', async () => {
    accountServer([session('s-this', LAPTOP, true)]);
    renderScreen();
    expect((await screen.findByTestId('storage-used')).textContent).toBe('Pictures: 13 MB of 5 GB used');
    expect(screen.getByRole('progressbar', { name: 'Cloud storage: 13 MB of 5 GB used' })).toBeTruthy();
    expect(screen.getByText('Each picture may be up to 10 MB.')).toBeTruthy();
  });

  it('says so offline', async () => {
    accountServer([session('s-this', LAPTOP, true)], { 'GET /api/media/usage': 'network-error' });
    renderScreen();
    expect(await screen.findByText('Connect to the internet to see how much storage your pictures use.')).toBeTruthy();
  });
});
