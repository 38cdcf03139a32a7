/**
 * The CodeMirror 6 setup of the chapter editor: prose with emphasis (emphasis.ts, clipboard.ts;
 * docs/decisions/0009-chapter-markup.md), no gutters. History, line wrapping, a placeholder, the
 * default and history keymaps, the incremental word count and a theme drawn from Mantine's CSS
 * variables (so all four themes apply).
 */
import { cursorDocStart, history, historyKeymap, insertNewline, selectAll, standardKeymap } from '@codemirror/commands';
import { Annotation, type Compartment, EditorState, type Extension, StateField } from '@codemirror/state';
import { EditorView, type KeyBinding, keymap, placeholder } from '@codemirror/view';
import { search, searchKeymap } from '@codemirror/search';
import { countDocWords, recountWords } from '../model/word-count';
import { clipboard } from './clipboard';
import { EMPHASIS_KEYMAP, emphasis } from './emphasis';

/** Marks a transaction that did not come from the author's keyboard (a restore, a synced text). */
export const externalChange = Annotation.define<boolean>();

/** The word count of the document, kept up to date line by line. */
export const wordCountField = StateField.define<number>({
  create: (state) => countDocWords(state.doc),
  update: (value, tr) => (tr.docChanged ? recountWords(value, tr.startState.doc, tr.newDoc, tr.changes) : value),
});

export const proseTheme = EditorView.theme({
  '&': {
    color: 'var(--mantine-color-text)',
    backgroundColor: 'transparent',
    fontSize: 'var(--editor-font-size, 1.125rem)',
  },
  '&.cm-focused': { outline: 'none' },
  '.cm-scroller': {
    fontFamily: 'var(--editor-font-family, Georgia, "Iowan Old Style", "Palatino Linotype", Palatino, "Times New Roman", serif)',
    lineHeight: '1.75',
    overflow: 'auto',
  },
  '.cm-content': {
    padding: 'var(--mantine-spacing-lg) var(--mantine-spacing-xl) 40vh',
    caretColor: 'var(--mantine-primary-color-filled)',
    maxWidth: '46rem',
    margin: '0 auto',
  },
  '.cm-line': { padding: '0' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--mantine-primary-color-filled)', borderLeftWidth: '2px' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection': {
    backgroundColor: 'var(--mantine-primary-color-light) !important',
  },
  '.cm-placeholder': { color: 'var(--mantine-color-placeholder)', fontStyle: 'italic' },
  // Find and replace (Ctrl/Cmd+F): CodeMirror's panel in the app's colours and controls.
  '.cm-panels': { backgroundColor: 'var(--mantine-color-body)', color: 'var(--mantine-color-text)', zIndex: '3' },
  '.cm-panels.cm-panels-top': { borderBottom: '1px solid var(--mantine-color-default-border)' },
  '.cm-panel.cm-search': {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: '6px',
    padding: 'var(--mantine-spacing-xs) var(--mantine-spacing-md)',
    fontFamily: 'var(--mantine-font-family)',
    fontSize: 'var(--mantine-font-size-sm)',
  },
  '.cm-panel.cm-search br': { flexBasis: '100%', height: 0 },
  '.cm-panel.cm-search .cm-textfield': {
    fontSize: 'var(--mantine-font-size-sm)',
    padding: '4px 8px',
    borderRadius: 'var(--mantine-radius-sm)',
    border: '1px solid var(--mantine-color-default-border)',
    backgroundColor: 'var(--mantine-color-default)',
    color: 'var(--mantine-color-text)',
    minWidth: '12rem',
  },
  '.cm-panel.cm-search .cm-textfield:focus': { outline: '2px solid var(--mantine-primary-color-filled)', outlineOffset: '-1px' },
  '.cm-panel.cm-search .cm-button': {
    backgroundImage: 'none',
    backgroundColor: 'var(--mantine-color-default)',
    border: '1px solid var(--mantine-color-default-border)',
    borderRadius: 'var(--mantine-radius-sm)',
    color: 'var(--mantine-color-text)',
    padding: '3px 10px',
    fontSize: 'var(--mantine-font-size-sm)',
    cursor: 'pointer',
  },
  '.cm-panel.cm-search .cm-button:hover': { backgroundColor: 'var(--mantine-color-default-hover)' },
  '.cm-panel.cm-search label': { display: 'inline-flex', alignItems: 'center', gap: '4px', fontSize: 'var(--mantine-font-size-sm)' },
  '.cm-panel.cm-search [name=close]': { position: 'static', marginLeft: 'auto', fontSize: '1.25rem', color: 'var(--mantine-color-dimmed)', cursor: 'pointer' },
  '.cm-searchMatch': { backgroundColor: 'var(--mantine-color-yellow-light)', borderRadius: '2px' },
  '.cm-searchMatch.cm-searchMatch-selected': { backgroundColor: 'var(--mantine-primary-color-light)', outline: '1px solid var(--mantine-primary-color-filled)' },
});

/** The find panel's words, as the app writes its buttons (CodeMirror's are lower case). */
const FIND_PHRASES = EditorState.phrases.of({
  Find: 'Find',
  Replace: 'Replace with',
  next: 'Next',
  previous: 'Previous',
  all: 'All',
  'match case': 'Match case',
  'by word': 'Whole word',
  regexp: 'Regular expression',
  replace: 'Replace',
  'replace all': 'Replace all',
  close: 'Close find',
});

/**
 * The standard editing keys, undo/redo and select-all; Enter inserts a plain line break (no
 * code-style indentation, which would also pull in CodeMirror's language package).
 */
const PROSE_KEYMAP: KeyBinding[] = [
  { key: 'Enter', run: insertNewline },
  { key: 'Mod-Home', run: toChapterStart },
  { key: 'Mod-a', run: selectAll },
  ...EMPHASIS_KEYMAP,
  ...standardKeymap.filter((binding) => binding.key !== 'Enter'),
  ...historyKeymap,
  // Find and replace within the chapter (Ctrl/Cmd+F, F3, Ctrl/Cmd+G …); not Ctrl/Cmd+D, which adds a caret per match.
  ...searchKeymap.filter((binding) => binding.key !== 'Mod-d'),
];

/**
 * Ctrl/Cmd+Home: the caret to the start, and where the page is the scroller, the page to its top,
 * so the chapter's title is in view too, not only the first line.
 */
function toChapterStart(view: EditorView): boolean {
  cursorDocStart(view);
  const scrollsItself = view.scrollDOM.scrollHeight > view.scrollDOM.clientHeight + 2;
  if (!scrollsItself) view.dom.ownerDocument.defaultView?.scrollTo({ top: 0 });
  return true;
}

export interface ProseSetup {
  placeholderText: string;
  label: string;
  readOnly: Compartment;
  initiallyReadOnly: boolean;
  onUpdate: Extension;
}

export function proseExtensions(setup: ProseSetup): Extension[] {
  return [
    history(),
    search({ top: true }),
    FIND_PHRASES,
    keymap.of(PROSE_KEYMAP),
    EditorView.lineWrapping,
    placeholder(setup.placeholderText),
    EditorView.contentAttributes.of({
      'aria-label': setup.label,
      'aria-multiline': 'true',
      spellcheck: 'true',
      autocapitalize: 'sentences',
      'data-testid': 'chapter-content',
    }),
    setup.readOnly.of(readOnlyExtension(setup.initiallyReadOnly)),
    wordCountField,
    emphasis(),
    clipboard(),
    proseTheme,
    setup.onUpdate,
  ];
}

export function readOnlyExtension(readOnly: boolean): Extension {
  return [EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)];
}
