/**
 * The chapter editor's behaviour (spec 001 §2, §4, §5; DESIGN.md §3 "Chapter text never loses
 * words"), apart from how it looks:
 *
 * - Loads the chapter and its book from Dexie (live), and the keystroke draft once.
 * - Every change reaches IndexedDB as a draft within DRAFT_DELAY_MS, and at once when the page is
 *   hidden or closed, whatever the auto-save setting. A draft that differs from the saved text is
 *   offered when the chapter is opened again (the editor stays read-only until the author chooses).
 * - Saving (the button, auto-save 30 s after the last change, leaving) goes through the mutators:
 *   create for a new chapter, update otherwise (the engine sends PUT with X-Base-Rev). After a
 *   successful local save the draft is cleared.
 * - While it holds unsaved input the app counts as busy (no update reload) and closing the tab
 *   warns.
 * - Text saved elsewhere while the author is typing is merged paragraph by paragraph on save; when
 *   the same paragraphs changed, the author compares and chooses. Conflict copies from the server
 *   are resolved here too (keep mine / keep theirs / a merged text), and revisions restored.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import {
  type Book,
  type Chapter,
  type ChapterConflict,
  countWordsEditor,
} from '@chronicler/schema';
import { TOASTS, withError } from '@/lib/copy/toasts';
import { registerBusyPredicate } from '@/lib/appBusy';
import { toast } from '@/lib/toast';
import type { ChroniclerDb, Draft } from '@chronicler/sync-client';
import type { SyncEngine } from '@chronicler/sync-client';
import type { Mutators } from '@chronicler/sync-client';
import { conflictsOfChapter, draftOf, getBook, getChapter, hasPendingChanges } from '@chronicler/sync-client';
import type { ProseEditorHandle, TextCounts } from '../components/ProseEditor';
import { AUTO_SAVE_DELAY_MS, type ChapterStatus, DRAFT_DELAY_MS, draftKey } from '../model/constants';
import { threeWayMerge } from '../model/text-diff';

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

/** What changes on every keystroke, kept outside React state so only the badges re-render. */
export interface LiveCounts {
  words: number;
  chars: number;
  dirty: boolean;
}

export type EditorPhase = 'loading' | 'ready' | 'missing' | 'error';

/** The saved state the editor's text was derived from. */
interface Base {
  rev: number;
  title: string;
  content: string;
  status: ChapterStatus;
}

export interface OfferedDraft {
  draft: Draft;
  /** The saved text changed after this draft was written (e.g. on another device). */
  olderThanSaved: boolean;
}

/** Something to compare with the current text: a conflict copy, or text saved elsewhere meanwhile. */
export type Comparand =
  | { kind: 'conflict'; conflict: ChapterConflict }
  | { kind: 'elsewhere'; chapter: Chapter };

export interface SaveOptions {
  auto?: boolean;
  /** No success toast (a save that is one step of another action). */
  quiet?: boolean;
  /** Saved on the way out: a new chapter does not move to its own URL first. */
  leaving?: boolean;
}

type Loaded = { ok: true; chapter: Chapter | null; book: Book | null } | { ok: false; error: string };

const PENDING_WAIT_MS = 8_000;
const NO_CONFLICTS: ChapterConflict[] = [];
/** DRAFT_DELAY_MS + this stays under a second. */
const DRAFT_IDLE_TIMEOUT_MS = 400;

function whenIdle(run: () => void): void {
  if (typeof window !== 'undefined' && typeof window.requestIdleCallback === 'function') {
    window.requestIdleCallback(run, { timeout: DRAFT_IDLE_TIMEOUT_MS });
  } else {
    run();
  }
}

