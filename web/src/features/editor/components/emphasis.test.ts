import { afterEach, describe, expect, it } from 'vitest';
import { undo } from '@codemirror/commands';
import { Compartment, EditorSelection, EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { caretMarks, toggleMark } from './emphasis';
import { proseExtensions } from './prose-extensions';

let view: EditorView | null = null;
afterEach(() => {
  view?.destroy();
  view = null;
});

function editor(doc: string, anchor: number, head = anchor): EditorView {
  const setup = { placeholderText: '', label: 'Chapter content', readOnly: new Compartment(), initiallyReadOnly: false, onUpdate: [] };
  view = new EditorView({
    parent: document.body,
    state: EditorState.create({ doc, selection: EditorSelection.single(anchor, head), extensions: proseExtensions(setup) }),
  });
  return view;
}

describe('emphasis in the editor', () => {
  it('italicises the word at the caret in one undo step, the caret staying in the word', () => {
    const v = editor('The ship left.', 6);
    expect(toggleMark('italic')(v)).toBe(true);
    expect(v.state.doc.toString()).toBe('The *ship* left.');
    expect(v.state.selection.main.head).toBe(7);
    expect(caretMarks(v.state)).toEqual({ italic: true, bold: false });
    undo(v);
    expect(v.state.doc.toString()).toBe('The ship left.');
  });

  it('bolds a selection and toggles it off again, keeping the selection on the words', () => {
    const v = editor('The ship left.', 4, 13);
    toggleMark('bold')(v);
    expect(v.state.doc.toString()).toBe('The **ship left**.');
    expect(v.state.sliceDoc(v.state.selection.main.from, v.state.selection.main.to)).toBe('ship left');
    toggleMark('bold')(v);
    expect(v.state.doc.toString()).toBe('The ship left.');
  });

  it('does nothing in a read-only editor', () => {
    const v = editor('The ship left.', 6);
    const readOnly = EditorState.create({ doc: 'x', extensions: EditorState.readOnly.of(true) });
    v.setState(readOnly);
    expect(toggleMark('italic')(v)).toBe(false);
  });

  it('draws emphasis as <em>/<strong>, hides markers away from the caret and dims them, aria-hidden, on its line', () => {
    const v = editor('A *ship* and **gold**.\n\nThe caret line.', 24);
    const content = v.contentDOM;
    expect(content.querySelector('em')?.textContent).toBe('ship');
    expect(content.querySelector('strong')?.textContent).toBe('gold');
    // Away from the caret the first line reads as printed: no marker is drawn.
    expect(content.querySelector('.cm-line')?.textContent).toBe('A ship and gold.');
    v.dispatch({ selection: { anchor: 3 } });
    const markers = [...content.querySelectorAll('.cm-markup-marker')];
    expect(markers.map((m) => m.textContent)).toEqual(['*', '*', '**', '**']);
    expect(markers.every((m) => m.getAttribute('aria-hidden') === 'true')).toBe(true);
  });
});
