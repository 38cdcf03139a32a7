import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type DeadLetter, syncStatus } from '@chronicler/sync-client';
import { renderInTheme } from '@/test/render';
import { SyncIndicator, relativeSyncTime } from './SyncIndicator';

const initial = syncStatus.getState();
afterEach(() => syncStatus.setState({ ...initial, pendingCount: 0, deadLetters: [], lastError: null, authRequired: false, online: true }));

function letter(): DeadLetter {
  return {
    id: 1,
    status: 403,
    response: { message: 'This feature requires the Wordsmith tier or higher.', code: 'PLAN_LIMIT' },
    content: { entity: 'books', entityId: 'b1', label: 'One Too Many', fields: { title: 'One Too Many' } },
    createdAt: Date.now(),
    entry: {} as DeadLetter['entry'],
  };
}

describe('sync indicator', () => {
  it('shows the unsynced count and, in its panel, the changes kept aside', async () => {
    const user = userEvent.setup();
    renderInTheme(<SyncIndicator />);
    expect(screen.getByTestId('sync-indicator').textContent).toContain('Online');
    act(() => syncStatus.setState({ pendingCount: 2 }));
    expect(screen.getByTestId('sync-indicator').textContent).toContain('2 unsynced changes');
    act(() => syncStatus.setState({ pendingCount: 0, deadLetters: [letter()], lastSyncedAt: Date.now() }));
    expect(screen.getByTestId('sync-indicator').textContent).toContain('1 problem');
    await user.click(screen.getByTestId('sync-indicator'));
    const panel = await screen.findByRole('dialog');
    expect(within(panel).getByText('All changes synced')).toBeTruthy();
    expect(within(panel).getByText('Synced just now')).toBeTruthy();
    expect(within(panel).getByText('Changes kept aside (1)')).toBeTruthy();
    expect(within(panel).getByText(/One Too Many/)).toBeTruthy();
    expect(within(panel).getByText('This feature requires the Wordsmith tier or higher.')).toBeTruthy();
  });

  it('never says "Synced just now" under changes still waiting to be sent', async () => {
    const user = userEvent.setup();
    renderInTheme(<SyncIndicator />);
    act(() => syncStatus.setState({ pendingCount: 2, lastSyncedAt: Date.now() - 5_000, syncing: false }));
    await user.click(screen.getByTestId('sync-indicator'));
    const panel = await screen.findByRole('dialog');
    expect(within(panel).getByText('2 unsynced changes')).toBeTruthy();
    expect(within(panel).getByText('Waiting to be sent · last synced just now')).toBeTruthy();
    expect(within(panel).queryByText('Synced just now')).toBeNull();
    act(() => syncStatus.setState({ syncing: true }));
    expect(within(panel).getByText('Sending now · last synced just now')).toBeTruthy();
    act(() => syncStatus.setState({ syncing: false, online: false, lastSyncedAt: null }));
    expect(within(panel).getByText('Waiting for a connection · not synced yet')).toBeTruthy();
  });

  it('words the last sync time', () => {
    const now = Date.parse('2026-02-01T12:00:00Z');
    expect(relativeSyncTime(null, now)).toBe('Not synced yet');
    expect(relativeSyncTime(now - 10_000, now)).toBe('Synced just now');
    expect(relativeSyncTime(now - 5 * 60_000, now)).toBe('Synced 5 min ago');
    expect(relativeSyncTime(now - 3 * 3_600_000, now)).toBe('Synced 3 h ago');
  });
});
