import { afterEach, describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { syncStatus } from '@chronicler/sync-client';
import { freshDb } from '@chronicler/sync-client/testing';
import { SyncTestProvider } from '@/lib/sync';
import { renderInTheme } from '@/test/render';
import { BACKLOG_SHOWN_FROM, SyncProgress } from './SyncProgress';

afterEach(() => act(() => syncStatus.setState({ pendingCount: 0 })));

describe('SyncProgress: a large offline backlog being sent', () => {
  it('counts the changes sent against the backlog, and goes when all are sent', () => {
    renderInTheme(
      <MemoryRouter>
        <SyncTestProvider db={freshDb()}>
          <SyncProgress />
        </SyncTestProvider>
      </MemoryRouter>,
    );
    act(() => syncStatus.setState({ pendingCount: BACKLOG_SHOWN_FROM - 1 }));
    expect(screen.queryByTestId('sync-sending')).toBeNull(); // a few changes go by unnoticed
    act(() => syncStatus.setState({ pendingCount: 40 }));
    act(() => syncStatus.setState({ pendingCount: 30 }));
    expect(screen.getByTestId('sync-sending').textContent).toContain('Sending the changes made on this device: 10 of 40 sent');
    act(() => syncStatus.setState({ pendingCount: 0 }));
    expect(screen.queryByTestId('sync-sending')).toBeNull();
  });
});