export function useChapterEditor({ db, mutators, engine }: EditorDeps, { chapterId: initialChapterId, bookId, onCreated }: EditorParams) {
  const [chapterId, setChapterId] = useState<string | null>(initialChapterId);
  const chapterIdRef = useRef(chapterId);
  const store = useRef<StoreApi<LiveCounts>>(null as unknown as StoreApi<LiveCounts>);
  if (!store.current) store.current = createStore<LiveCounts>(() => ({ words: 0, chars: 0, dirty: false }));
  const live = store.current;

  const [phase, setPhase] = useState<EditorPhase>('loading');
  const [loadError, setLoadError] = useState<string | null>(null);
  const [initialText, setInitialText] = useState('');
  const [title, setTitleState] = useState('');
  const [status, setStatusState] = useState<ChapterStatus>('in_progress');
  const [previous, setPrevious] = useState(0);
  const [saving, setSaving] = useState(false);
  const [autoSave, setAutoSaveState] = useState(true);
  const [lastSavedAt, setLastSavedAt] = useState<Date | null>(null);
  const [offer, setOffer] = useState<OfferedDraft | null>(null);
  const [elsewhere, setElsewhere] = useState<Chapter | null>(null);
  const [compare, setCompare] = useState<Comparand | null>(null);

  const editorRef = useRef<ProseEditorHandle | null>(null);
  const titleRef = useRef('');
  const statusRef = useRef<ChapterStatus>('in_progress');
  const baseRef = useRef<Base>({ rev: 0, title: '', content: '', status: 'in_progress' });
  const versionRef = useRef(0);
  const savingRef = useRef(false);
  const autoSaveRef = useRef(true);
  const offerRef = useRef<OfferedDraft | null>(null);
  const elsewhereRef = useRef<Chapter | null>(null);
  const bookRef = useRef<Book | null>(null);
  const initStarted = useRef(false);
  const draftTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const autoTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const draftQueue = useRef<Promise<unknown>>(Promise.resolve());
  const keyRef = useRef(draftKey(chapterId, bookId));
  keyRef.current = draftKey(chapterId, bookId);

  // ------------------------------------------------------------------------------------------
  // Data

  const loaded = useLiveQuery<Loaded>(async () => {
    try {
      const [chapter, book] = await Promise.all([chapterId ? getChapter(db, chapterId) : Promise.resolve(undefined), getBook(db, bookId)]);
      return { ok: true, chapter: chapter ?? null, book: book && !book.deletedAt ? book : null };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }, [db, chapterId, bookId]);

  const conflicts =
    useLiveQuery(async () => (chapterId ? conflictsOfChapter(db, chapterId).catch(() => []) : []), [db, chapterId]) ?? NO_CONFLICTS;

  const chapter = loaded?.ok ? loaded.chapter : null;
  const book = loaded?.ok ? loaded.book : null;
  bookRef.current = book;

  // ------------------------------------------------------------------------------------------
  // Drafts

  const enqueue = useCallback((op: () => Promise<unknown>) => {
    const next = draftQueue.current.then(op).catch(() => undefined);
    draftQueue.current = next;
    return next;
  }, []);

  /** Writes the current title and text as the draft now (when there is unsaved input). */
  const flushDraft = useCallback(() => {
    if (draftTimer.current) {
      clearTimeout(draftTimer.current);
      draftTimer.current = null;
    }
    if (!live.getState().dirty || offerRef.current || !editorRef.current) return draftQueue.current;
    const key = keyRef.current;
    const draft = { title: titleRef.current, content: editorRef.current.getText() };
    return enqueue(() => mutators.drafts.save(key, draft));
  }, [enqueue, live, mutators]);

  const scheduleDraft = useCallback(() => {
    if (draftTimer.current) return; // the pending write will pick up this change too
    draftTimer.current = setTimeout(() => {
      // Copying a long chapter into IndexedDB takes a few milliseconds: do it between frames
      // (idle time), and at the latest DRAFT_IDLE_TIMEOUT_MS later, so typing never waits for it.
      whenIdle(() => {
        draftTimer.current = null;
        void flushDraft();
      });
    }, DRAFT_DELAY_MS);
  }, [flushDraft]);

  // ------------------------------------------------------------------------------------------
  // Saving

  const clearAutoSave = () => {
    if (autoTimer.current) clearTimeout(autoTimer.current);
    autoTimer.current = null;
  };

  const markSaved = useCallback(
    (version: number, words: number) => {
      setLastSavedAt(new Date());
      setPrevious(words);
      if (versionRef.current === version) {
        live.setState({ dirty: false });
        if (draftTimer.current) clearTimeout(draftTimer.current);
        draftTimer.current = null;
        const key = keyRef.current;
        void enqueue(() => mutators.drafts.discard(key));
      }
    },
    [enqueue, live, mutators],
  );

  const saveRef = useRef<(options?: SaveOptions) => Promise<boolean>>(async () => false);

  const scheduleAutoSave = useCallback(() => {
    clearAutoSave();
    if (!autoSaveRef.current) return;
    autoTimer.current = setTimeout(() => {
      autoTimer.current = null;
      const text = editorRef.current?.getText() ?? '';
      if (!live.getState().dirty || savingRef.current || offerRef.current) return;
      if (titleRef.current.trim() === '' || text.trim() === '') return;
      void saveRef.current({ auto: true });
    }, AUTO_SAVE_DELAY_MS);
  }, [live]);

  const markChanged = useCallback(() => {
    versionRef.current++;
    if (!live.getState().dirty) live.setState({ dirty: true });
    scheduleDraft();
    scheduleAutoSave();
  }, [live, scheduleAutoSave, scheduleDraft]);

  /** Puts a saved state into the editor as the new base (no unsaved changes afterwards). */
  const adopt = useCallback(
    (next: Base, words?: number) => {
      baseRef.current = next;
      titleRef.current = next.title;
      setTitleState(next.title);
      statusRef.current = next.status;
      setStatusState(next.status);
      editorRef.current?.setText(next.content);
      setPrevious(words ?? countWordsEditor(next.content));
      versionRef.current++;
      live.setState({ dirty: false });
      clearAutoSave();
      if (draftTimer.current) clearTimeout(draftTimer.current);
      draftTimer.current = null;
      const key = keyRef.current;
      void enqueue(() => mutators.drafts.discard(key));
    },
    [enqueue, live, mutators],
  );

  const save = useCallback(
    async ({ auto = false, quiet = false, leaving = false }: SaveOptions = {}): Promise<boolean> => {
      if (savingRef.current || offerRef.current || !editorRef.current) return false;
      let nextTitle = titleRef.current;
      if (nextTitle.trim() === '') {
        if (!auto) toast.show(TOASTS.editorTitleRequired);
        return false;
      }
      if (!bookId || !bookRef.current) {
        if (!auto) toast.show(TOASTS.editorBookRequired);
        return false;
      }
      const editor = editorRef.current;
      let content = editor.getText();
      let base = baseRef.current;

      // Saved elsewhere while the author typed here: merge, or let the author choose.
      const other = elsewhereRef.current;
      if (other) {
        const merged = threeWayMerge(base.content, content, other.content);
        if (!merged.clean) {
          if (!auto) setCompare({ kind: 'elsewhere', chapter: other });
          return false;
        }
        if (merged.text !== content) {
          editor.setText(merged.text);
          content = merged.text;
        }
        if (nextTitle === base.title && other.title !== base.title) {
          nextTitle = other.title;
          titleRef.current = nextTitle;
          setTitleState(nextTitle);
        }
        base = { rev: other.rev, title: other.title, content: other.content, status: other.status };
        baseRef.current = base;
        elsewhereRef.current = null;
        setElsewhere(null);
      }

      const version = versionRef.current;
      const nextStatus = statusRef.current;
      const words = editor.counts().words;
      savingRef.current = true;
      setSaving(true);
      // The saved state becomes the base before the write lands, so its echo is not news.
      baseRef.current = { ...base, title: nextTitle, content, status: nextStatus };
      try {
        const id = chapterIdRef.current;
        if (!id) {
          const created = await mutators.chapters.create({ bookId, title: nextTitle, content, wordCount: words, status: nextStatus });
          void enqueue(() => mutators.drafts.discard(draftKey(null, bookId)));
          chapterIdRef.current = created.id;
          keyRef.current = created.id;
          baseRef.current = { rev: created.rev, title: created.title, content: created.content, status: created.status };
          setChapterId(created.id);
          markSaved(version, words);
          toast.show(TOASTS.chapterCreated);
          if (!leaving) onCreated?.(created);
        } else {
          const fields: { title?: string; content?: string; wordCount?: number; status?: ChapterStatus } = {};
          if (nextTitle !== base.title) fields.title = nextTitle;
          if (content !== base.content) {
            fields.content = content;
            fields.wordCount = words;
          }
          if (nextStatus !== base.status) fields.status = nextStatus;
          if (Object.keys(fields).length > 0) await mutators.chapters.update(id, fields);
          markSaved(version, words);
          if (!auto && !quiet) toast.show(TOASTS.chapterSaved);
        }
        return true;
      } catch (error) {
        baseRef.current = base;
        toast.show(withError(TOASTS.chapterSaveFailed, error));
        return false;
      } finally {
        savingRef.current = false;
        setSaving(false);
        if (live.getState().dirty) scheduleAutoSave();
      }
    },
    [bookId, enqueue, live, markSaved, mutators, onCreated, scheduleAutoSave],
  );
  saveRef.current = save;

  // ------------------------------------------------------------------------------------------
  // Opening: the saved chapter (or an empty new one) and any draft of it

  useEffect(() => {
    if (!loaded || initStarted.current) return;
    if (!loaded.ok) {
      setLoadError(loaded.error);
      setPhase('error');
      return;
    }
    if (chapterId && !loaded.chapter) {
      setPhase('missing'); // it may still arrive (first sync on this device): the query is live
      return;
    }
    initStarted.current = true;
    const row = loaded.chapter;
    const key = draftKey(chapterId, bookId);
    void (async () => {
      const draft = await draftOf(db, key).catch(() => undefined);
      const base: Base = row
        ? { rev: row.rev, title: row.title, content: row.content, status: row.status }
        : { rev: 0, title: '', content: '', status: 'in_progress' };
      baseRef.current = base;
      titleRef.current = base.title;
      statusRef.current = base.status;
      setTitleState(base.title);
      setStatusState(base.status);
      setInitialText(base.content);
      setPrevious(row ? row.wordCount : 0);
      setLastSavedAt(row ? new Date(row.updatedAt) : null);
      live.setState({ words: countWordsEditor(base.content), chars: base.content.length, dirty: false });
      if (draft && (draft.title !== base.title || draft.content !== base.content)) {
        const savedAt = row ? Date.parse(row.updatedAt) : 0;
        const next = { draft, olderThanSaved: Number.isFinite(savedAt) && savedAt > draft.updatedAt };
        offerRef.current = next;
        setOffer(next);
      } else if (draft) {
        void enqueue(() => mutators.drafts.discard(key));
      }
      setPhase('ready');
    })();
  }, [bookId, chapterId, db, enqueue, live, loaded, mutators]);

  // ------------------------------------------------------------------------------------------
  // Saved text changing under the editor (sync, another tab, a conflict resolution)

  useEffect(() => {
    if (phase !== 'ready' || !chapter || chapter.id !== chapterIdRef.current) return;
    const base = baseRef.current;
    if (chapter.title === base.title && chapter.content === base.content) {
      if (chapter.rev !== base.rev || chapter.status !== base.status) {
        baseRef.current = { ...base, rev: chapter.rev, status: chapter.status };
        if (!live.getState().dirty && chapter.status !== statusRef.current) {
          statusRef.current = chapter.status;
          setStatusState(chapter.status);
        }
      }
      if (elsewhereRef.current) {
        elsewhereRef.current = null;
        setElsewhere(null);
      }
      return;
    }
    if (savingRef.current) return;
    if (!live.getState().dirty && !offerRef.current) {
      adopt({ rev: chapter.rev, title: chapter.title, content: chapter.content, status: chapter.status }, chapter.wordCount);
      setLastSavedAt(new Date(chapter.updatedAt));
      return;
    }
    elsewhereRef.current = chapter;
    setElsewhere(chapter);
  }, [adopt, chapter, live, phase]);

  // ------------------------------------------------------------------------------------------
  // Page lifecycle: busy while unsaved, warn on close, flush the draft when hidden or closed

  useEffect(() => {
    const unregister = registerBusyPredicate(() => live.getState().dirty || savingRef.current);
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!live.getState().dirty) return;
      void flushDraft();
      event.preventDefault();
      event.returnValue = '';
    };
    const onPageHide = () => void flushDraft();
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') void flushDraft();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    window.addEventListener('pagehide', onPageHide);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      unregister();
      window.removeEventListener('beforeunload', onBeforeUnload);
      window.removeEventListener('pagehide', onPageHide);
      document.removeEventListener('visibilitychange', onVisibility);
      void flushDraft();
      clearAutoSave();
    };
  }, [flushDraft, live]);

  // ------------------------------------------------------------------------------------------
  // Inputs

  const setTitle = useCallback(
    (value: string) => {
      titleRef.current = value;
      setTitleState(value);
      markChanged();
    },
    [markChanged],
  );

  const setStatus = useCallback(
    (value: ChapterStatus) => {
      statusRef.current = value;
      setStatusState(value);
      markChanged();
    },
    [markChanged],
  );

  const onContentChange = useCallback(
    (counts: TextCounts, external: boolean) => {
      live.setState({ words: counts.words, chars: counts.chars });
      if (!external) markChanged();
    },
    [live, markChanged],
  );

  const setAutoSave = useCallback(
    (on: boolean) => {
      autoSaveRef.current = on;
      setAutoSaveState(on);
      if (on && live.getState().dirty) scheduleAutoSave();
      else if (!on) clearAutoSave();
    },
    [live, scheduleAutoSave],
  );

  // ------------------------------------------------------------------------------------------
  // The offered draft

  const restoreDraft = useCallback(() => {
    const current = offerRef.current;
    if (!current) return;
    offerRef.current = null;
    setOffer(null);
    titleRef.current = current.draft.title;
    setTitleState(current.draft.title);
    editorRef.current?.setText(current.draft.content);
    markChanged();
  }, [markChanged]);

  const discardDraft = useCallback(() => {
    if (!offerRef.current) return;
    offerRef.current = null;
    setOffer(null);
    const key = keyRef.current;
    void enqueue(() => mutators.drafts.discard(key));
  }, [enqueue, mutators]);

  // ------------------------------------------------------------------------------------------
  // Conflicts and text saved elsewhere

  /** Waits (up to a few seconds) until the engine has sent this chapter's pending saves. */
  const sendPending = useCallback(async (): Promise<boolean> => {
    const id = chapterIdRef.current;
    if (!id) return false;
    if (typeof navigator !== 'undefined' && navigator.onLine === false) return !(await hasPendingChanges(db, 'chapters', id));
    const deadline = Date.now() + PENDING_WAIT_MS;
    await engine?.sync().catch(() => undefined);
    while (await hasPendingChanges(db, 'chapters', id)) {
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 200));
    }
    return true;
  }, [db, engine]);

  /** Replaces the editor's text with a chosen version and saves it (resolving `conflictId` if given). */
  const applyChosen = useCallback(
    async (next: { title: string; content: string }, conflictId: string | null): Promise<boolean> => {
      const id = chapterIdRef.current;
      if (!id) return false;
      if (next.title.trim() === '') {
        toast.show(TOASTS.editorTitleRequired);
        return false;
      }
      // Unsaved words are saved first, so the version being replaced stays in the history.
      if (live.getState().dirty && !elsewhereRef.current) {
        if (!(await save({ quiet: true }))) return false;
        await sendPending();
      }
      const before = baseRef.current;
      const nextBase: Base = { ...before, title: next.title, content: next.content };
      baseRef.current = nextBase;
      try {
        if (conflictId) await mutators.conflicts.resolve(conflictId, { title: next.title, content: next.content });
        else await mutators.chapters.update(id, { title: next.title, content: next.content, wordCount: countWordsEditor(next.content) });
      } catch (error) {
        baseRef.current = before;
        toast.show(withError(TOASTS.chapterSaveFailed, error));
        return false;
      }
      adopt(nextBase);
      setLastSavedAt(new Date());
      toast.show(TOASTS.chapterSaved);
      return true;
    },
    [adopt, live, mutators, save, sendPending],
  );

  const keepMine = useCallback(
    async (target: Comparand): Promise<boolean> => {
      if (target.kind === 'conflict') {
        try {
          await mutators.conflicts.resolve(target.conflict.id);
          return true;
        } catch (error) {
          toast.show(withError(TOASTS.chapterSaveFailed, error));
          return false;
        }
      }
      // Text saved elsewhere: mine replaces it (it stays in the revision history).
      const other = target.chapter;
      baseRef.current = { rev: other.rev, title: other.title, content: other.content, status: other.status };
      elsewhereRef.current = null;
      setElsewhere(null);
      return save();
    },
    [mutators, save],
  );

  const keepTheirs = useCallback(
    async (target: Comparand): Promise<boolean> => {
      if (target.kind === 'conflict') {
        return applyChosen({ title: target.conflict.title, content: target.conflict.content }, target.conflict.id);
      }
      const other = target.chapter;
      elsewhereRef.current = null;
      setElsewhere(null);
      adopt({ rev: other.rev, title: other.title, content: other.content, status: other.status }, other.wordCount);
      setLastSavedAt(new Date(other.updatedAt));
      return true;
    },
    [adopt, applyChosen],
  );

  const saveMerged = useCallback(
    async (target: Comparand, merged: { title: string; content: string }): Promise<boolean> => {
      if (target.kind === 'conflict') return applyChosen(merged, target.conflict.id);
      const other = target.chapter;
      baseRef.current = { rev: other.rev, title: other.title, content: other.content, status: other.status };
      elsewhereRef.current = null;
      setElsewhere(null);
      titleRef.current = merged.title;
      setTitleState(merged.title);
      editorRef.current?.setText(merged.content);
      markChanged();
      return save();
    },
    [applyChosen, markChanged, save],
  );

  /** Restores an earlier revision: the current text is saved (and sent) first so it becomes a revision. */
  const restoreRevision = useCallback(
    async (snapshot: { title: string; content: string }): Promise<boolean> => {
      if (!chapterIdRef.current) return false;
      if (live.getState().dirty) {
        if (!(await save({ quiet: true }))) return false;
      }
      if (!(await sendPending())) {
        toast.show(withError(TOASTS.chapterSaveFailed, new Error('The current text has not reached the server yet, so it could not be kept as a revision. Try again once you are back online.')));
        return false;
      }
      return applyChosen(snapshot, null);
    },
    [applyChosen, live, save, sendPending],
  );

  const getText = useCallback(() => editorRef.current?.getText() ?? baseRef.current.content, []);

  useEffect(() => () => clearAutoSave(), []);

  return useMemo(
    () => ({
      phase,
      loadError,
      chapterId,
      isNew: chapterId === null,
      chapter,
      book,
      conflicts,
      live,
      editorRef,
      initialText,
      title,
      setTitle,
      status,
      setStatus,
      previous,
      saving,
      autoSave,
      setAutoSave,
      lastSavedAt,
      save,
      onContentChange,
      offer,
      restoreDraft,
      discardDraft,
      flushDraft,
      elsewhere,
      compare,
      setCompare,
      keepMine,
      keepTheirs,
      saveMerged,
      restoreRevision,
      getText,
    }),
    [
      phase, loadError, chapterId, chapter, book, conflicts, live, initialText, title, setTitle, status, setStatus, previous,
      saving, autoSave, setAutoSave, lastSavedAt, save, onContentChange, offer, restoreDraft, discardDraft, flushDraft,
      elsewhere, compare, keepMine, keepTheirs, saveMerged, restoreRevision, getText,
    ],
  );
}

export type ChapterEditorController = ReturnType<typeof useChapterEditor>;

/** Subscribes to one slice of the per-keystroke state. */
export function useLive<T>(controller: Pick<ChapterEditorController, 'live'>, selector: (s: LiveCounts) => T): T {
  return useStore(controller.live, selector);
}
