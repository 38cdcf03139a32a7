import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { byPosition } from '@chronicler/schema';
import { freshDb, serverBook, serverSeries } from '@chronicler/sync-client/testing';
import { renderWithDb } from '@/test/renderWithDb';
import { ImportScreen } from '../index';
import { pickFolder } from './fixtures/load';

vi.setConfig({ testTimeout: 30_000 });

/** The fixture as the directory picker hands it over: Files with their path in the folder. */
function folderFiles(folder: string): File[] {
  return pickFolder(folder).map(({ path, file }) => {
    const named = new File([file], path.split('/').pop()!);
    Object.defineProperty(named, 'webkitRelativePath', { value: path });
    return named;
  });
}

async function openScrivener(plan: 'wordsmith' | 'apprentice' = 'wordsmith', existingBooks = 0) {
  const user = userEvent.setup({ delay: null });
  const db = freshDb();
  const series = serverSeries({ title: 'The Road Books' });
  await db.series.put(series);
  for (let i = 1; i <= existingBooks; i++) await db.books.put(serverBook(series.id, { title: `Book ${i}`, position: i }));
  renderWithDb(<ImportScreen seriesId={series.id} />, { plan, db });
  await user.click(await screen.findByRole('radio', { name: 'A Scrivener project' }));
  await user.upload(screen.getByTestId('scrivener-folder'), folderFiles('The Lantern Road.scriv'));
  await screen.findByText('The Lantern Road: 2 books, 6 chapters', {}, { timeout: 15_000 });
  return { user, db, series };
}

describe('Import a Scrivener project', () => {
  it('previews the books and chapters with word counts and lists what is left out, before writing anything', async () => {
    const { user, db } = await openScrivener();
    const preview = screen.getByTestId('scrivener-preview');
    expect(within(preview).getByText('Part One')).toBeTruthy();
    expect(within(preview).getByText('Arrival')).toBeTruthy();
    expect(within(preview).getByText('52 words')).toBeTruthy();
    const leftOut = screen.getByTestId('scrivener-left-out');
    expect(leftOut.textContent).toContain('Map of the Road: an image: only text is imported');
    expect(leftOut.textContent).toContain('Trash: 1 item in the Trash');
    expect(await db.books.count()).toBe(0);
    await user.click(screen.getByRole('radio', { name: 'A chapter per folder' }));
    await user.click(screen.getByRole('switch', { name: 'Each top-level folder of the Draft is a book' }));
    expect(await screen.findByText('The Lantern Road: 1 book, 3 chapters')).toBeTruthy();
  });

  it('writes books, chapters with synopsis and notes, characters and locations — never as writing — and undoes them as one step', async () => {
    const { user, db, series } = await openScrivener();
    await user.click(screen.getByRole('button', { name: 'Import 2 books' }));
    expect(await screen.findByText(/2 books, 6 chapters, 2 characters, 1 location from “The Lantern Road”/, {}, { timeout: 15_000 })).toBeTruthy();
    const books = (await db.books.where('seriesId').equals(series.id).toArray()).sort(byPosition);
    expect(books.map((b) => b.title)).toEqual(['Part One', 'Part Two']);
    const chapters = (await db.chapters.where('bookId').equals(books[0]!.id).toArray()).sort(byPosition);
    expect(chapters.map((c) => c.title)).toEqual(['Arrival', 'Night Watch', 'Chapter 2: Letters', 'Postscript']);
    expect(chapters[0]).toMatchObject({ synopsis: 'Mara reaches the Lantern Gate and talks her way through.', status: 'draft' });
    expect(chapters[0]!.content).toContain('the word *carefully* in the ledger');
    expect((await db.characters.toArray()).map((c) => c.name).sort()).toEqual(['Ilya Brandt', 'Mara Voss']);
    expect((await db.locations.toArray()).map((l) => l.name)).toEqual(['The Lantern Gate']);
    const creates = (await db.outbox.toArray()).filter((e) => e.entity === 'chapters');
    expect(creates).toHaveLength(6);
    for (const entry of creates) expect((entry.body as { writing?: { kind: string } }).writing?.kind).toBe('import');

    await user.click(screen.getByRole('button', { name: 'Undo import' }));
    expect(await screen.findByText('Import undone', {}, { timeout: 15_000 })).toBeTruthy();
    await waitFor(async () => expect((await db.books.toArray()).every((b) => b.deletedAt)).toBe(true));
    expect((await db.chapters.toArray()).every((c) => c.deletedAt)).toBe(true);
    expect((await db.characters.toArray()).every((c) => c.deletedAt)).toBe(true);
  });

  it('keeps the import once the author has edited what it made', async () => {
    const { user, db } = await openScrivener();
    await user.click(screen.getByRole('button', { name: 'Import 2 books' }));
    await screen.findByRole('button', { name: 'Undo import' }, { timeout: 15_000 });
    const chapter = (await db.chapters.toArray()).find((c) => c.title === 'Postscript')!;
    await db.chapters.update(chapter.id, { content: 'P.S. Keep this.' });
    await user.click(screen.getByRole('button', { name: 'Undo import' }));
    expect(await screen.findByText('Cannot undo the import')).toBeTruthy();
    expect((await db.books.toArray()).some((b) => b.deletedAt)).toBe(false);
  });

  it('says what is over the plan’s limit before writing, and writes nothing', async () => {
    // The Apprentice plan allows 3 books a series: 2 there and 2 more is over.
    const { user } = await openScrivener('apprentice', 2);
    expect(await screen.findByText(/This import adds 2 to the 2 the series has\. You have used all 3 books your plan allows in this series\./)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Import 2 books' })).toHaveProperty('disabled', true);
    // One book fits.
    await user.click(screen.getByRole('switch', { name: 'Each top-level folder of the Draft is a book' }));
    expect(await screen.findByRole('button', { name: 'Import 1 book' })).toHaveProperty('disabled', false);
  });

  it('says clearly when the folder is not a Scrivener project, and writes nothing', async () => {
    const user = userEvent.setup({ delay: null });
    const db = freshDb();
    const series = serverSeries({ title: 'S' });
    await db.series.put(series);
    renderWithDb(<ImportScreen seriesId={series.id} />, { plan: 'wordsmith', db });
    await user.click(await screen.findByRole('radio', { name: 'A Scrivener project' }));
    const file = new File(['hello'], 'notes.txt');
    Object.defineProperty(file, 'webkitRelativePath', { value: 'Novel/notes.txt' });
    await user.upload(screen.getByTestId('scrivener-folder'), [file]);
    expect(await screen.findByText(/This is not a Scrivener project: no \.scrivx file was found in it\./)).toBeTruthy();
    expect(await db.books.count()).toBe(0);
  });
});
