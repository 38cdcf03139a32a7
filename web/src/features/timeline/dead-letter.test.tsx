/**
 * The server refuses an event the client let through (the plan changed on the server, or the
 * series owner's plan has no timeline): through the real SyncProvider and sync engine, the
 * optimistic event disappears and the catalogue's failure toast carries the server's reason.
 */
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { upgradeMessage } from '@chronicler/schema';
import { serverSeries } from '@chronicler/sync-client/testing';
import { USER_ID } from '@/test/renderWithDb';
import { renderWithEngine } from '@/test/renderWithEngine';
import { TimelineScreen } from './index';

vi.setConfig({ testTimeout: 40_000 });

describe('an event the server refuses', () => {
  it('is removed again and the toast says why', async () => {
    const user = userEvent.setup({ delay: null });
    const reason = upgradeMessage('wordsmith');
    const { fetch } = await renderWithEngine(<TimelineScreen />, {
      plan: 'wordsmith',
      path: '/timeline',
      seed: (db) => db.series.put(serverSeries({ title: 'Earthsea', ownerId: USER_ID })),
      refuse: { method: 'POST', path: '/api/timeline-events', status: 403, message: reason, code: 'FEATURE_LOCKED' },
    });

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
