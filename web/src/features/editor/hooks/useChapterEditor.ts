/**
 * The chapter editor's behaviour (spec 001 §2, §4, §5; docs/web.md#the-chapter-editor,
 * docs/sync-protocol.md#chapter-text-merge), composed from small hooks over one store and the pure
 * save planner (model/save-plan): the saved chapter (useSavedChapter), drafts (useDrafts), saving
 * (useSave), auto-save (useAutoSave) and comparing/choosing (useConflictResolution).
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { Chapter } from '@chronicler/schema';
import type { ChroniclerDb } from '@chronicler/sync-client';
import type { SyncEngine } from '@chronicler/sync-client';
import type { Mutators } from '@chronicler/sync-client';
import type { CaretMarks } from '../components/emphasis';
import type { ProseEditorHandle, TextCounts } from '../components/ProseEditor';
import type { ChapterStatus } from '../model/constants';
import { type EditorState, createEditorStore, markChanged } from './editor-store';
import { useAutoSave } from './useAutoSave';
import { useConflictResolution } from './useConflictResolution';
import { useDrafts } from './useDrafts';
import { useSave } from './useSave';
import { useSavedChapter } from './useSavedChapter';

export interface EditorDeps {
  db: ChroniclerDb;
  mutators: Mutators;
  engine?: Pick<SyncEngine, 'sync'> | null;
}

export interface EditorParams {
  /** The chapter to edit; null for a new chapter. */
  chapterId: string | null;
  bookId: string;
  /** Called after a new chapter was created locally (the screen moves to its URL). */
  onCreated?: (chapter: Chapter) => void;
}

export function useChapterEditor({ db, mutators, engine }: EditorDeps, { chapterId: openedAs, bookId, onCreated }: EditorParams) {
  const [store] = useState(() => createEditorStore(openedAs));
  const editorRef = useRef<ProseEditorHandle | null>(null);
  const shown = useStore(
    store,
    useShallow((s: EditorState) => ({
      phase: s.phase,
      loadError: s.loadError,
      chapterId: s.chapterId,
      initialText: s.initialText,
      title: s.title,
      status: s.status,
      previous: s.previous,
      saving: s.saving,
      autoSave: s.autoSave,
      lastSavedAt: s.lastSavedAt,
      offer: s.offer,
      elsewhere: s.elsewhere,
      compare: s.compare,
    })),
  );

  const drafts = useDrafts(store, editorRef, mutators, bookId);
  const { chapter, book, conflicts } = useSavedChapter(store, editorRef, { db, chapterId: shown.chapterId, bookId, discardDraft: drafts.discard });
  const save = useSave({ store, editorRef, mutators, bookId, book, discardDraft: drafts.discard, onCreated });
  const setAutoSave = useAutoSave(store, editorRef, save);
  const resolution = useConflictResolution({ store, editorRef, db, mutators, engine: engine ?? null, save });

  const setTitle = useCallback(
    (title: string) => {
      store.setState({ title });
      markChanged(store);
    },
    [store],
  );
  const setStatus = useCallback(
    (status: ChapterStatus) => {
      store.setState({ status });
      markChanged(store);
    },
    [store],
  );
  const onContentChange = useCallback(
    (counts: TextCounts, external: boolean) => {
      // One update per keystroke: the counts, and (when the author typed it) an unsaved change.
      if (external) store.setState({ words: counts.words, chars: counts.chars });
      else store.setState({ words: counts.words, chars: counts.chars, edits: store.getState().edits + 1, dirty: true });
    },
    [store],
  );
  const onCaretMarks = useCallback((caretMarks: CaretMarks) => store.setState({ caretMarks }), [store]);
  const getText = useCallback(() => editorRef.current?.getText() ?? store.getState().base.content, [store]);

  return useMemo(
    () => ({
      ...shown,
      isNew: shown.chapterId === null,
      chapter,
      book,
      conflicts,
      store,
      editorRef,
      setTitle,
      setStatus,
      setAutoSave,
      save,
      onContentChange,
      onCaretMarks,
      restoreDraft: drafts.restoreOffered,
      discardDraft: drafts.discardOffered,
      flushDraft: drafts.flush,
      ...resolution,
      getText,
    }),
    [shown, chapter, book, conflicts, store, setTitle, setStatus, setAutoSave, save, onContentChange, onCaretMarks, drafts, resolution, getText],
  );
}

export type ChapterEditorController = ReturnType<typeof useChapterEditor>;

/** Subscribes to one slice of the editor's state (the counts re-render alone on each keystroke). */
export function useEditorState<T>(controller: Pick<ChapterEditorController, 'store'>, selector: (s: EditorState) => T): T {
  return useStore(controller.store, selector);
}
