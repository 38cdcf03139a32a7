/**
 * One open chapter's editor state, in a small store rather than React state: the hooks read and
 * write it synchronously (a save started in the same tick as a keystroke sees that keystroke), and
 * each component subscribes to the slice it shows, so typing re-renders only the counts.
 *
 * The text itself lives in CodeMirror (ProseEditor); the store holds everything around it.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Chapter, ChapterConflict } from '@chronicler/schema';
import type { CaretMarks } from '../components/emphasis';
import type { ProseEditorHandle } from '../components/ProseEditor';
import type { ChapterStatus } from '../model/constants';
import { EMPTY_VERSION, type LocalInput, type SavedVersion } from '../model/save-plan';

export type EditorPhase = 'loading' | 'ready' | 'missing' | 'error';

export interface OfferedDraft {
  draft: { title: string; content: string; updatedAt: number };
  /** The saved text changed after this draft was written (e.g. on another device). */
  olderThanSaved: boolean;
}

/** Something to compare with the current text: a conflict copy, or text saved elsewhere meanwhile. */
export type Comparand = { kind: 'conflict'; conflict: ChapterConflict } | { kind: 'elsewhere'; chapter: Chapter };

export interface EditorState {
  /** Per keystroke (only the counts subscribe to these). */
  words: number;
  chars: number;
  /** The author has input that is not saved. */
  dirty: boolean;
  /** Bumped by every change the author makes (not by text put into the editor programmatically). */
  edits: number;
  /** The emphasis at the caret (the toolbar's Italic and Bold show it pressed); set only when it changes. */
  caretMarks: CaretMarks;

  phase: EditorPhase;
  loadError: string | null;
  /** Null until a new chapter is created. */
  chapterId: string | null;
  /** The text the writing area starts with. */
  initialText: string;
  title: string;
  status: ChapterStatus;
  /** The word count of the last saved text (the change badge compares with it). */
  previous: number;
  saving: boolean;
  autoSave: boolean;
  lastSavedAt: Date | null;
  /** A draft found on opening, waiting for the author's choice (the editor is read-only meanwhile). */
  offer: OfferedDraft | null;
  /** Text saved elsewhere while the author typed here (merged on the next save). */
  elsewhere: Chapter | null;
  /** The comparison dialog's subject. */
  compare: Comparand | null;
  /** The saved state the editor's text derives from. */
  base: SavedVersion;
}

export type EditorStore = StoreApi<EditorState>;

export function createEditorStore(chapterId: string | null): EditorStore {
  return createStore<EditorState>(() => ({
    words: 0,
    chars: 0,
    dirty: false,
    edits: 0,
    caretMarks: { italic: false, bold: false },
    phase: 'loading',
    loadError: null,
    chapterId,
    initialText: '',
    title: '',
    status: 'in_progress',
    previous: 0,
    saving: false,
    autoSave: true,
    lastSavedAt: null,
    offer: null,
    elsewhere: null,
    compare: null,
    base: EMPTY_VERSION,
  }));
}

/** The author changed the title, the status or the text. */
export function markChanged(store: EditorStore): void {
  const { edits } = store.getState();
  store.setState({ edits: edits + 1, dirty: true });
}

/** What the author has in the editor now. */
export function localInput(store: EditorStore, editor: ProseEditorHandle | null): LocalInput {
  const { title, status, base } = store.getState();
  return { title, status, content: editor ? editor.getText() : base.content };
}

/**
 * Puts a saved state into the editor as its new base: its text, title and status are shown and
 * nothing is unsaved afterwards (the draft and auto-save stop on `dirty` turning false).
 */
export function adopt(store: EditorStore, editor: ProseEditorHandle | null, next: SavedVersion, extra: { words: number; savedAt?: Date }): void {
  editor?.setText(next.content);
  store.setState({
    base: next,
    title: next.title,
    status: next.status,
    previous: extra.words,
    dirty: false,
    elsewhere: null,
    ...(extra.savedAt ? { lastSavedAt: extra.savedAt } : {}),
  });
}
