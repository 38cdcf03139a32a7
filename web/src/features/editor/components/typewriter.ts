/**
 * Typewriter scrolling for focus mode (docs/web.md#the-chapter-editor): while the author
 * types, deletes, undoes or moves the caret with the keys, the caret's line is kept at the middle of
 * the window, so the eyes stay at one height. A click is left where it lands (jumping the page away
 * from the pointer would lose the author's place). The prose theme's 40vh of room below the text
 * lets the last line reach the middle too.
 */
import { EditorState, type Extension, type Transaction } from '@codemirror/state';
import { EditorView } from '@codemirror/view';

const KEPT_IN_MIDDLE = ['input', 'delete', 'undo', 'redo', 'move'] as const;

function keepsCaretInMiddle(tr: Transaction): boolean {
  if (tr.isUserEvent('select.pointer')) return false;
  if (tr.isUserEvent('select')) return true;
  return tr.docChanged && KEPT_IN_MIDDLE.some((event) => tr.isUserEvent(event));
}

/** The extension: an explicit scroll of each such transaction, which wins over CodeMirror's "nearest" scroll. */
export function typewriterScrolling(): Extension {
  return EditorState.transactionExtender.of((tr) =>
    keepsCaretInMiddle(tr) ? { effects: EditorView.scrollIntoView(tr.newSelection.main.head, { y: 'center' }) } : null,
  );
}
