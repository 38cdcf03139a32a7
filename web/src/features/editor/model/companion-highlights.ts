/**
 * The companion's findings drawn on the chapter in CodeMirror: mark decorations that
 * follow the text as the author types, added to a live editor with `appendConfig` so the editor's
 * own setup is untouched, and cleared with an empty set.
 */
import { type Extension, StateEffect, StateField } from '@codemirror/state';
import { Decoration, type DecorationSet, EditorView } from '@codemirror/view';
import { FINDING_LABELS, type Finding } from '@chronicler/companion';

const setFindings = StateEffect.define<readonly Finding[]>();

const findingsField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    let next = marks.map(tr.changes);
    for (const effect of tr.effects) {
      if (!effect.is(setFindings)) continue;
      const length = tr.state.doc.length;
      const ranges = effect.value
        .filter((f) => f.start < f.end && f.end <= length)
        .map((f) =>
          Decoration.mark({ class: 'cm-companion-finding', attributes: { 'data-kind': f.kind, title: `${FINDING_LABELS[f.kind]}: ${f.message}` } }).range(f.start, f.end),
        );
      next = Decoration.set(ranges, true);
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

const theme = EditorView.baseTheme({
  '.cm-companion-finding': { backgroundColor: 'rgba(250, 204, 21, 0.35)', borderRadius: '2px' },
  '.cm-companion-finding[data-kind="passive"]': { backgroundColor: 'rgba(167, 139, 250, 0.35)' },
  '.cm-companion-finding[data-kind="adverb"]': { backgroundColor: 'rgba(96, 165, 250, 0.35)' },
  '.cm-companion-finding[data-kind="repeat"]': { backgroundColor: 'rgba(251, 146, 60, 0.4)' },
});

const extension: Extension = [findingsField, theme];

/** Shows `findings` on the editor (replacing any shown before); an empty list clears them. */
export function showFindings(view: EditorView, findings: readonly Finding[]): void {
  const installed = view.state.field(findingsField, false) !== undefined;
  view.dispatch({ effects: installed ? setFindings.of(findings) : [StateEffect.appendConfig.of(extension), setFindings.of(findings)] });
}

/** Selects a finding's text and scrolls it into view. */
export function revealFinding(view: EditorView, finding: Finding): void {
  const end = Math.min(finding.end, view.state.doc.length);
  view.dispatch({ selection: { anchor: Math.min(finding.start, end), head: end }, scrollIntoView: true });
  view.focus();
}

/** Inserts `text` at the caret (replacing a selection), with a space on either side where words would touch; returns the inserted range. */
export function insertAtCursor(view: EditorView, text: string): { from: number; to: number } {
  const { from, to } = view.state.selection.main;
  const before = from > 0 ? view.state.doc.sliceString(from - 1, from) : '';
  const after = view.state.doc.sliceString(to, to + 1);
  const insert = `${before && !/\s/.test(before) ? ' ' : ''}${text}${after && !/\s/.test(after) ? ' ' : ''}`;
  view.dispatch({ changes: { from, to, insert }, selection: { anchor: from + insert.length }, scrollIntoView: true });
  return { from, to: from + insert.length };
}
