import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { EDITOR_SELECT_PARAM } from '@/lib/chapterEditorPath';
import { contentView, editorPath, renderEditor, seedDb } from './test-utils';

// jsdom lays nothing out: CodeMirror measures a selected range's rectangles on the next frame.
const emptyRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
Range.prototype.getClientRects ??= emptyRects;
Range.prototype.getBoundingClientRect ??= () => new DOMRect();

describe('finding in the chapter', () => {
  it('Ctrl+F opens find and replace, with match case and whole word', async () => {
    const seeded = await seedDb({ content: 'The river ran cold. The river ran on.' });
    renderEditor(seeded.db, editorPath(seeded));
    await waitFor(() => contentView());
    fireEvent.keyDown(window, { key: 'f', ctrlKey: true });
    const find = await screen.findByRole('textbox', { name: 'Find' });
    expect(find).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Match case' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Whole word' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Replace with' })).toBeTruthy();
  });

  it('opens at a search hit with the hit selected', async () => {
    const seeded = await seedDb({ content: 'The river ran *cold*. The river ran on.' });
    const at = seeded.chapter.content.indexOf('*cold*');
    renderEditor(seeded.db, `${editorPath(seeded)}&${EDITOR_SELECT_PARAM}=${at}-${at + 6}`);
    await waitFor(() => contentView());
    const { from, to } = contentView().state.selection.main;
    expect(seeded.chapter.content.slice(from, to)).toBe('*cold*');
    expect(contentView().hasFocus).toBe(true);
  });
});
