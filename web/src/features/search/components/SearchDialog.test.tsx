import { afterAll, describe, expect, it } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { freshDb, serverBook, serverChapter, serverCharacter, serverSeries } from '@chronicler/sync-client/testing';
import { USER_ID, renderWithDb } from '@/test/renderWithDb';
import { stopSearch } from '../model/search-client';
import { SearchDialog } from './SearchDialog';

configure({ asyncUtilTimeout: 5000 });

afterAll(() => stopSearch(USER_ID));

describe('the search dialog', () => {
  it('guides, finds, says when nothing matches, and opens a chapter at its hit with the keyboard', async () => {
    // The index reads the author's database where the app keeps it (the global IndexedDB).
    const db = freshDb(USER_ID, indexedDB);
    const series = serverSeries({ title: 'The Lantern Cycle' });
    const book = serverBook(series.id, { title: 'Book One' });
    const chapter = serverChapter(book, { title: 'The Stair', content: 'She found the *silver* key.' });
    await db.series.add(series);
    await db.books.add(book);
    await db.chapters.add(chapter);
    await db.characters.add(serverCharacter(series.id, { name: 'Mara Voss', description: 'Keeps a silver ring.' }));
    renderWithDb(<SearchDialog opened onClose={() => undefined} />, { db });
    const user = userEvent.setup();

    const box = await screen.findByRole('combobox', { name: 'Search text' });
    expect(await screen.findByText(/Type at least two letters/)).toBeTruthy();
    await user.type(box, 'zzqx');
    expect(await screen.findByTestId('search-no-results')).toBeTruthy();

    await user.clear(box);
    await user.type(box, 'silv');
    const list = await screen.findByRole('listbox', { name: 'Search results' });
    await waitFor(() => expect(within(list).getAllByRole('option')).toHaveLength(2));
    expect(within(list).getByRole('group', { name: /Book One/ })).toBeTruthy();
    expect(within(list).getByRole('group', { name: /Characters/ })).toBeTruthy();
    expect(within(list).getAllByText('silver', { selector: 'mark' })).toHaveLength(2);
    expect(within(list).getAllByRole('option')[0]!.getAttribute('aria-selected')).toBe('true');

    await user.keyboard('{ArrowDown}{ArrowUp}{Enter}');
    const at = chapter.content.indexOf('silver');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toContain(`/chapter-editor?id=${chapter.id}`));
    expect(screen.getByTestId('location').textContent).toContain(`select=${at}-${at + 6}`);
  });
});
