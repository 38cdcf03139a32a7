/**
 * Copy, cut and paste in the writing area keep emphasis and nothing else
 * (docs/web.md#emphasis-in-the-editor; the markup: docs/decisions/0009-chapter-markup.md):
 *
 * - Copy and cut put the marked text on the clipboard as plain text (what CodeMirror puts there)
 *   and as HTML with <em>/<strong>, so a word processor pastes the emphasis and a paste back into a
 *   chapter keeps it.
 * - A paste with HTML (a word processor, a web page) is read by model/html-paste: italic and bold
 *   kept, no HTML reaching the page. A large one is read in slices between other tasks; the place it
 *   goes is tracked through whatever the author types meanwhile.
 * - A plain-text paste is escaped: its asterisks stay asterisks.
 */
import { type EditorState, type Extension, StateEffect, StateField } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { plainToMarkup } from '@chronicler/schema';
import { SLICE_CHARS, htmlToMarkup, htmlToMarkupInSlices } from '../model/html-paste';
import { markupToHtml } from '../model/markup-html';

interface PendingPaste {
  readonly id: number;
  readonly from: number;
  readonly to: number;
}

const addPending = StateEffect.define<PendingPaste>();
const removePending = StateEffect.define<number>();

/** Pastes being read, each with the range it replaces, mapped through later changes. */
const pendingPastes = StateField.define<readonly PendingPaste[]>({
  create: () => [],
  update(pastes, tr) {
    let next = tr.docChanged ? pastes.map((p) => ({ id: p.id, from: tr.changes.mapPos(p.from, -1), to: tr.changes.mapPos(p.to, 1) })) : pastes;
    for (const effect of tr.effects) {
      if (effect.is(addPending)) next = [...next, effect.value];
      if (effect.is(removePending)) next = next.filter((p) => p.id !== effect.value);
    }
    return next;
  },
});

let pasteIds = 0;

function insertPasted(view: EditorView, text: string, from: number, to: number): void {
  view.dispatch({
    changes: { from, to, insert: text },
    selection: { anchor: from + text.length },
    userEvent: 'input.paste',
    scrollIntoView: true,
  });
}

function selectedText(state: EditorState): string {
  return state.selection.ranges
    .filter((range) => !range.empty)
    .map((range) => state.sliceDoc(range.from, range.to))
    .join(state.lineBreak);
}

const clipboardHandlers = EditorView.domEventHandlers({
  copy(event, view) {
    return copyOrCut(event, view, false);
  },
  cut(event, view) {
    return copyOrCut(event, view, true);
  },
  paste(event, view) {
    const data = event.clipboardData;
    if (!data || view.state.readOnly) return false;
    const html = data.getData('text/html');
    const plain = data.getData('text/plain');
    if (html === '' && plain === '') return false;
    event.preventDefault();
    const { from, to } = view.state.selection.main;
    if (html === '') {
      insertPasted(view, plainToMarkup(plain.replace(/\r\n?/gu, '\n')), from, to);
      return true;
    }
    if (html.length <= SLICE_CHARS) {
      insertPasted(view, htmlToMarkup(html), from, to);
      return true;
    }
    const id = ++pasteIds;
    view.dispatch({ effects: addPending.of({ id, from, to }) });
    void htmlToMarkupInSlices(html).then((text) => {
      const pending = view.state.field(pendingPastes, false)?.find((p) => p.id === id);
      // The editor closed meanwhile (the author left the chapter): nothing to paste into.
      if (!pending || !view.dom.isConnected) return;
      view.dispatch({ effects: removePending.of(id) });
      insertPasted(view, text, pending.from, pending.to);
    });
    return true;
  },
});

function copyOrCut(event: ClipboardEvent, view: EditorView, cut: boolean): boolean {
  const text = selectedText(view.state);
  // An empty selection: CodeMirror's own copy (the whole line) applies.
  if (text === '' || !event.clipboardData) return false;
  event.preventDefault();
  event.clipboardData.clearData();
  event.clipboardData.setData('text/plain', text);
  event.clipboardData.setData('text/html', markupToHtml(text));
  if (cut && !view.state.readOnly) {
    view.dispatch(view.state.replaceSelection(''), { userEvent: 'delete.cut', scrollIntoView: true });
  }
  return true;
}

export function clipboard(): Extension {
  return [pendingPastes, clipboardHandlers];
}
