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
import type { Caret } from '@/lib/caretMemory';
import { externalChange, proseExtensions, readOnlyExtension, wordCountField } from './prose-extensions';

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
  /** The caret moved (the author clicked, typed or used the keys). */
  onCaretMove?: (caret: Caret) => void;
  /**
   * Pixels at the top of the window covered by something that stays in place (the sticky toolbar):
   * a caret scrolled into view lands below it.
   */
  coveredTop?: () => number;
}


function countsOf(state: EditorState): TextCounts {
  return { words: state.field(wordCountField), chars: state.doc.length };
}

/** The smallest single replacement that turns `current` into `next`. */
export function minimalChange(current: string, next: string): { from: number; to: number; insert: string } | null {
  if (current === next) return null;
  let start = 0;
  const max = Math.min(current.length, next.length);
  while (start < max && current.charCodeAt(start) === next.charCodeAt(start)) start++;
  let endA = current.length;
  let endB = next.length;
  while (endA > start && endB > start && current.charCodeAt(endA - 1) === next.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  return { from: start, to: endA, insert: next.slice(start, endB) };
}

/** Bottom room kept below a caret scrolled into view (a line and a half of prose). */
const CARET_ROOM_BELOW = 48;

export function ProseEditor(props: ProseEditorProps) {
  const { initialText, label, placeholder, readOnly = false, handle, className, initialCaret = null } = props;
  const host = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const readOnlyCompartment = useRef(new Compartment());
  const initial = useRef({ initialText, label, placeholder, readOnly, initialCaret });

  useEffect(() => {
    if (!host.current) return undefined;
    const { initialText: text, label: ariaLabel, placeholder: hint, readOnly: ro, initialCaret: caret } = initial.current;
    const clamp = (pos: number) => Math.max(0, Math.min(pos, text.length));
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
              }
            }),
          }),
          EditorView.scrollMargins.of(() => ({ top: latest.current.coveredTop?.() ?? 0, bottom: CARET_ROOM_BELOW })),
        ],
      }),
    });
    viewRef.current = view;
    if (caret) view.dispatch({ effects: EditorView.scrollIntoView(clamp(caret.head), { y: 'center' }) });
    return () => {
      view.destroy();
      viewRef.current = null;
    };
  }, []);

  useEffect(() => {
    viewRef.current?.dispatch({ effects: readOnlyCompartment.current.reconfigure(readOnlyExtension(readOnly)) });
  }, [readOnly]);

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
