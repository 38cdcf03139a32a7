/**
 * The server refuses a create the client let through (e.g. a plan limit reached on another
 * device): through the real SyncProvider and sync engine, the optimistic book disappears and a
 * toast explains why.
 */
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { upgradeMessage } from '@chronicler/schema';
import { serverBook, serverSeries } from '@chronicler/sync-client/testing';
import { USER_ID } from '@/test/renderWithDb';
import { renderWithEngine } from '@/test/renderWithEngine';
import { SeriesScreen } from './index';

vi.setConfig({ testTimeout: 30_000 });

describe('a create the server refuses', () => {
  it('removes the optimistic book and explains with the server reason', async () => {
    const user = userEvent.setup({ delay: null });
    const reason = upgradeMessage('wordsmith');
    const { fetch } = await renderWithEngine(<SeriesScreen />, {
      plan: 'apprentice',
      path: '/series',
      seed: async (db) => {
        const series = serverSeries({ title: 'Earthsea', ownerId: USER_ID });
        await db.series.put(series);
        await db.books.put(serverBook(series.id, { title: 'A Wizard of Earthsea' }));
      },
      refuse: { method: 'POST', path: '/api/books', status: 403, message: reason, code: 'PLAN_LIMIT' },
    });

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
