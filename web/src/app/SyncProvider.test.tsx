import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IDBFactory } from 'fake-indexeddb';
import { ThemeProvider } from '@/features/theme';
import { isAppBusy } from '@/lib/appBusy';
import { signOut, signOutNavigation, useSession } from '@/lib/session';
import { stubFetch, TEST_USER } from '@/test/fetch-stub';
import { dbName, openChroniclerDb } from './db.ts';
import { SyncProvider, problemToast, toastForProblem, useSync } from './react.tsx';
import { syncStatus } from './status.ts';

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

describe('toastForProblem', () => {
  it('a change saved onto a row deleted elsewhere is a plain heads-up, a refusal the failure toast', () => {
    const entry = { entity: 'chapters', kind: 'create' } as const;
    expect(toastForProblem({ entry, status: 201 } as never, 'Saved, but its book had been deleted')).toEqual({ title: 'Deleted on another device', message: 'Saved, but its book had been deleted', variant: 'default' });
    expect(toastForProblem({ entry, status: 422 } as never, 'Too long')).toMatchObject({ title: 'Error saving chapter', variant: 'destructive' });
  });
});

describe('problemToast', () => {
  it('uses the catalogue failure toast of the refused change, with the server reason', () => {
    expect(problemToast({ entity: 'books', kind: 'create' }, 'Limit reached')).toEqual({ title: 'Error creating book', message: 'Limit reached', variant: 'destructive' });
    expect(problemToast({ entity: 'series', kind: 'create' }, 'x')).toMatchObject({ title: 'Error creating series' });
    expect(problemToast({ entity: 'chapters', kind: 'update' }, 'x')).toMatchObject({ title: 'Error saving chapter' });
    expect(problemToast({ entity: 'timelineEvents', kind: 'reorder' }, 'x')).toMatchObject({ title: 'Error', message: 'Failed to reorder events: x' });
  });
});
