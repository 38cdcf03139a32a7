import { useSession } from '@/lib/session';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configure } from '@testing-library/react';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type ChapterConflict, countWords, newId } from '@chronicler/schema';
import { isAppBusy } from '@/lib/appBusy';
import type { ChroniclerDb } from '@chronicler/sync-client';
import { createMutators } from '@chronicler/sync-client';
import { AUTO_SAVE_DELAY_MS, DRAFT_DELAY_MS } from './model/constants';
import { contentView, editorPath, renderEditor, replaceAll, seedDb, typeAtEnd } from './test-utils';

// Saves run a Dexie transaction over every sync table on fake-indexeddb: give them time.
configure({ asyncUtilTimeout: 5000 });

let db: ChroniclerDb | undefined;
afterEach(() => {
  vi.useRealTimers();
  db?.close();
  db = undefined;
});

/** Lets IndexedDB (real setImmediate) and any due fake timers run. */
async function settle(rounds = 30) {
  for (let i = 0; i < rounds; i++) {
    if (vi.isFakeTimers()) await act(() => vi.advanceTimersByTimeAsync(0));
    await act(() => new Promise((r) => setImmediate(r)));
  }
}

async function openExisting(chapterOver = {}) {
  const seeded = await seedDb(chapterOver);
  db = seeded.db;
  const utils = renderEditor(seeded.db, editorPath(seeded));
  await screen.findByTestId('chapter-content', {}, { timeout: 5000 });
  return { ...seeded, ...utils };
}

const saveButton = () => screen.getByRole('button', { name: /^(Save|Saving\.\.\.)$/ });

describe('opening the editor', () => {
  it('shows the title, the book title, the badges and the counts', async () => {
    await openExisting();
    expect((screen.getByRole('textbox', { name: 'Chapter title' }) as HTMLInputElement).value).toBe('Lanterns');
    expect(screen.getByTestId('book-title').textContent).toBe('The First Crossing');
    expect(screen.getByTestId('status-badge').textContent).toBe('In Progress');
    expect(screen.getByTestId('words-badge').textContent).toBe('4 words');
    expect(screen.getByTestId('change-badge').textContent).toBe('0 since save');
    expect(contentView().state.doc.toString()).toBe('The river ran cold.');
    expect(screen.getByRole('heading', { name: 'Chapter Editor', level: 1 })).toBeTruthy();
  });

  it("says 'Untitled Book' when the book is not known, and refuses to save without it", async () => {
    const seeded = await seedDb();
    db = seeded.db;
    await seeded.db.books.delete(seeded.book.id);
    renderEditor(seeded.db, editorPath(seeded));
    await screen.findByTestId('chapter-content', {}, { timeout: 5000 });
    expect(screen.getByTestId('book-title').textContent).toBe('Untitled Book');
    typeAtEnd(' More.');
    fireEvent.click(saveButton());
    expect(await screen.findByText('Book required')).toBeTruthy();
    expect(screen.getByText('A chapter must be associated with a book. Please select a book first.')).toBeTruthy();
    expect(await seeded.db.outbox.count()).toBe(0);
  });

  it('says so when the chapter is not on this device', async () => {
    const seeded = await seedDb();
    db = seeded.db;
    renderEditor(seeded.db, editorPath({ ...seeded, chapter: { ...seeded.chapter, id: newId() } }));
    expect(await screen.findByText('Chapter not found')).toBeTruthy();
  });
});

