/**
 * Emphasis in the writing area (docs/web.md#emphasis-in-the-editor; the markup:
 * docs/decisions/0009-chapter-markup.md). Part of every ProseEditor:
 *
 * - Italic and bold are drawn as they will print: the text between markers is wrapped in <em> and
 *   <strong> (real italic and bold faces of the editor's font).
 * - Markers are dimmed on the lines that hold a selection or the caret, and hidden elsewhere
 *   (replace decorations: not drawn, not read), so a page reads as printed while the line being
 *   edited shows what the caret moves over. A screen reader reads the words, never the markers:
 *   dimmed markers are aria-hidden.
 * - Only the lines in the viewport are decorated, and a line's segments are remembered by its
 *   text, so a keystroke re-reads one paragraph whatever the chapter's length.
 * - Ctrl/Cmd+I and Ctrl/Cmd+B (and the toolbar's buttons, and a platform's own format commands)
 *   toggle the selection or the word at the caret: one transaction, so one undo step.
 */
import { EditorSelection, type EditorState, type Extension, RangeSetBuilder } from '@codemirror/state';
import { type Command, Decoration, type DecorationSet, EditorView, type KeyBinding, ViewPlugin, type ViewUpdate } from '@codemirror/view';
import { type EmphasisMark, type Segment, marksAt, mayHoldMarkup, segmentParagraph, toggleEmphasis } from '@chronicler/schema';
import { minimalChange } from '../model/minimal-change';

export interface CaretMarks {
  italic: boolean;
  bold: boolean;
}

export const NO_MARKS: CaretMarks = { italic: false, bold: false };

const italicText = Decoration.mark({ tagName: 'em', class: 'cm-emphasis-italic' });
const boldText = Decoration.mark({ tagName: 'strong', class: 'cm-emphasis-bold' });
const shownMarker = Decoration.mark({ class: 'cm-markup-marker', attributes: { 'aria-hidden': 'true' } });
const hiddenMarker = Decoration.replace({});

/** Segments of recently seen lines, by their text (a line retyped is read again; the rest are not). */
const segmentsByLine = new Map<string, Segment[]>();
const MAX_REMEMBERED_LINES = 2000;

function segmentsOf(line: string): Segment[] {
  let segments = segmentsByLine.get(line);
  if (segments === undefined) {
    segments = segmentParagraph(line);
    if (segmentsByLine.size >= MAX_REMEMBERED_LINES) segmentsByLine.clear();
    segmentsByLine.set(line, segments);
  }
  return segments;
}

/** The line numbers [first, last] of every selection range: where markers stay visible. */
function editedLines(state: EditorState): number[] {
  const lines: number[] = [];
  for (const range of state.selection.ranges) lines.push(state.doc.lineAt(range.from).number, state.doc.lineAt(range.to).number);
  return lines;
}

function sameLines(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}

function isEdited(edited: readonly number[], line: number): boolean {
  for (let i = 0; i < edited.length; i += 2) if (line >= edited[i]! && line <= edited[i + 1]!) return true;
  return false;
}

function decorate(view: EditorView, edited: readonly number[]): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  const { doc } = view.state;
  let lastLine = 0;
  for (const { from, to } of view.visibleRanges) {
    for (let pos = from; pos <= to; ) {
      const line = doc.lineAt(pos);
      pos = line.to + 1;
      if (line.number <= lastLine) continue;
      lastLine = line.number;
      if (!mayHoldMarkup(line.text)) continue;
      const markers = isEdited(edited, line.number) ? shownMarker : hiddenMarker;
      for (const segment of segmentsOf(line.text)) {
        const start = line.from + segment.from;
        const end = line.from + segment.to;
        if (segment.kind !== 'text') builder.add(start, end, markers);
        else {
          if (segment.bold) builder.add(start, end, boldText);
          if (segment.italic) builder.add(start, end, italicText);
        }
      }
    }
  }
  return builder.finish();
}

const emphasisDecorations = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    edited: number[];

    constructor(view: EditorView) {
      this.edited = editedLines(view.state);
      this.decorations = decorate(view, this.edited);
    }

    update(update: ViewUpdate) {
      const edited = update.selectionSet || update.docChanged ? editedLines(update.state) : this.edited;
      if (update.docChanged || update.viewportChanged || !sameLines(edited, this.edited)) {
        this.edited = edited;
        this.decorations = decorate(update.view, edited);
      }
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

/** Toggles `mark` over the main selection, or the word at the caret: one change, one undo step. */
export function toggleMark(mark: EmphasisMark): Command {
  return (target) => {
    const { state } = target;
    if (state.readOnly) return false;
    const { anchor, head, from, to } = state.selection.main;
    const first = state.doc.lineAt(from);
    const last = state.doc.lineAt(to);
    const text = state.doc.sliceString(first.from, last.to);
    const edit = toggleEmphasis(text, from - first.from, to - first.from, mark);
    // Only the characters that change: highlights and carets elsewhere on those lines stay put.
    const change = minimalChange(text.slice(edit.from, edit.to), edit.insert);
    const offset = first.from + edit.from;
    const [selFrom, selTo] = [first.from + edit.selectionFrom, first.from + edit.selectionTo];
    target.dispatch(
      state.update({
        ...(change ? { changes: { from: offset + change.from, to: offset + change.to, insert: change.insert } } : {}),
        selection: anchor > head ? EditorSelection.single(selTo, selFrom) : EditorSelection.single(selFrom, selTo),
        userEvent: 'input.format',
        scrollIntoView: true,
      }),
    );
    return true;
  };
}

/** The marks in force at the main selection's head (the toolbar's pressed state). */
export function caretMarks(state: EditorState): CaretMarks {
  const head = state.selection.main.head;
  const line = state.doc.lineAt(head);
  if (!mayHoldMarkup(line.text)) return NO_MARKS;
  return marksAt(line.text, head - line.from);
}

export const EMPHASIS_KEYMAP: KeyBinding[] = [
  { key: 'Mod-i', run: toggleMark('italic'), preventDefault: true },
  { key: 'Mod-b', run: toggleMark('bold'), preventDefault: true },
];

/** A platform's own format commands (a phone keyboard's B/I, the macOS Format menu) toggle the markup, never the DOM. */
const formatInput = EditorView.domEventHandlers({
  beforeinput(event, view) {
    const mark = event.inputType === 'formatItalic' ? 'italic' : event.inputType === 'formatBold' ? 'bold' : null;
    if (mark === null) return false;
    event.preventDefault();
    toggleMark(mark)(view);
    return true;
  },
});

const emphasisTheme = EditorView.baseTheme({
  '.cm-emphasis-italic': { fontStyle: 'italic' },
  '.cm-emphasis-bold': { fontWeight: '700' },
  '.cm-markup-marker': { opacity: '0.45', fontStyle: 'normal', fontWeight: 'normal' },
});

/** Drawing and the input side of emphasis (the keymap is part of the editor's keymap). */
export function emphasis(): Extension {
  return [emphasisDecorations, formatInput, emphasisTheme];
}
