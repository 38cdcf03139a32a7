import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { ROLE_MESSAGES } from '@chronicler/schema';
import { serverSeries } from '@chronicler/sync-client/testing';
import { renderWithDb } from '@/test/renderWithDb';
import { ReadOnlyNotice } from './ReadOnlyNotice';

describe('ReadOnlyNotice', () => {
  it("says why a viewer's screen is read-only, and goes away when the role allows editing", async () => {
    const series = serverSeries({ ownerId: '0190a6f0-0000-7000-8000-0000000000aa' });
    const { db } = renderWithDb(<ReadOnlyNotice seriesId={series.id} />);
    await db.series.put(series);
    await db.seriesRoles.put({ seriesId: series.id, role: 'viewer', ownerId: series.ownerId, ownerName: 'Ged' });
    expect((await screen.findByTestId('read-only-notice')).textContent).toContain(ROLE_MESSAGES.readOnly);
    await db.seriesRoles.put({ seriesId: series.id, role: 'editor', ownerId: series.ownerId, ownerName: 'Ged' });
    await waitFor(() => expect(screen.queryByTestId('read-only-notice')).toBeNull());
  });
});
