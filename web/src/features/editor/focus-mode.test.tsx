/** Focus mode in the editor screen: in and out, the counts on request, the text and caret kept. */
import { afterEach, describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ChroniclerDb } from '@chronicler/sync-client';
import { contentView, editorPath, renderEditor, seedDb, typeAtEnd } from './test-utils';

configure({ asyncUtilTimeout: 5000 });

let db: ChroniclerDb | undefined;
afterEach(() => {
  db?.close();
  db = undefined;
});

describe('focus mode', () => {
  it('shows the editor alone, the counts only on request, and Esc brings the editor back as it was', async () => {
    const seeded = await seedDb();
    db = seeded.db;
    renderEditor(seeded.db, editorPath(seeded));
    await screen.findByTestId('chapter-content', {}, { timeout: 5000 });
    const view = contentView();
    const user = userEvent.setup({ delay: null });

    await user.click(screen.getByRole('button', { name: 'Focus mode' }));
    const editorScreen = screen.getByTestId('editor-screen');
    expect(editorScreen.getAttribute('data-focus-mode')).toBe('true');
    const bar = screen.getByRole('toolbar', { name: 'Focus mode' });
    expect(screen.queryByTestId('focus-counts')).toBeNull();

    typeAtEnd(' Typed in focus mode.');
    await user.click(within(bar).getByRole('button', { name: 'Word count and save state' }));
    expect(within(bar).getByRole('button', { name: 'Word count and save state' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('focus-counts').textContent).toMatch(/\d+ words/);
    expect(screen.getByTestId('focus-save-state').textContent).toBe('Unsaved changes');

    fireEvent.keyDown(view.contentDOM, { key: 'Escape' });
    await waitFor(() => expect(editorScreen.getAttribute('data-focus-mode')).toBeNull());
    expect(screen.queryByRole('toolbar', { name: 'Focus mode' })).toBeNull();
    // The same editor: its text, caret and undo history were never unmounted.
    expect(contentView()).toBe(view);
    expect(view.state.doc.toString().endsWith(' Typed in focus mode.')).toBe(true);
  });

  it('Ctrl/Cmd+Shift+F enters and leaves; Esc taken by the find panel does not leave', async () => {
    const seeded = await seedDb();
    db = seeded.db;
    renderEditor(seeded.db, editorPath(seeded));
    await screen.findByTestId('chapter-content', {}, { timeout: 5000 });
    const editorScreen = screen.getByTestId('editor-screen');

    fireEvent.keyDown(window, { key: 'F', ctrlKey: true, shiftKey: true });
    await waitFor(() => expect(editorScreen.getAttribute('data-focus-mode')).toBe('true'));
    const taken = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
    taken.preventDefault();
    window.dispatchEvent(taken);
    expect(editorScreen.getAttribute('data-focus-mode')).toBe('true');

    fireEvent.keyDown(window, { key: 'f', metaKey: true, shiftKey: true });
    await waitFor(() => expect(editorScreen.getAttribute('data-focus-mode')).toBeNull());
  });
});
