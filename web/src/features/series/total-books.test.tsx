/** "Total books" keeps what the author typed and says the spec's minimum-1 rule. */
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@chronicler/schema';
import { serverBook, serverSeries } from '@chronicler/sync-client/testing';
import { SeriesScreen } from './index';
import { renderWithDb } from '@/test/renderWithDb';

vi.setConfig({ testTimeout: 30_000 });

const dialog = () => screen.getByRole('dialog');

describe('Total books', () => {
  it.each(['0', '-2'])('New Series refuses %s with "A series needs at least 1 book" and creates nothing', async (typed) => {
    const user = userEvent.setup({ delay: null });
    const { db } = renderWithDb(<SeriesScreen />, { path: '/series' });
    expect(await screen.findByText('No Series Yet')).toBeTruthy();
    await user.click(screen.getAllByRole('button', { name: 'New Series' })[0]!);
    await screen.findByRole('dialog');
    await user.type(within(dialog()).getByRole('textbox', { name: 'Title' }), 'Earthsea');
    const total = within(dialog()).getByRole('textbox', { name: 'Total books' });
    await user.clear(total);
    await user.type(total, typed);
    await user.click(within(dialog()).getByRole('button', { name: 'Create Series' }));

    expect(await within(dialog()).findByText(MESSAGES.series.totalBooksMin)).toBeTruthy();
    expect(total.getAttribute('value')).toBe(typed);
    expect(await db.series.count()).toBe(0);

    await user.clear(total);
    await user.type(total, '4');
    expect(within(dialog()).queryByText(MESSAGES.series.totalBooksMin)).toBeNull();
    await user.click(within(dialog()).getByRole('button', { name: 'Create Series' }));
    await waitFor(async () => expect((await db.series.toArray()).map((s) => s.totalBooks)).toEqual([4]));
  });

  it('Edit Series refuses 0 with the same message and keeps the stored number', async () => {
    const user = userEvent.setup({ delay: null });
    const series = serverSeries({ title: 'Earthsea', totalBooks: 5 });
    const { db } = renderWithDb(<SeriesScreen />, { path: '/series' });
    await db.series.put(series);
    await user.click(await screen.findByRole('button', { name: 'Actions for Earthsea' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit Series' }));
    const total = within(dialog()).getByRole('textbox', { name: 'Total books' });
    await user.clear(total);
    await user.type(total, '0');
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));
    expect(await within(dialog()).findByText(MESSAGES.series.totalBooksMin)).toBeTruthy();
    expect((await db.series.get(series.id))!.totalBooks).toBe(5);
  });
});

describe('the Apprentice limits on the Series page', () => {
  it('at 1 of 1 series and 3 of 3 books shows one banner, worded as a limit', async () => {
    const series = serverSeries({ title: 'Earthsea' });
    const { db } = renderWithDb(<SeriesScreen />, { path: '/series', plan: 'apprentice' });
    await db.series.put(series);
    await db.books.bulkPut([1, 2, 3].map((position) => serverBook(series.id, { title: `Book ${position}`, position })));
    const banner = await screen.findByTestId('book-limit');
    expect(within(banner).getByText('3 of 3 books on the Apprentice plan')).toBeTruthy();
    expect(banner.textContent).toContain('You have used all 3 books your plan allows in this series.');
    expect(banner.textContent).not.toContain('This feature requires');
    expect(screen.getByTestId('series-limit').textContent).toContain('1 of 1 series on the Apprentice plan — limit reached');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });
});
