/**
 * The chapter editor's behaviour (spec 001 §2, §4, §5; docs/web.md#the-chapter-editor,
 * docs/sync-protocol.md#chapter-text-merge), composed from small hooks over one store and the pure
 * save planner (model/save-plan): the saved chapter (useSavedChapter), drafts (useDrafts), saving
 * (useSave), auto-save (useAutoSave) and comparing/choosing (useConflictResolution).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { Chapter } from '@chronicler/schema';
import type { ChroniclerDb } from '@chronicler/sync-client';
import type { SyncEngine } from '@chronicler/sync-client';
import type { Mutators } from '@chronicler/sync-client';
import type { CaretMarks } from '../components/emphasis';
import type { ProseEditorHandle, TextCounts } from '../components/ProseEditor';
import type { ChapterStatus } from '../model/constants';
import { type EditorState, type EditorStore, createEditorStore, markChanged } from './editor-store';
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
  const showCounts = useThrottledCounts(store);
  const onContentChange = useCallback(
    (counts: TextCounts, external: boolean) => {
      // The unsaved change at once (a save or a draft started in this tick sees it); the counts
      // at most every COUNTS_EVERY_MS while the author types.
      if (external) showCounts(counts, true);
      else {
        store.setState({ edits: store.getState().edits + 1, dirty: true });
        showCounts(counts, false);
      }
    },
    [store, showCounts],
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

/**
 * Typing shows new counts at most this often. Drawn on every keystroke, the count badges re-rendered
 * synchronously inside the keystroke's task: ~2.2 ms of its ~5 ms of script (bench/JOURNAL.md, "Emphasis
 * throughout, and the keystroke's profile").
 */
const COUNTS_EVERY_MS = 250;

/**
 * Shows the latest counts: the first change after a quiet spell at once, the rest of a burst of
 * typing once per COUNTS_EVERY_MS, and the last always. Text put in from outside shows at once.
 */
function useThrottledCounts(store: EditorStore) {
  const latest = useRef<TextCounts | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  return useCallback(
    (counts: TextCounts, now: boolean) => {
      const show = (shown: TextCounts) => store.setState({ words: shown.words, chars: shown.chars });
      if (now || timer.current === null) {
        show(counts);
        latest.current = null;
      } else latest.current = counts;
      if (timer.current !== null) return;
      const tick = () => {
        const pending = latest.current;
        latest.current = null;
        if (pending) {
          show(pending);
          timer.current = setTimeout(tick, COUNTS_EVERY_MS);
        } else timer.current = null;
      };
      timer.current = setTimeout(tick, COUNTS_EVERY_MS);
    },
    [store],
  );
}

export type ChapterEditorController = ReturnType<typeof useChapterEditor>;

/** Subscribes to one slice of the editor's state (the counts re-render alone on each keystroke). */
export function useEditorState<T>(controller: Pick<ChapterEditorController, 'store'>, selector: (s: EditorState) => T): T {
  return useStore(controller.store, selector);
}
