import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@chronicler/schema';
import { serverBook, serverChapter, serverSeries } from '@chronicler/sync-client/testing';
import { readProgress } from '@chronicler/sync-client';
import { CURRENT_SERIES_KEY } from '@/lib/currentSeries';
import { AddBookForm } from './components/AddBookForm';
import { moveItem } from './components/ChapterList';
import { NewBookScreen, SeriesDetailScreen, SeriesScreen } from './index';
import { limitNotice } from './model/limits';
import { USER_ID, renderWithDb as renderAt, type RenderWithDbOptions } from '@/test/renderWithDb';

// Whole flows through dialogs: typing into Mantine inputs under jsdom is slow.
vi.setConfig({ testTimeout: 30_000 });

const dialog = () => screen.getByRole('dialog');

/** The series screens are mounted at /series unless a test says otherwise. */
const renderWithDb = (ui: ReactNode, options: RenderWithDbOptions = {}) => renderAt(ui, { path: '/series', ...options });

describe('Series page', () => {
  it('shows "No Series Yet", refuses a blank title, then creates a series with the spec defaults', async () => {
    const user = userEvent.setup({ delay: null });
    const { db } = renderWithDb(<SeriesScreen />);
    expect(await screen.findByText('No Series Yet')).toBeTruthy();
    expect(screen.getByText('0 of 1 series on the Apprentice plan')).toBeTruthy();

    await user.click(screen.getAllByRole('button', { name: 'New Series' })[0]!);
    expect(within(dialog()).getByRole('textbox', { name: 'Total books' }).getAttribute('value')).toBe('3');
    await user.click(within(dialog()).getByRole('button', { name: 'Create Series' }));
    expect(await screen.findByText('Missing information')).toBeTruthy();
    expect(screen.getAllByText(MESSAGES.series.titleRequired).length).toBeGreaterThan(0);
    expect(await db.series.count()).toBe(0);

    await user.type(within(dialog()).getByRole('textbox', { name: 'Title' }), 'Earthsea');
    await user.type(within(dialog()).getByRole('textbox', { name: 'Description' }), 'Wizards and dragons');
    await user.click(within(dialog()).getByRole('button', { name: 'Create Series' }));
    expect(await screen.findByText('Series created')).toBeTruthy();

    const card = await screen.findByTestId('series-card');
    expect(within(card).getByText('Earthsea')).toBeTruthy();
    expect(within(card).getByText('Book 1 of 3')).toBeTruthy();
    expect(within(card).getByText('Wizards and dragons')).toBeTruthy();
    // Progress is the work done (docs/spec-differences.md): a new series with no words is at 0%, not 33%.
    expect(within(card).getByText('0%')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Books in Earthsea' })).toBeTruthy();
    expect(await screen.findByText('No Books Yet')).toBeTruthy();

    const [row] = await db.series.toArray();
    expect(row).toMatchObject({ title: 'Earthsea', totalBooks: 3, currentBook: 1, coverImage: null, ownerId: USER_ID });
    expect(await db.outbox.count()).toBe(1);
    expect(window.localStorage.getItem(CURRENT_SERIES_KEY)).toBe(row!.id);
  });

  it('Edit Series: the name is required on change and on submit; saving closes the dialog with "Series updated"', async () => {
    const user = userEvent.setup({ delay: null });
    const series = serverSeries({ title: 'Earthsea', description: 'Old' });
    const { db } = renderWithDb(<SeriesScreen />);
    await db.series.put(series);
    await user.click(await screen.findByRole('button', { name: 'Actions for Earthsea' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit Series' }));

    const name = within(dialog()).getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    expect(within(dialog()).getByText(MESSAGES.series.nameRequired)).toBeTruthy();
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));
    expect((await db.series.get(series.id))!.title).toBe('Earthsea');

    await user.type(name, 'The Earthsea Cycle');
    expect(within(dialog()).queryByText(MESSAGES.series.nameRequired)).toBeNull();
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Series updated')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await db.series.get(series.id))!.title).toBe('The Earthsea Cycle');
    expect(await screen.findByRole('heading', { name: 'Books in The Earthsea Cycle' })).toBeTruthy();
  });

  it('selects the series named by ?id= over the stored current series', async () => {
    const a = serverSeries({ title: 'First', createdAt: '2026-01-01T00:00:00.000Z' });
    const b = serverSeries({ title: 'Second', createdAt: '2026-01-02T00:00:00.000Z' });
    const { db } = renderWithDb(<SeriesScreen />, { path: `/series?id=${b.id}`, pattern: '/series', plan: 'wordsmith' });
    await db.series.bulkPut([a, b]);
    expect(await screen.findByRole('heading', { name: 'Books in Second' })).toBeTruthy();
    await waitFor(() => expect(window.localStorage.getItem(CURRENT_SERIES_KEY)).toBe(b.id));
  });

  it('deletes a series after confirmation', async () => {
    const user = userEvent.setup({ delay: null });
    const series = serverSeries({ title: 'Doomed' });
    const { db } = renderWithDb(<SeriesScreen />);
    await db.series.put(series);
    await user.click(await screen.findByRole('button', { name: 'Actions for Doomed' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete Series' }));
    await user.click(within(dialog()).getByRole('button', { name: 'Delete Series' }));
    expect(await screen.findByText('Series deleted')).toBeTruthy();
    expect(await screen.findByText('No Series Yet')).toBeTruthy();
  });
});

describe('books', () => {
  it('Add Book: the title is required; a new book goes at position count + 1', async () => {
    const user = userEvent.setup({ delay: null });
    const series = serverSeries({ title: 'Earthsea' });
    const { db } = renderWithDb(<SeriesScreen />, { plan: 'wordsmith' });
    await db.series.put(series);
    await db.books.put(serverBook(series.id, { title: 'A Wizard of Earthsea', position: 1 }));
    await screen.findByTestId('book-card');

    await user.click(screen.getByRole('button', { name: 'Add Book' }));
    await user.click(within(dialog()).getByRole('button', { name: 'Add Book' }));
    expect(await screen.findAllByText(MESSAGES.book.titleRequired)).toBeTruthy();
    await user.type(within(dialog()).getByRole('textbox', { name: 'Title' }), 'The Tombs of Atuan');
    await user.click(within(dialog()).getByRole('button', { name: 'Add Book' }));
    expect(await screen.findByText('Book created')).toBeTruthy();

    // The toast comes from the mutation; the list follows on the live query's next tick.
    await waitFor(() => expect(screen.getAllByTestId('book-card')).toHaveLength(2));
    const cards = screen.getAllByTestId('book-card');
    expect(within(cards[1]!).getByText('Book 2')).toBeTruthy();
    expect(within(cards[1]!).getByText('The Tombs of Atuan')).toBeTruthy();
    const created = (await db.books.toArray()).find((b) => b.title === 'The Tombs of Atuan');
    expect(created?.position).toBe(2);
  });

  it('"No series selected" when the form has no series', async () => {
    const user = userEvent.setup({ delay: null });
    renderWithDb(<AddBookForm seriesId={null} bookCount={0} onCreated={() => undefined} onCancel={() => undefined} />);
    await user.type(screen.getByRole('textbox', { name: 'Title' }), 'Orphan');
    await user.click(screen.getByRole('button', { name: 'Add Book' }));
    expect(await screen.findByText('No series selected')).toBeTruthy();
    expect(screen.getByText(MESSAGES.book.seriesRequired)).toBeTruthy();
  });

  it('inline edit: Cancel restores the original values; Save stores them with "Book updated"', async () => {
    const user = userEvent.setup({ delay: null });
    const series = serverSeries({ title: 'Earthsea' });
    const book = serverBook(series.id, { title: 'A Wizard of Earthsea', description: 'Ged', status: 'in_progress' });
    const { db } = renderWithDb(<SeriesScreen />);
    await db.series.put(series);
    await db.books.put(book);

    await user.click(await screen.findByRole('button', { name: 'Actions for A Wizard of Earthsea' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit A Wizard of Earthsea' });
    const title = within(form).getByRole('textbox', { name: 'Title' });
    await user.clear(title);
    await user.type(title, 'Something else');
    await user.clear(within(form).getByRole('textbox', { name: 'Description' }));
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));

    const card = screen.getByTestId('book-card');
    expect(within(card).getByText('A Wizard of Earthsea')).toBeTruthy();
    expect(within(card).getByText('Ged')).toBeTruthy();
    expect(within(card).queryByText('Something else')).toBeNull();
    expect((await db.books.get(book.id))!.title).toBe('A Wizard of Earthsea');

    // Editing again starts from the stored values, not the cancelled ones.
    await user.click(screen.getByRole('button', { name: 'Actions for A Wizard of Earthsea' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const again = screen.getByRole('form', { name: 'Edit A Wizard of Earthsea' });
    expect((within(again).getByRole('textbox', { name: 'Title' }) as HTMLInputElement).value).toBe('A Wizard of Earthsea');
    await user.click(within(again).getAllByLabelText('Status')[0]!);
    await user.click(await screen.findByRole('option', { name: 'Completed' }));
    await user.click(within(again).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Book updated')).toBeTruthy();
    expect(await within(screen.getByTestId('book-card')).findByText('Completed')).toBeTruthy();
    expect((await db.books.get(book.id))!.status).toBe('completed');
  });

  it('delete puts the book in the series’ Trash at once ("Book deleted"), and the toast’s Undo brings it back', async () => {
    const user = userEvent.setup({ delay: null });
    const series = serverSeries({ title: 'Earthsea' });
    const { db } = renderWithDb(<SeriesScreen />);
    await db.series.put(series);
    const book = serverBook(series.id, { title: 'Tehanu' });
    await db.books.put(book);
    await user.click(await screen.findByRole('button', { name: 'Actions for Tehanu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    expect(await screen.findByText('Book deleted')).toBeTruthy();
    expect(await screen.findByText('No Books Yet')).toBeTruthy();
    expect((await db.books.get(book.id))!.trashedAt).toEqual(expect.any(String));
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Undone')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Actions for Tehanu' })).toBeTruthy();
    expect((await db.books.get(book.id))!.trashedAt).toBeNull();
  });

  it('a chapter’s options move it to another book and delete it into the Trash, each undoable', async () => {
    const user = userEvent.setup({ delay: null });
    const series = serverSeries({ title: 'Earthsea' });
    const one = serverBook(series.id, { title: 'Tehanu', position: 1 });
    const two = serverBook(series.id, { title: 'Tales', position: 2 });
    const chapter = serverChapter(one, { title: 'Arrival', position: 1 });
    const { db } = renderWithDb(<SeriesScreen />);
    await db.series.put(series);
    await db.books.bulkPut([one, two]);
    await db.chapters.put(chapter);
    await user.click(await screen.findByRole('button', { name: 'Options for Arrival' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Move to Tales' }));
    expect(await screen.findByText('Chapter moved')).toBeTruthy();
    expect((await db.chapters.get(chapter.id))!.bookId).toBe(two.id);
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Undone')).toBeTruthy();
    expect((await db.chapters.get(chapter.id))!.bookId).toBe(one.id);
    const [first] = await screen.findAllByTestId('book-card');
    await user.click(await within(first!).findByRole('button', { name: 'Options for Arrival' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    expect(await screen.findByText('Chapter moved to the Trash')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Options for Arrival' })).toBeNull());
    expect((await db.chapters.get(chapter.id))!.trashedAt).toEqual(expect.any(String));
  });

  it('shows progress from completed chapters and the chapter list linking to the editor', async () => {
    const series = serverSeries({ title: 'Earthsea' });
    const book = serverBook(series.id, { title: 'Tehanu' });
    const done = serverChapter(book, { title: 'Done', position: 1, status: 'completed', wordCount: 900 });
    const draft = serverChapter(book, { title: 'Draft', position: 2, status: 'draft', wordCount: 0 });
    const { db } = renderWithDb(<SeriesScreen />);
    await db.series.put(series);
    await db.books.put(book);
    await db.chapters.bulkPut([draft, done]);

    const card = await screen.findByTestId('book-card');
    expect(await within(card).findByText('50%')).toBeTruthy();
    const items = await within(card).findAllByTestId('chapter-item');
    expect(items.map((i) => within(i).getByRole('link').textContent)).toEqual([expect.stringContaining('Done'), expect.stringContaining('Draft')]);
    expect(within(items[0]!).getByRole('link').getAttribute('href')).toBe(`/chapter-editor?id=${done.id}&bookId=${book.id}&seriesId=${series.id}`);
    expect(within(items[0]!).getByRole('progressbar', { name: /Done progress 100%/ })).toBeTruthy();
    expect(within(items[1]!).getByRole('progressbar', { name: /Draft progress 10%/ })).toBeTruthy();
    expect(within(items[0]!).getByRole('button', { name: 'Reorder chapter Done' })).toBeTruthy();
  });
});

describe('Add Chapter', () => {
  it('counts words live, refuses a blank title, then creates the chapter at the end', async () => {
    const user = userEvent.setup({ delay: null });
    const series = serverSeries({ title: 'Earthsea' });
    const book = serverBook(series.id, { title: 'Tehanu' });
    const { db } = renderWithDb(<SeriesScreen />);
    await db.series.put(series);
    await db.books.put(book);
    await db.chapters.put(serverChapter(book, { title: 'One', position: 1 }));

    await user.click(await screen.findByRole('button', { name: 'Add Chapter' }));
    const count = within(dialog()).getByTestId('chapter-word-count');
    expect(count.textContent).toBe('0 words');
    const content = within(dialog()).getByRole('textbox', { name: 'Content' });
    await user.type(content, 'The  island of   Gont');
    expect(count.textContent).toBe('4 words');
    await user.clear(content);
    await user.type(content, '   ');
    expect(count.textContent).toBe('0 words');
    await user.type(content, 'a single mountain');
    expect(count.textContent).toBe('3 words');

    await user.click(within(dialog()).getByRole('button', { name: 'Add Chapter' }));
    expect(await screen.findByText('Missing title')).toBeTruthy();
    expect(screen.getAllByText(MESSAGES.chapter.titleRequired).length).toBeGreaterThan(0);

    await user.type(within(dialog()).getByRole('textbox', { name: 'Chapter title' }), 'Two');
    await user.click(within(dialog()).getByRole('button', { name: 'Add Chapter' }));
    expect(await screen.findByText('Chapter created')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId('chapter-item')).toHaveLength(2));
    const created = (await db.chapters.toArray()).find((c) => c.title === 'Two');
    expect(created).toMatchObject({ position: 2, status: 'in_progress', wordCount: 3 });
    // The words typed into the dialog are the author's writing: Words Today counts them at once.
    const progress = await readProgress(db, { timeZone: 'UTC', dayEndHour: 0 });
    expect([...progress.dailyWords.values()].reduce((a, b) => a + b, 0)).toBe(3);
  });
});

describe('plan limits', () => {
  it('warns "2 of 3 books on the Apprentice plan" before the limit', async () => {
    const series = serverSeries({ title: 'Earthsea' });
    const { db } = renderWithDb(<SeriesScreen />);
    await db.series.put(series);
    await db.books.bulkPut([serverBook(series.id, { position: 1 }), serverBook(series.id, { position: 2, title: 'Two' })]);
    expect(await screen.findByText('2 of 3 books on the Apprentice plan')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Add Book' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('locks Add Book at the limit with the upgrade message', async () => {
    const series = serverSeries({ title: 'Earthsea' });
    const { db } = renderWithDb(<SeriesScreen />);
    await db.series.put(series);
    await db.books.bulkPut([1, 2, 3].map((position) => serverBook(series.id, { position, title: `Book ${position} title` })));
    const notice = await screen.findByTestId('book-limit');
    expect(within(notice).getByText(/3 of 3 books on the Apprentice plan/)).toBeTruthy();
    expect(within(notice).getByText(limitNotice('apprentice', 'booksPerSeries', 3).message)).toBeTruthy();
    expect(within(notice).getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe('/subscription');
    expect((screen.getByRole('button', { name: 'Add Book' }) as HTMLButtonElement).disabled).toBe(true);
    // The series limit (1 on Apprentice) is reached too: New Series is locked.
    expect((screen.getByRole('button', { name: 'New Series' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows no limit on Wordsmith, and none for a series someone else owns', async () => {
    const mine = serverSeries({ title: 'Mine' });
    const { db } = renderWithDb(<SeriesScreen />, { plan: 'wordsmith' });
    await db.series.put(mine);
    await db.books.bulkPut([1, 2, 3].map((position) => serverBook(mine.id, { position })));
    await screen.findByRole('heading', { name: 'Books in Mine' });
    await waitFor(() => expect(screen.getAllByTestId('book-card')).toHaveLength(3));
    expect(screen.queryByTestId('book-limit')).toBeNull();
    expect((screen.getByRole('button', { name: 'Add Book' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('the new-book page is locked at the limit too', async () => {
    const series = serverSeries({ title: 'Earthsea' });
    const { db } = renderWithDb(<NewBookScreen seriesId={series.id} />, { path: `/series/${series.id}/books/new` });
    await db.series.put(series);
    await db.books.bulkPut([1, 2, 3].map((position) => serverBook(series.id, { position })));
    expect(await screen.findByTestId('book-limit')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Add Book' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('series detail and new book pages', () => {
  it('/series/{id} shows one series with its books and makes it current', async () => {
    const series = serverSeries({ title: 'Earthsea', currentBook: 2, totalBooks: 4 });
    const { db } = renderWithDb(<SeriesDetailScreen seriesId={series.id} />, { path: `/series/${series.id}` });
    await db.series.put(series);
    await db.books.put(serverBook(series.id, { title: 'Tehanu' }));
    expect(await screen.findByRole('heading', { name: 'Earthsea', level: 1 })).toBeTruthy();
    expect(screen.getByText('Book 2 of 4')).toBeTruthy();
    expect(await screen.findByText('Tehanu')).toBeTruthy();
    await waitFor(() => expect(window.localStorage.getItem(CURRENT_SERIES_KEY)).toBe(series.id));
  });

  it('/series/{id} for an unknown series says so', async () => {
    renderWithDb(<SeriesDetailScreen seriesId="nope" />, { path: '/series/nope' });
    expect(await screen.findByText('Series not found')).toBeTruthy();
  });

  it('/series/{id}/books/new adds the book, then goes back to /series/{id}', async () => {
    const user = userEvent.setup({ delay: null });
    const series = serverSeries({ title: 'Earthsea' });
    const { db } = renderWithDb(<NewBookScreen seriesId={series.id} />, { path: `/series/${series.id}/books/new`, plan: 'wordsmith' });
    await db.series.put(series);
    await user.type(await screen.findByRole('textbox', { name: 'Title' }), 'The Farthest Shore');
    await user.click(screen.getByRole('button', { name: 'Add Book' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe(`/series/${series.id}`));
    expect((await db.books.toArray()).map((b) => b.title)).toEqual(['The Farthest Shore']);
  });
});

describe('pure helpers', () => {
  it('moveItem moves one item', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
  });

  it('limitNotice words the usage and the lock', () => {
    expect(limitNotice('apprentice', 'booksPerSeries', 2)).toMatchObject({ locked: false, usage: '2 of 3 books on the Apprentice plan' });
    expect(limitNotice('apprentice', 'series', 1)).toMatchObject({ locked: true, usage: '1 of 1 series on the Apprentice plan', canUpgrade: true });
    expect(limitNotice('legendary', 'booksPerSeries', 99)).toMatchObject({ locked: false, usage: null });
  });
});
