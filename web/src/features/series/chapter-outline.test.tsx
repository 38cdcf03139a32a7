/** A book's chapters as an outline: title, status, words and synopsis; the choice kept on this device. */
import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { serverBook, serverChapter, serverSeries } from '@chronicler/sync-client/testing';
import { renderWithDb } from '@/test/renderWithDb';
import { SeriesDetailScreen } from './index';
import { CHAPTER_VIEW_KEY } from './hooks/useChapterView';

vi.setConfig({ testTimeout: 30_000 });

describe('the chapter outline', () => {
  it('switches from the list to the outline with the keyboard, shows each synopsis with its emphasis, and is remembered', async () => {
    window.localStorage.removeItem(CHAPTER_VIEW_KEY);
    const user = userEvent.setup({ delay: null });
    const series = serverSeries({ title: 'Earthsea' });
    const book = serverBook(series.id, { title: 'Tehanu' });
    const { db, unmount } = renderWithDb(<SeriesDetailScreen seriesId={series.id} />, { path: `/series/${series.id}` });
    await db.series.put(series);
    await db.books.put(book);
    await db.chapters.bulkPut([
      serverChapter(book, { title: 'The Hawk', position: 1, status: 'revision', wordCount: 1200, synopsis: 'Ged comes home *tired*.' }),
      serverChapter(book, { title: 'The Goat', position: 2, wordCount: 30 }),
    ]);
    expect(await screen.findByTestId('chapter-list')).toBeTruthy();

    // The control is a group of radio inputs: reached and chosen with the keyboard (arrow keys too,
    // in a browser: e2e/tests/synopsis-notes.spec.ts).
    expect((screen.getByRole('radio', { name: 'List' }) as HTMLInputElement).checked).toBe(true);
    screen.getByRole('radio', { name: 'Outline' }).focus();
    await user.keyboard(' ');
    const outline = await screen.findByTestId('chapter-outline');
    const items = within(outline).getAllByTestId('outline-item');
    expect(items.map((i) => within(i).getByText(/^The /).textContent)).toEqual(['The Hawk', 'The Goat']);
    expect(within(items[0]!).getByText('Revision')).toBeTruthy();
    expect(within(items[0]!).getByText('1,200 words')).toBeTruthy();
    const synopsis = within(items[0]!).getByTestId('outline-synopsis');
    expect(synopsis.textContent).toBe('Ged comes home tired.');
    expect(synopsis.querySelector('em')?.textContent).toBe('tired');
    expect(within(items[1]!).getByText('No synopsis yet')).toBeTruthy();
    expect(window.localStorage.getItem(CHAPTER_VIEW_KEY)).toContain('outline');

    unmount();
    renderWithDb(<SeriesDetailScreen seriesId={series.id} />, { path: `/series/${series.id}`, db });
    expect(await screen.findByTestId('chapter-outline')).toBeTruthy();
    window.localStorage.removeItem(CHAPTER_VIEW_KEY);
  });
});