describe('the Save button', () => {
  it('is disabled without changes, enabled after one, and saves through the update mutator', async () => {
    const { db: d, chapter } = await openExisting();
    expect(saveButton().hasAttribute('disabled')).toBe(true);
    typeAtEnd(' It rose.');
    expect(saveButton().hasAttribute('disabled')).toBe(false);

    fireEvent.click(saveButton());
    expect(await screen.findByText('Chapter saved')).toBeTruthy();
    expect(screen.getByText('Your changes have been saved')).toBeTruthy();
    await waitFor(() => expect(saveButton().hasAttribute('disabled')).toBe(true));
    const row = await d.chapters.get(chapter.id);
    expect(row?.content).toBe('The river ran cold. It rose.');
    const [entry] = await d.outbox.toArray();
    expect(entry).toMatchObject({ method: 'PUT', path: `/api/chapters/${chapter.id}`, baseRev: chapter.rev });
    expect(entry!.body).toMatchObject({ content: 'The river ran cold. It rose.', wordCount: 6 });
    expect(screen.getByTestId('last-saved').textContent).toBe('Last saved: Just now');
  });

  it("reads 'Saving...' and is disabled while a save is in flight", async () => {
    const seeded = await seedDb();
    db = seeded.db;
    const mutators = createMutators(seeded.db);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const update = mutators.chapters.update;
    mutators.chapters.update = async (...args: Parameters<typeof update>) => {
      await gate;
      return update(...args);
    };
    renderEditor(seeded.db, editorPath(seeded), mutators);
    await screen.findByTestId('chapter-content', {}, { timeout: 5000 });
    typeAtEnd(' Then.');
    fireEvent.click(saveButton());
    await waitFor(() => expect(saveButton().textContent).toBe('Saving...'));
    expect(saveButton().hasAttribute('disabled')).toBe(true);
    release();
    await waitFor(() => expect(saveButton().textContent).toBe('Save'));
  });

  it("asks for a title: 'Title required'", async () => {
    await openExisting();
    fireEvent.change(screen.getByRole('textbox', { name: 'Chapter title' }), { target: { value: '   ' } });
    fireEvent.click(saveButton());
    expect(await screen.findByText('Title required')).toBeTruthy();
    expect(screen.getByText('Please enter a title for your chapter')).toBeTruthy();
    expect(await db!.outbox.count()).toBe(0);
  });
});

describe('a new chapter', () => {
  it('is created through the mutator and the URL moves to its id (replace)', async () => {
    const seeded = await seedDb();
    db = seeded.db;
    const { router } = renderEditor(seeded.db, editorPath({ ...seeded, chapter: null }));
    await screen.findByTestId('chapter-content', {}, { timeout: 5000 });
    expect(screen.getByTestId('last-saved').textContent).toBe('Never saved');
    fireEvent.change(screen.getByRole('textbox', { name: 'Chapter title' }), { target: { value: 'Embers' } });
    typeAtEnd('Smoke rose over the hills.');
    // Counts follow typing at most every 250 ms (hooks/useChapterEditor.ts).
    await waitFor(() => expect(screen.getByTestId('change-badge').textContent).toBe('+5 since save'));
    fireEvent.click(saveButton());
    expect(await screen.findByText('Chapter created')).toBeTruthy();
    expect(screen.getByText('Your chapter has been created successfully')).toBeTruthy();
    const chapters = await seeded.db.chapters.where('bookId').equals(seeded.book.id).toArray();
    const created = chapters.find((c) => c.title === 'Embers');
    expect(created).toMatchObject({ content: 'Smoke rose over the hills.', status: 'in_progress', seriesId: seeded.series.id });
    await waitFor(() => expect(router.state.location.search).toContain(`id=${created!.id}`));
    expect(router.state.location.search).toContain(`bookId=${seeded.book.id}`);
    expect(router.state.location.search).toContain(`seriesId=${seeded.series.id}`);
    expect(router.state.historyAction).toBe('REPLACE');
    // The same editor stays (nothing reloaded): the text is still there.
    expect(contentView().state.doc.toString()).toBe('Smoke rose over the hills.');
    expect((await seeded.db.outbox.toArray()).map((e) => e.method)).toEqual(['POST']);
  });
});

