/**
 * The server refuses a create the client let through (e.g. a plan limit reached on another
 * device): through the real SyncProvider and sync engine, the optimistic book disappears and a
 * toast explains why.
 */
import { describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { IDBFactory } from 'fake-indexeddb';
import { upgradeMessage } from '@chronicler/schema';
import { ToastRegion } from '@/components/ToastRegion';
import { ThemeProvider } from '@/features/theme';
import { openChroniclerDb } from '@/sync/db';
import { SyncProvider } from '@/sync/react';
import { emptyChanges, scriptedFetch, serverBook, serverSeries } from '@/sync/testing/fixtures';
import { SeriesScreen } from './index';
import { USER_ID, signIn } from '@/test/renderWithDb';

vi.setConfig({ testTimeout: 30_000 });

describe('a create the server refuses', () => {
  it('removes the optimistic book and explains with the server reason', async () => {
    const user = userEvent.setup({ delay: null });
    const factory = new IDBFactory();
    const openDb = (id: string) => openChroniclerDb(id, { indexedDB: factory, IDBKeyRange });
    const series = serverSeries({ title: 'Earthsea', ownerId: USER_ID });
    const seed = openDb(USER_ID);
    await seed.series.put(series);
    await seed.books.put(serverBook(series.id, { title: 'A Wizard of Earthsea' }));
    seed.close();

    const reason = upgradeMessage('wordsmith');
    const fetch = scriptedFetch((call) => {
      if (call.method === 'POST' && call.path === '/api/books') return { status: 403, body: { message: reason, code: 'PLAN_LIMIT' } };
      if (call.path.startsWith('/api/sync/changes')) return { status: 200, body: { changes: emptyChanges(), scopeAdded: [], scopeRemoved: [], cursor: 0, hasMore: false } };
      return { status: 404, body: { message: 'Not found', code: 'NOT_FOUND' } };
    });

    notifications.clean();
    signIn('apprentice');
    render(
      <ThemeProvider env="test">
        <SyncProvider openDb={openDb} engineOptions={{ fetch, eventSource: null, locks: null, platform: { window: null, document: null } }}>
          <MemoryRouter initialEntries={['/series']}>
            <SeriesScreen />
          </MemoryRouter>
        </SyncProvider>
        <ToastRegion />
      </ThemeProvider>,
    );

    await screen.findByTestId('book-card');
    await user.click(screen.getByRole('button', { name: 'Add Book' }));
    await user.type(within(screen.getByRole('dialog')).getByRole('textbox', { name: 'Title' }), 'One Too Many');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Add Book' }));

    // Refused: the book goes away and the toast says why.
    const title = await screen.findByText('Error creating book', {}, { timeout: 10_000 });
    const shown = title.closest<HTMLElement>('[data-toast-id]')!;
    expect(shown.getAttribute('data-variant')).toBe('destructive');
    expect(within(shown).getByText(reason)).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('One Too Many')).toBeNull());
    expect(screen.getAllByTestId('book-card')).toHaveLength(1);
    expect(fetch.calls.some((c) => c.method === 'POST' && c.path === '/api/books')).toBe(true);
  });
});
