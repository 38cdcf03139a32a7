import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IDBFactory } from 'fake-indexeddb';
import { ThemeProvider } from '@/features/theme';
import { isAppBusy } from '@/lib/appBusy';
import { signOut, signOutNavigation, useSession } from '@/lib/session';
import { stubFetch, TEST_USER } from '@/test/fetch-stub';
import { dbName, openChroniclerDb, syncStatus } from '@chronicler/sync-client';
import { useSync } from '@/lib/sync';
import { SyncProvider } from './SyncProvider';

function Probe() {
  const { userId, db, mutators, engine } = useSync();
  return (
    <div>
      <p>user {userId}</p>
      <p>db {db.name}</p>
      <button onClick={() => void mutators.series.create({ title: 'Earthsea' })}>create</button>
      <p>{engine ? 'engine' : 'no engine'}</p>
    </div>
  );
}

function setup() {
  const factory = new IDBFactory();
  useSession.setState({ status: 'authenticated', user: { ...TEST_USER }, source: 'server' });
  const fetchStub = stubFetch({
    'GET /api/sync/changes': { status: 200, body: { changes: {}, scopeAdded: [], scopeRemoved: [], cursor: 0, hasMore: false } },
    'POST /api/series': 'network-error',
    'POST /api/logout': { status: 200, body: { message: 'ok' } },
  });
  const utils = render(
    <ThemeProvider env="test">
      <SyncProvider openDb={(id) => openChroniclerDb(id, { indexedDB: factory, IDBKeyRange })} engineOptions={{ eventSource: null, locks: null }}>
        <Probe />
      </SyncProvider>
    </ThemeProvider>,
  );
  return { factory, fetchStub, ...utils };
}

describe('SyncProvider', () => {
  it('shows a spinner while the database opens, then the screen with the user database', async () => {
    setup();
    expect(screen.getByTestId('page-spinner')).toBeTruthy();
    expect(await screen.findByText(`user ${TEST_USER.id}`)).toBeTruthy();
    expect(screen.getByText(`db ${dbName(TEST_USER.id)}`)).toBeTruthy();
    expect(screen.getByText('engine')).toBeTruthy();
    expect(screen.queryByTestId('page-spinner')).toBeNull();
  });

  it('warns before sign-out while changes are unsynced, and deletes the database after a confirmed sign-out', async () => {
    const user = userEvent.setup();
    const { factory } = setup();
    await user.click(await screen.findByRole('button', { name: 'create' }));
    await waitFor(() => expect(syncStatus.getState().pendingCount).toBe(1));

    // Cancel: still signed in.
    let result: Promise<string>;
    act(() => {
      result = signOut();
    });
    expect(await screen.findByText('1 unsynced change remains')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Stay signed in' }));
    expect(await result!).toBe('cancelled');

    // Confirm: signed out and the database is gone.
    const reload = vi.spyOn(signOutNavigation, 'reloadTo').mockImplementation(() => undefined);
    act(() => {
      result = signOut();
    });
    await user.click(await screen.findByRole('button', { name: 'Sign out anyway' }));
    expect(await result!).toBe('signed-out');
    expect(reload).toHaveBeenCalledWith('/');
    const dbs = await factory.databases();
    expect(dbs.map((d) => d.name)).not.toContain(dbName(TEST_USER.id));
  });

  it('tells the update prompt that the app is busy while entries are in flight', async () => {
    setup();
    await screen.findByText(`user ${TEST_USER.id}`);
    syncStatus.setState({ inflightCount: 1 });
    expect(isAppBusy()).toBe(true);
    syncStatus.setState({ inflightCount: 0 });
    expect(isAppBusy()).toBe(false);
  });
});