describe('auto-save', () => {
  async function withFakeTimers() {
    const opened = await openExisting();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    return opened;
  }

  it('fires 30 s after the LAST change, not after the first', async () => {
    const { db: d, chapter } = await withFakeTimers();
    typeAtEnd(' One.');
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    typeAtEnd(' Two.');
    await act(() => vi.advanceTimersByTimeAsync(AUTO_SAVE_DELAY_MS - 1));
    await settle();
    expect(await d.outbox.count()).toBe(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    await settle();
    expect(await d.outbox.count()).toBe(1);
    expect((await d.chapters.get(chapter.id))?.content).toBe('The river ran cold. One. Two.');
  });

  it('does not fire without changes', async () => {
    const { db: d } = await withFakeTimers();
    await act(() => vi.advanceTimersByTimeAsync(AUTO_SAVE_DELAY_MS * 3));
    await settle();
    expect(await d.outbox.count()).toBe(0);
  });

  it('does not fire with an empty title', async () => {
    const { db: d } = await withFakeTimers();
    typeAtEnd(' More.');
    fireEvent.change(screen.getByRole('textbox', { name: 'Chapter title' }), { target: { value: '' } });
    await act(() => vi.advanceTimersByTimeAsync(AUTO_SAVE_DELAY_MS + 10));
    await settle();
    expect(await d.outbox.count()).toBe(0);
    expect(screen.queryByText('Title required')).toBeNull();
  });

  it('does not fire with empty content', async () => {
    const { db: d } = await withFakeTimers();
    replaceAll('');
    await act(() => vi.advanceTimersByTimeAsync(AUTO_SAVE_DELAY_MS + 10));
    await settle();
    expect(await d.outbox.count()).toBe(0);
  });

  it('does not fire when switched off', async () => {
    const { db: d } = await withFakeTimers();
    fireEvent.click(screen.getByRole('switch', { name: 'Auto-save' }));
    typeAtEnd(' More.');
    await act(() => vi.advanceTimersByTimeAsync(AUTO_SAVE_DELAY_MS * 2));
    await settle();
    expect(await d.outbox.count()).toBe(0);
  });
});

describe('never losing a word', () => {
  it('writes every keystroke to IndexedDB as a draft within a second, auto-save or not', async () => {
    const { db: d, chapter } = await openExisting();
    fireEvent.click(screen.getByRole('switch', { name: 'Auto-save' }));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    typeAtEnd(' Ash');
    await act(() => vi.advanceTimersByTimeAsync(DRAFT_DELAY_MS));
    await settle();
    expect(DRAFT_DELAY_MS).toBeLessThanOrEqual(500);
    expect(await d.drafts.get(chapter.id)).toMatchObject({ title: 'Lanterns', content: 'The river ran cold. Ash' });
    typeAtEnd(' fell.');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await settle();
    expect((await d.drafts.get(chapter.id))?.content).toBe('The river ran cold. Ash fell.');
    expect(await d.outbox.count()).toBe(0); // a draft is not a save
  });

  it('flushes the draft at once when the page is hidden', async () => {
    const { db: d, chapter } = await openExisting();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    typeAtEnd(' Quick.');
    act(() => {
      window.dispatchEvent(new Event('pagehide'));
    });
    await settle();
    expect((await d.drafts.get(chapter.id))?.content).toBe('The river ran cold. Quick.');
  });

  it('clears the draft after a successful save', async () => {
    const { db: d, chapter } = await openExisting();
    typeAtEnd(' Saved words.');
    await waitFor(async () => expect(await d.drafts.get(chapter.id)).toBeTruthy());
    fireEvent.click(saveButton());
    await screen.findByText('Chapter saved');
    await waitFor(async () => expect(await d.drafts.get(chapter.id)).toBeUndefined());
  });

  it('offers a draft newer than the saved text when the chapter is opened again', async () => {
    const seeded = await seedDb();
    db = seeded.db;
    await seeded.db.drafts.put({ chapterId: seeded.chapter.id, title: 'Lanterns', content: 'The river ran cold. Unsaved words.', updatedAt: Date.now() });
    renderEditor(seeded.db, editorPath(seeded));
    const banner = await screen.findByTestId('draft-banner', {}, { timeout: 5000 });
    expect(within(banner).getByText('Unsaved draft found')).toBeTruthy();
    // Nothing can overwrite the draft before the author chooses.
    expect(contentView().state.readOnly).toBe(true);
    fireEvent.click(within(banner).getByRole('button', { name: 'Restore draft' }));
    expect(contentView().state.doc.toString()).toBe('The river ran cold. Unsaved words.');
    expect(saveButton().hasAttribute('disabled')).toBe(false);
    expect(screen.queryByTestId('draft-banner')).toBeNull();
  });

  it('discarding the offered draft keeps the saved text and deletes the draft', async () => {
    const seeded = await seedDb();
    db = seeded.db;
    await seeded.db.drafts.put({ chapterId: seeded.chapter.id, title: 'Lanterns', content: 'Other words.', updatedAt: Date.now() });
    renderEditor(seeded.db, editorPath(seeded));
    const banner = await screen.findByTestId('draft-banner', {}, { timeout: 5000 });
    fireEvent.click(within(banner).getByRole('button', { name: 'Discard draft' }));
    expect(contentView().state.doc.toString()).toBe('The river ran cold.');
    await waitFor(async () => expect(await seeded.db.drafts.get(seeded.chapter.id)).toBeUndefined());
  });

  it('marks the app busy while it holds unsaved input and warns before the tab closes', async () => {
    await openExisting();
    expect(isAppBusy()).toBe(false);
    typeAtEnd('!');
    expect(isAppBusy()).toBe(true);
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    fireEvent.click(saveButton());
    await screen.findByText('Chapter saved');
    await waitFor(() => expect(isAppBusy()).toBe(false));
  });
});

describe('leaving', () => {
  it('goes back to the series of the book when nothing is unsaved', async () => {
    const { router, series } = await openExisting();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/series'));
    expect(router.state.location.search).toBe(`?id=${series.id}`);
  });

  it('asks before leaving with unsaved changes; "Save and leave" saves first', async () => {
    const { router, db: d, chapter } = await openExisting();
    typeAtEnd(' Last line.');
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByText('You have unsaved changes. Save before leaving?')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/chapter-editor');
    fireEvent.click(screen.getByRole('button', { name: 'Save and leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/series'));
    expect((await d.chapters.get(chapter.id))?.content).toBe('The river ran cold. Last line.');
  });

  it('"Save and leave" on a new chapter creates it, then leaves', async () => {
    const seeded = await seedDb();
    db = seeded.db;
    const { router } = renderEditor(seeded.db, editorPath({ ...seeded, chapter: null }));
    await screen.findByTestId('chapter-content', {}, { timeout: 5000 });
    fireEvent.change(screen.getByRole('textbox', { name: 'Chapter title' }), { target: { value: 'Cinders' } });
    typeAtEnd('Ash on the wind.');
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Save and leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/series'));
    expect(router.state.location.search).toBe(`?id=${seeded.series.id}`);
    const titles = (await seeded.db.chapters.toArray()).map((c) => c.title).sort();
    expect(titles).toEqual(['Cinders', 'Lanterns']);
  });

  it('"Leave without saving" leaves the words as a draft', async () => {
    const { router, db: d, chapter } = await openExisting();
    typeAtEnd(' Kept as a draft.');
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Leave without saving' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/series'));
    expect(await d.outbox.count()).toBe(0);
    expect((await d.drafts.get(chapter.id))?.content).toBe('The river ran cold. Kept as a draft.');
  });
});

