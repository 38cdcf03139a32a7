import { describe, expect, it } from 'vitest';
import { EditorSelection, EditorState, type TransactionSpec } from '@codemirror/state';
import { typewriterScrolling } from './typewriter';

const state = EditorState.create({ doc: 'One line.\nAnother line.', extensions: [typewriterScrolling()] });
const scrolls = (spec: TransactionSpec) => state.update(spec).effects.length > 0;

describe('typewriter scrolling', () => {
  it('keeps the caret in the middle while the author types, deletes, undoes or moves with the keys', () => {
    expect(scrolls({ changes: { from: 9, insert: ' More.' }, selection: { anchor: 15 }, userEvent: 'input.type' })).toBe(true);
    expect(scrolls({ changes: { from: 8, to: 9 }, userEvent: 'delete.backward' })).toBe(true);
    expect(scrolls({ changes: { from: 0, insert: 'x' }, userEvent: 'undo' })).toBe(true);
    expect(scrolls({ selection: EditorSelection.cursor(12), userEvent: 'select' })).toBe(true);
  });

  it('leaves a click where it lands, and text that did not come from the author', () => {
    expect(scrolls({ selection: EditorSelection.cursor(12), userEvent: 'select.pointer' })).toBe(false);
    expect(scrolls({ changes: { from: 0, insert: 'Synced. ' } })).toBe(false);
  });
});
