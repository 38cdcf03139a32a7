import { describe, expect, it } from 'vitest';
import { MemoryRouter } from 'react-router';
import { screen, within } from '@testing-library/react';
import { CURRENT_SERIES_KEY, reloadCurrentSeriesId, setCurrentSeriesId } from '@/lib/currentSeries';
import { SyncTestProvider } from '@/lib/sync';
import { freshDb, serverBook, serverChapter, serverSeries } from '@chronicler/sync-client/testing';
import { renderInTheme } from '@/test/render';
import { CurrentSeriesSlot } from './CurrentSeriesSlot';

function renderSlot() {
  reloadCurrentSeriesId();
  const db = freshDb();
  renderInTheme(
    <SyncTestProvider db={db}>
      <MemoryRouter>
        <CurrentSeriesSlot />
      </MemoryRouter>
    </SyncTestProvider>,
  );
  return db;
}

describe('Current Series card', () => {
  it('offers to create a series when there is none', async () => {
    renderSlot();
    expect(await screen.findByText('No active series selected')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create New Series' }).getAttribute('href')).toBe('/series');
  });

  it('shows the first series by default, then the one chosen (remembered on this device)', async () => {
    const a = serverSeries({ title: 'Earthsea', createdAt: '2026-01-01T00:00:00.000Z', currentBook: 1, totalBooks: 3 });
    const b = serverSeries({ title: 'Hainish', createdAt: '2026-01-02T00:00:00.000Z', currentBook: 2, totalBooks: 4 });
    const db = renderSlot();
    await db.series.bulkPut([a, b]);
    // Hainish: one of its 4 planned books has 2 chapters, 1 completed → 1/2 of 1/4 of the series.
    const book = serverBook(b.id);
    await db.books.put(book);
    await db.chapters.bulkPut([serverChapter(book, { status: 'completed' }), serverChapter(book, { status: 'draft' })]);
    const card = await screen.findByTestId('current-series');
    expect(within(card).getByText('Earthsea')).toBeTruthy();
    expect(within(card).getByText('Book 1 of 3')).toBeTruthy();
    // The work done, not the current book (docs/spec-differences.md): nothing written yet is 0%, not 33%.
    expect(within(card).getByText('0% complete')).toBeTruthy();

    setCurrentSeriesId(b.id);
    expect(await within(card).findByText('Hainish')).toBeTruthy();
    expect(within(card).getByText('Book 2 of 4')).toBeTruthy();
    expect(await within(card).findByText('13% complete')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Hainish' }).getAttribute('href')).toBe(`/series?id=${b.id}`);
    expect(window.localStorage.getItem(CURRENT_SERIES_KEY)).toBe(b.id);
  });
});
