/**
 * The series' pace table and a book's goal form (docs/decisions/0018-pace-predictions.md): every
 * book's projection from the local statistics, bad input told in the form and nothing saved, a
 * good goal written to the book, and the upgrade prompt on a plan without pace predictions.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BOOK_GOAL_MESSAGES, DEFAULT_DAY_END_HOUR, type PlanName, addDays, newId, upgradeMessage, writingDay } from '@chronicler/schema';
import { serverBook, serverChapter, serverSeries } from '@chronicler/sync-client/testing';
import { USER_ID, renderWithDb } from '@/test/renderWithDb';
import { SeriesPacePanel } from './components/SeriesPacePanel';

vi.setConfig({ testTimeout: 30_000 });

const today = () => writingDay(Date.now(), Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC', DEFAULT_DAY_END_HOUR);

async function seeded(plan: PlanName = 'wordsmith') {
  const series = serverSeries({ title: 'Earthsea' });
  const goalBook = serverBook(series.id, { title: 'Tehanu', position: 1, targetWords: 30_000, deadline: addDays(today(), 29), writingDays: [], daysOff: [] });
  const plain = serverBook(series.id, { title: 'Tales', position: 2 });
  const view = renderWithDb(<SeriesPacePanel series={series} />, { path: `/series/${series.id}`, plan });
  await view.db.series.put(series);
  await view.db.books.bulkPut([goalBook, plain]);
  // 10,000 words already; the last 14 days at 500 a day: 20,000 to go in 30 days at 500 is behind.
  await view.db.chapters.bulkPut([serverChapter(goalBook, { title: 'Arrival', wordCount: 10_000 }), serverChapter(plain, { title: 'Dragonfly', wordCount: 1_234 })]);
  const stats = Array.from({ length: 14 }, (_, i) => ({
    id: newId(),
    rev: 10 + i,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    deletedAt: null,
    userId: USER_ID,
    day: addDays(today(), -1 - i),
    wordsWritten: 500,
    wordsRemoved: 0,
    wordsPasted: 0,
    edits: 3,
  }));
  await view.db.table('writingStats').bulkPut(stats);
  return { ...view, series, goalBook, plain };
}

describe('the series pace table', () => {
  it('lists every book: the one with a goal with its projection, the other without', async () => {
    await seeded();
    const table = await screen.findByRole('table', { name: 'Pace of the books of Earthsea' });
    const rows = await within(table).findAllByTestId('series-pace-row');
    expect(rows).toHaveLength(2);
    await waitFor(() => expect(within(rows[0]!).getByTestId('pace-status').textContent).toBe('Behind by 5,000 words'));
    expect(rows[0]!.textContent).toContain('10,000 of 30,000');
    expect(rows[0]!.textContent).toContain('667 words');
    expect(within(rows[1]!).getByText('No goal')).toBeTruthy();
  });

  it('a goal form refuses a target below the words and a past deadline, then saves a good goal to the book', async () => {
    const user = userEvent.setup({ delay: null });
    const { db, plain } = await seeded();
    await user.click(await screen.findByRole('button', { name: 'Goal for Tales' }));
    const form = await screen.findByRole('form', { name: 'Goal for Tales' });
    await user.type(within(form).getByRole('textbox', { name: /Target word count/ }), '1000');
    const deadline = within(form).getByLabelText('Deadline');
    // A date input takes its value whole (as a date picker gives it).
    fireEvent.change(deadline, { target: { value: addDays(today(), -2) } });
    await user.click(within(form).getByRole('button', { name: 'Save goal' }));
    expect(await within(form).findByText(BOOK_GOAL_MESSAGES.targetBelowWritten(1_234))).toBeTruthy();
    expect(within(form).getByText(BOOK_GOAL_MESSAGES.deadlinePast)).toBeTruthy();
    expect((await db.books.get(plain.id))!.targetWords ?? null).toBeNull();

    const target = within(form).getByRole('textbox', { name: /Target word count/ });
    await user.clear(target);
    await user.type(target, '40000');
    fireEvent.change(deadline, { target: { value: addDays(today(), 90) } });
    await user.click(within(form).getByRole('checkbox', { name: 'Sun' }));
    await user.click(within(form).getByRole('button', { name: 'Save goal' }));
    expect(await screen.findByText('Goal saved')).toBeTruthy();
    await waitFor(async () => expect(await db.books.get(plain.id)).toMatchObject({ targetWords: 40_000, deadline: addDays(today(), 90), writingDays: [1, 2, 3, 4, 5, 6] }));
  });

  it('is locked with the upgrade prompt on a plan without pace predictions', async () => {
    await seeded('apprentice');
    expect(await screen.findByText(upgradeMessage('wordsmith'))).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe('/subscription');
  });
});
