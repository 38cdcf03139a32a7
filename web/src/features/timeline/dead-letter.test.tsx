/**
 * The server refuses an event the client let through (the plan changed on the server, or the
 * series owner's plan has no timeline): through the real SyncProvider and sync engine, the
 * optimistic event disappears and the catalogue's failure toast carries the server's reason.
 */
import { describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IDBFactory } from 'fake-indexeddb';
import { upgradeMessage } from '@chronicler/schema';
import { ToastRegion } from '@/components/ToastRegion';
import { openChroniclerDb } from '@/sync/db';
import { SyncProvider } from '@/sync/react';
import { emptyChanges, scriptedFetch, serverSeries } from '@/sync/testing/fixtures';
import { USER_ID, signIn } from '@/test/renderWithDb';
import { TimelineScreen } from './index';

vi.setConfig({ testTimeout: 40_000 });

describe('an event the server refuses', () => {
  it('is removed again and the toast says why', async () => {
    const user = userEvent.setup({ delay: null });
    const factory = new IDBFactory();
    const openDb = (id: string) => openChroniclerDb(id, { indexedDB: factory, IDBKeyRange });
    const seed = openDb(USER_ID);
    await seed.series.put(serverSeries({ title: 'Earthsea', ownerId: USER_ID }));
    seed.close();

    const reason = upgradeMessage('wordsmith');
    const fetch = scriptedFetch((call) => {
      if (call.method === 'POST' && call.path === '/api/timeline-events') return { status: 403, body: { message: reason, code: 'FEATURE_LOCKED' } };
      if (call.path.startsWith('/api/sync/changes')) return { status: 200, body: { changes: emptyChanges(), scopeAdded: [], scopeRemoved: [], cursor: 0, hasMore: false } };
      return { status: 404, body: { message: 'Not found', code: 'NOT_FOUND' } };
    });

    notifications.clean();
    signIn('wordsmith');
    render(
      <MantineProvider env="test">
        <SyncProvider openDb={openDb} engineOptions={{ fetch, eventSource: null, locks: null, platform: { window: null, document: null } }}>
          <MemoryRouter initialEntries={['/timeline']}>
            <TimelineScreen />
          </MemoryRouter>
        </SyncProvider>
        <ToastRegion />
      </MantineProvider>,
    );

    await user.click(await screen.findByRole('button', { name: 'Add First Event' }, { timeout: 10_000 }));
    await user.type(within(screen.getByRole('dialog')).getByRole('textbox', { name: 'Title' }), 'Too early');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Create Event' }));

    const title = await screen.findByText(`Failed to create timeline event: ${reason}`, {}, { timeout: 10_000 });
    expect(title.closest<HTMLElement>('[data-toast-id]')!.getAttribute('data-variant')).toBe('destructive');
    await waitFor(() => expect(screen.queryByTestId('timeline-event')).toBeNull());
    expect(await screen.findByText('No Timeline Events')).toBeTruthy();
    expect(fetch.calls.some((c) => c.method === 'POST' && c.path === '/api/timeline-events')).toBe(true);
  });
});