describe('conflict copies', () => {
  async function withConflict() {
    const seeded = await seedDb({ content: 'Shared opening.\nMine wins here.', wordCount: 5 });
    db = seeded.db;
    const conflict: ChapterConflict = {
      id: newId(),
      rev: 9,
      createdAt: '2026-03-01T10:00:00.000Z',
      updatedAt: '2026-03-01T10:00:00.000Z',
      deletedAt: null,
      seriesId: seeded.series.id,
      chapterId: seeded.chapter.id,
      baseRev: 2,
      title: 'Lanterns',
      content: 'Shared opening.\nTheirs was different.',
      authorId: seeded.series.ownerId,
      reason: 'conflict',
      device: 'Firefox on Android',
    };
    await seeded.db.chapterConflicts.put(conflict);
    useSession.setState({ status: 'authenticated', user: { id: seeded.series.ownerId, username: 'ursula', displayName: 'Ursula', email: null, plan: 'apprentice' }, source: 'server' });
    renderEditor(seeded.db, editorPath(seeded));
    const banner = await screen.findByTestId('conflict-banner', {}, { timeout: 5000 });
    // The author's own save from another device says which device, not "a save by You".
    expect(banner.textContent).toContain('A save by you from Firefox on Android changed the same passage');
    fireEvent.click(within(banner).getByRole('button', { name: 'Compare versions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Compare versions' });
    return { ...seeded, conflict, dialog };
  }

  it('shows both versions side by side with the differing words marked', async () => {
    const { dialog } = await withConflict();
    const left = within(dialog).getByTestId('diff-left');
    const right = within(dialog).getByTestId('diff-right');
    expect(left.textContent).toContain('Mine wins here.');
    expect(right.textContent).toContain('Theirs was different.');
    expect(left.querySelector('del')).toBeTruthy();
    expect(right.querySelector('ins')).toBeTruthy();
  });

  it('keep current text: resolves the copy, the text stays', async () => {
    const { dialog, db: d, conflict, chapter } = await withConflict();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep current text' }));
    await waitFor(() => expect(screen.queryByTestId('conflict-banner')).toBeNull());
    expect(await d.chapterConflicts.get(conflict.id)).toBeUndefined();
    const entries = await d.outbox.toArray();
    expect(entries.map((e) => [e.method, e.path])).toEqual([['DELETE', `/api/chapter-conflicts/${conflict.id}`]]);
    expect((await d.chapters.get(chapter.id))?.content).toBe('Shared opening.\nMine wins here.');
  });

  it('use conflict copy: saves its text through the update mutator, then resolves', async () => {
    const { dialog, db: d, conflict, chapter } = await withConflict();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Use conflict copy' }));
    await waitFor(() => expect(screen.queryByTestId('conflict-banner')).toBeNull());
    expect((await d.chapters.get(chapter.id))?.content).toBe('Shared opening.\nTheirs was different.');
    expect(contentView().state.doc.toString()).toBe('Shared opening.\nTheirs was different.');
    const entries = await d.outbox.toArray();
    expect(entries.map((e) => [e.method, e.path])).toEqual([
      ['PUT', `/api/chapters/${chapter.id}`],
      ['DELETE', `/api/chapter-conflicts/${conflict.id}`],
    ]);
  });

  it('edit a merge: both versions are offered in one editable text, saved, then resolved', async () => {
    const { dialog, db: d, chapter } = await withConflict();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Edit a merge' }));
    const mergeEl = await within(dialog).findByRole('textbox', { name: 'Merged text' }, { timeout: 5000 });
    const { EditorView } = await import('@codemirror/view');
    const mergeView = EditorView.findFromDOM(mergeEl)!;
    expect(mergeView.state.doc.toString()).toBe('Shared opening.\nMine wins here.\nTheirs was different.');
    act(() => {
      mergeView.dispatch({ changes: { from: mergeView.state.doc.length, insert: ' Together.' } });
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save merge' }));
    await waitFor(() => expect(screen.queryByTestId('conflict-banner')).toBeNull());
    const merged = 'Shared opening.\nMine wins here.\nTheirs was different. Together.';
    expect((await d.chapters.get(chapter.id))?.content).toBe(merged);
    expect(contentView().state.doc.toString()).toBe(merged);
    expect(screen.getByTestId('words-badge').textContent).toBe(`${countWords(merged)} words`);
  });

  it('nothing is dismissed when the author closes the comparison', async () => {
    const { dialog, db: d, conflict } = await withConflict();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Decide later' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('conflict-banner')).toBeTruthy();
    expect(await d.chapterConflicts.get(conflict.id)).toBeTruthy();
    expect(await d.outbox.count()).toBe(0);
  });
});

describe('text saved elsewhere while typing', () => {
  it('adopts it when nothing is unsaved here', async () => {
    const { db: d, chapter } = await openExisting();
    await act(() => d.chapters.put({ ...chapter, rev: chapter.rev + 5, content: 'Rewritten elsewhere.', wordCount: 2 }));
    await waitFor(() => expect(contentView().state.doc.toString()).toBe('Rewritten elsewhere.'));
    expect(saveButton().hasAttribute('disabled')).toBe(true);
  });

  it('merges paragraph by paragraph on save when different paragraphs changed', async () => {
    const { db: d, chapter } = await openExisting({ content: 'First.\nSecond.\nThird.', wordCount: 3 });
    replaceAll('First, mine.\nSecond.\nThird.');
    await act(() => d.chapters.put({ ...chapter, rev: chapter.rev + 5, content: 'First.\nSecond.\nThird, theirs.' }));
    await screen.findByText('Saved elsewhere while you were writing');
    fireEvent.click(saveButton());
    await screen.findByText('Chapter saved');
    expect(contentView().state.doc.toString()).toBe('First, mine.\nSecond.\nThird, theirs.');
    expect((await d.chapters.get(chapter.id))?.content).toBe('First, mine.\nSecond.\nThird, theirs.');
  });

  it('lets the author choose when the same paragraph changed', async () => {
    const { db: d, chapter } = await openExisting({ content: 'First.\nSecond.', wordCount: 2 });
    replaceAll('First, mine.\nSecond.');
    await act(() => d.chapters.put({ ...chapter, rev: chapter.rev + 5, content: 'First, theirs.\nSecond.' }));
    await screen.findByText('Saved elsewhere while you were writing');
    fireEvent.click(saveButton());
    const dialog = await screen.findByRole('dialog', { name: 'Compare versions' });
    expect(within(dialog).getByTestId('diff-left').textContent).toContain('mine');
    expect(within(dialog).getByTestId('diff-right').textContent).toContain('theirs');
    expect(await d.outbox.count()).toBe(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep my text' }));
    await screen.findByText('Chapter saved');
    expect((await d.chapters.get(chapter.id))?.content).toBe('First, mine.\nSecond.');
  });
});
