import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { SyncTestProvider } from '@/lib/sync';
import { freshDb, serverCharacter, serverSeries } from '@chronicler/sync-client/testing';
import { renderInTheme } from '@/test/render';
import { RecentActivityPanel } from './RecentActivityPanel';

describe('Recent Activity on the dashboard', () => {
  it('lists the series’ recent activity with icon, description and relative time, live', async () => {
    const series = serverSeries({ title: 'Earthsea' });
    const db = freshDb();
    await db.series.put(series);
    renderInTheme(
      <SyncTestProvider db={db}>
        <RecentActivityPanel seriesId={series.id} />
      </SyncTestProvider>,
    );
    const panel = await screen.findByRole('region', { name: 'Recent Activity' });
    expect(await within(panel).findByText('Nothing yet: write a chapter or add a character.')).toBeTruthy();
    await db.characters.put(serverCharacter(series.id, { name: 'Ged', createdAt: new Date(Date.now() - 2 * 3600_000).toISOString() }));
    const item = await within(panel).findByRole('listitem');
    expect(item.getAttribute('data-kind')).toBe('character-added');
    expect(item.textContent).toContain('Added character Ged');
    expect(item.textContent).toContain('2 hours ago');
  });

  it('says when no series is chosen', async () => {
    renderInTheme(
      <SyncTestProvider db={freshDb()}>
        <RecentActivityPanel seriesId={null} />
      </SyncTestProvider>,
    );
    expect(await screen.findByText('No active series selected')).toBeTruthy();
  });
});
