/**
 * The writing area: a CodeMirror 6 view (docs/measurements.md#before-the-code — it renders only the
 * visible lines, so a 20,000-word chapter types as fast as an empty one, where a <textarea> took
 * 29 ms a keystroke).
 *
 * The chapter editor's view grows with its text and the page is the one scroller: CodeMirror
 * follows the window's scroll to draw what is visible (docs/decisions/0001-editor-scrolls-with-the-page.md).
 * A view in a box of fixed height (the merge editor) scrolls itself: give it a class with a height.
 *
 * Uncontrolled: the document lives in CodeMirror, never in React state. The parent reads it with
 * the handle (`getText`) when it needs it (a draft, a save) and hears about every change through
 * `onChange` with the counts, which CodeMirror keeps incrementally.
 */
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import { Compartment, EditorState, type Transaction } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { openSearchPanel } from '@codemirror/search';
import type { Caret } from '@/lib/caretMemory';
import { minimalChange } from '../model/minimal-change';
import type { EmphasisMark } from '@chronicler/schema';
import { type CaretMarks, NO_MARKS, caretMarks, toggleMark } from './emphasis';
import { externalChange, proseExtensions, readOnlyExtension, wordCountField } from './prose-extensions';
import { typewriterScrolling } from './typewriter';

export interface TextCounts {
  words: number;
  chars: number;
}

export interface ProseEditorHandle {
  getText(): string;
  /** Replaces the text (only the part that differs, so the caret stays put where it can). */
  setText(text: string): void;
  focus(): void;
  counts(): TextCounts;
  /** Toggles italic or bold over the selection or the word at the caret (the toolbar's buttons). */
  toggleMark(mark: EmphasisMark): void;
  /** Opens the find (and replace) panel, with the selection as its query (Ctrl/Cmd+F from outside the text). */
  openFind(): void;
  /** Scrolls the caret's line to the middle of the visible text and focuses the text (focus mode's entry). */
  centerCaret(): void;
  readonly view: EditorView | null;
}

export interface ProseEditorProps {
  initialText: string;
  label: string;
  placeholder: string;
  readOnly?: boolean;
  /** Every document change; `external` for `setText` (not the author typing). */
  onChange: (counts: TextCounts, external: boolean) => void;
  handle?: Ref<ProseEditorHandle>;
  className?: string;
  /** Where the caret starts (clamped to the text), scrolled into view. */
  initialCaret?: Caret | null;
  /** Take the focus when made (opened at a search hit: the selection shows, and typing replaces it). */
  autoFocus?: boolean;
  /** The caret moved (the author clicked, typed or used the keys). */
  onCaretMove?: (caret: Caret) => void;
  /** The emphasis at the caret changed (the toolbar's pressed buttons); called only on a change. */
  onCaretMarks?: (marks: CaretMarks) => void;
  /**
   * Pixels at the top of the window covered by something that stays in place (the sticky toolbar):
   * a caret scrolled into view lands below it.
   */
  coveredTop?: () => number;
  /** Typewriter scrolling: the line being typed stays at the middle of the window (focus mode). */
  typewriter?: boolean;
}


function countsOf(state: EditorState): TextCounts {
  return { words: state.field(wordCountField), chars: state.doc.length };
}

/** Bottom room kept below a caret scrolled into view (a line and a half of prose). */
const CARET_ROOM_BELOW = 48;

export function ProseEditor(props: ProseEditorProps) {
  const { initialText, label, placeholder, readOnly = false, handle, className, initialCaret = null, typewriter = false } = props;
  const host = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const readOnlyCompartment = useRef(new Compartment());
  const typewriterCompartment = useRef(new Compartment());
  const initial = useRef({ initialText, label, placeholder, readOnly, initialCaret, typewriter, autoFocus: props.autoFocus ?? false });

  useEffect(() => {
    if (!host.current) return undefined;
    const { initialText: text, label: ariaLabel, placeholder: hint, readOnly: ro, initialCaret: caret } = initial.current;
    const clamp = (pos: number) => Math.max(0, Math.min(pos, text.length));
    let shownMarks: CaretMarks = NO_MARKS;
    const view = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: text,
        ...(caret ? { selection: { anchor: clamp(caret.anchor), head: clamp(caret.head) } } : {}),
        extensions: [
          proseExtensions({
            placeholderText: hint,
            label: ariaLabel,
            readOnly: readOnlyCompartment.current,
            initiallyReadOnly: ro,
            onUpdate: EditorView.updateListener.of((update) => {
              if (update.docChanged) {
                const external = update.transactions.every((tr: Transaction) => tr.annotation(externalChange) === true);
                latest.current.onChange(countsOf(update.state), external);
              }
              if (update.selectionSet || update.docChanged) {
                const { anchor, head } = update.state.selection.main;
                latest.current.onCaretMove?.({ anchor, head });
                const onCaretMarks = latest.current.onCaretMarks;
                if (onCaretMarks) {
                  const marks = caretMarks(update.state);
                  if (marks.italic !== shownMarks.italic || marks.bold !== shownMarks.bold) {
                    shownMarks = marks;
                    onCaretMarks(marks);
                  }
                }
              }
            }),
          }),
          EditorView.scrollMargins.of(() => ({ top: latest.current.coveredTop?.() ?? 0, bottom: CARET_ROOM_BELOW })),
          typewriterCompartment.current.of(initial.current.typewriter ? typewriterScrolling() : []),
        ],
      }),
    });
    viewRef.current = view;
    shownMarks = caretMarks(view.state);
    if (shownMarks !== NO_MARKS) latest.current.onCaretMarks?.(shownMarks);
    if (caret) view.dispatch({ effects: EditorView.scrollIntoView(clamp(caret.head), { y: 'center' }) });
    if (initial.current.autoFocus) view.focus();
    return () => {
      view.destroy();
      viewRef.current = null;
    };
  }, []);

  useEffect(() => {
    viewRef.current?.dispatch({ effects: readOnlyCompartment.current.reconfigure(readOnlyExtension(readOnly)) });
  }, [readOnly]);

  useEffect(() => {
    viewRef.current?.dispatch({ effects: typewriterCompartment.current.reconfigure(typewriter ? typewriterScrolling() : []) });
  }, [typewriter]);

  useImperativeHandle(
    handle,
    () => ({
      // Before the view exists (it is made after the handle), its text is the initial text.
      getText: () => viewRef.current?.state.doc.toString() ?? initial.current.initialText,
      setText: (text: string) => {
        const view = viewRef.current;
        if (!view) return;
        const change = minimalChange(view.state.doc.toString(), text);
        if (!change) return;
        view.dispatch({ changes: change, annotations: externalChange.of(true) });
      },
      focus: () => viewRef.current?.focus(),
      toggleMark: (mark: EmphasisMark) => {
        const view = viewRef.current;
        if (!view) return;
        toggleMark(mark)(view);
        view.focus();
      },
      openFind: () => {
        if (viewRef.current) openSearchPanel(viewRef.current);
      },
      centerCaret: () => {
        const view = viewRef.current;
        if (!view) return;
        view.dispatch({ effects: EditorView.scrollIntoView(view.state.selection.main.head, { y: 'center' }) });
        view.focus();
      },
      counts: () => (viewRef.current ? countsOf(viewRef.current.state) : { words: 0, chars: 0 }),
      get view() {
        return viewRef.current;
      },
    }),
    [],
  );

  return <div ref={host} className={className} data-testid="prose-editor" />;
}

export default ProseEditor;
