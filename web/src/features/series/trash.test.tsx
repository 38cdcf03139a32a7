/**
 * The series' Trash page (docs/decisions/0014-trash-and-restructure.md): what was removed and when,
 * restore to its place, a chapter whose book is in the Trash too restored with its book (or moved
 * elsewhere), and "Delete forever" only after one more question.
 */
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RESTRUCTURE_MESSAGES } from '@chronicler/schema';
import { serverBook, serverChapter, serverSeries } from '@chronicler/sync-client/testing';
import { renderWithDb } from '@/test/renderWithDb';
import { TrashScreen } from './index';

vi.setConfig({ testTimeout: 30_000 });

const TRASHED_AT = '2026-03-01T10:00:00.000Z';

async function seeded() {
  const series = serverSeries({ title: 'Earthsea' });
  const one = serverBook(series.id, { title: 'Tehanu', position: 1 });
  const two = serverBook(series.id, { title: 'Tales', position: 2 });
  const storm = serverChapter(one, { title: 'Storm', position: 2, trashedAt: TRASHED_AT });
  const view = renderWithDb(<TrashScreen seriesId={series.id} />, { path: `/series/${series.id}/trash` });
  await view.db.series.put(series);
  await view.db.books.bulkPut([one, two]);
  await view.db.chapters.bulkPut([serverChapter(one, { title: 'Arrival', position: 1 }), storm]);
  return { ...view, series, one, two, storm };
}

describe('the Trash page', () => {
  it('lists a trashed chapter with its book and when, and Restore brings it back (Undo puts it back in the Trash)', async () => {
    const user = userEvent.setup({ delay: null });
    const { db, storm } = await seeded();
    const entry = await screen.findByRole('listitem', { name: 'Storm' });
    expect(within(entry).getByText(/from Tehanu/)).toBeTruthy();
    expect(within(entry).getByText(/^Deleted /)).toBeTruthy();
    await user.click(within(entry).getByRole('button', { name: 'Restore' }));
    expect(await screen.findByText('Chapter restored')).toBeTruthy();
    expect(await screen.findByText(/The Trash is empty/)).toBeTruthy();
    expect((await db.chapters.get(storm.id))!.trashedAt).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByRole('listitem', { name: 'Storm' })).toBeTruthy();
  });

  it('a chapter whose book is in the Trash says so, and is restored with its book', async () => {
    const user = userEvent.setup({ delay: null });
    const { db, one, storm } = await seeded();
    await db.books.put({ ...one, trashedAt: TRASHED_AT });
    const entry = await screen.findByRole('listitem', { name: 'Storm' });
    expect(await within(entry).findByText(RESTRUCTURE_MESSAGES.restoreIntoTrashedBook)).toBeTruthy();
    expect(within(entry).queryByRole('button', { name: 'Restore' })).toBeNull();
    await user.click(within(entry).getByRole('button', { name: 'Restore with its book' }));
    expect(await screen.findByText('Chapter restored')).toBeTruthy();
    await waitFor(async () => expect((await db.books.get(one.id))!.trashedAt).toBeNull());
    expect((await db.chapters.get(storm.id))!.trashedAt).toBeNull();
  });

  it('deletes for good only after one more question', async () => {
    const user = userEvent.setup({ delay: null });
    const { db, storm } = await seeded();
    const entry = await screen.findByRole('listitem', { name: 'Storm' });
    await user.click(within(entry).getByRole('button', { name: 'Delete forever' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('“Storm” will be deleted for good. This cannot be undone.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await db.chapters.get(storm.id)).toBeTruthy();
    await user.click(within(entry).getByRole('button', { name: 'Delete forever' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete forever' }));
    expect(await screen.findByText('Deleted for good')).toBeTruthy();
    expect(await db.chapters.get(storm.id)).toBeUndefined();
  });
});
