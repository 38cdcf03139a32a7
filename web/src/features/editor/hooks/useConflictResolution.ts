/**
 * Comparing and choosing (docs/sync-protocol.md#chapter-text-merge): conflict copies from the
 * server and text saved elsewhere while the author typed are resolved here — keep mine, keep
 * theirs, or save a merged text — and revisions are restored. Whatever is replaced stays in the
 * revision history: unsaved words are saved (and sent) first.
 */
import { type RefObject, useCallback, useMemo } from 'react';
import { chapterWordCount } from '@chronicler/schema';
import { TOASTS, withError } from '@/lib/copy/toasts';
import { toast } from '@/lib/toast';
import type { ChroniclerDb } from '@chronicler/sync-client';
import type { SyncEngine } from '@chronicler/sync-client';
import type { Mutators } from '@chronicler/sync-client';
import { hasPendingChanges } from '@chronicler/sync-client';
import type { ProseEditorHandle } from '../components/ProseEditor';
import { versionOf } from '../model/save-plan';
import { type Comparand, type EditorStore, adopt, markChanged } from './editor-store';
import type { Save } from './useSave';

const PENDING_WAIT_MS = 8_000;
const NOT_SENT_YET =
  'The current text has not reached the server yet, so it could not be kept as a revision. Try again once you are back online.';

export interface ConflictResolutionDeps {
  store: EditorStore;
  editorRef: RefObject<ProseEditorHandle | null>;
  db: ChroniclerDb;
  mutators: Mutators;
  engine: Pick<SyncEngine, 'sync'> | null;
  save: Save;
}

type Chosen = { title: string; content: string };

export function useConflictResolution({ store, editorRef, db, mutators, engine, save }: ConflictResolutionDeps) {
  /** Waits (up to a few seconds) until the engine has sent this chapter's pending saves. */
  const sendPending = useCallback(async (): Promise<boolean> => {
    const id = store.getState().chapterId;
    if (!id) return false;
    if (typeof navigator !== 'undefined' && navigator.onLine === false) return !(await hasPendingChanges(db, 'chapters', id));
    const deadline = Date.now() + PENDING_WAIT_MS;
    await engine?.sync().catch(() => undefined);
    while (await hasPendingChanges(db, 'chapters', id)) {
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 200));
    }
    return true;
  }, [db, engine, store]);

  /** Replaces the editor's text with a chosen version and saves it (resolving `conflictId` if given). */
  const applyChosen = useCallback(
    async ({ title, content }: Chosen, conflictId: string | null): Promise<boolean> => {
      const next = { title, content };
      const id = store.getState().chapterId;
      if (!id) return false;
      if (next.title.trim() === '') {
        toast.show(TOASTS.editorTitleRequired);
        return false;
      }
      // Unsaved words are saved first, so the version being replaced stays in the history.
      if (store.getState().dirty && !store.getState().elsewhere) {
        if (!(await save({ quiet: true }))) return false;
        await sendPending();
      }
      const before = store.getState().base;
      const chosen = { ...before, title: next.title, content: next.content };
      store.setState({ base: chosen });
      try {
        if (conflictId) await mutators.conflicts.resolve(conflictId, next);
        // Only a revision restore gets here without a copy: restored text is not writing (statistics).
        else await mutators.chapters.update(id, { ...next, wordCount: chapterWordCount(next.content), writing: { kind: 'restore' } });
      } catch (error) {
        store.setState({ base: before });
        toast.show(withError(TOASTS.chapterSaveFailed, error));
        return false;
      }
      adopt(store, editorRef.current, chosen, { words: chapterWordCount(chosen.content), savedAt: new Date() });
      toast.show(TOASTS.chapterSaved);
      return true;
    },
    [editorRef, mutators, save, sendPending, store],
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
      store.setState({ base: versionOf(target.chapter), elsewhere: null });
      return save();
    },
    [mutators, save, store],
  );

  const keepTheirs = useCallback(
    async (target: Comparand): Promise<boolean> => {
      if (target.kind === 'conflict') return applyChosen(target.conflict, target.conflict.id);
      const other = target.chapter;
      adopt(store, editorRef.current, versionOf(other), { words: other.wordCount, savedAt: new Date(other.updatedAt) });
      return true;
    },
    [applyChosen, editorRef, store],
  );

  const saveMerged = useCallback(
    async (target: Comparand, merged: Chosen): Promise<boolean> => {
      if (target.kind === 'conflict') return applyChosen(merged, target.conflict.id);
      store.setState({ base: versionOf(target.chapter), elsewhere: null, title: merged.title });
      editorRef.current?.setText(merged.content);
      markChanged(store);
      return save();
    },
    [applyChosen, editorRef, save, store],
  );

  /** Restores an earlier revision: the current text is saved (and sent) first so it becomes a revision. */
  const restoreRevision = useCallback(
    async (snapshot: Chosen): Promise<boolean> => {
      if (!store.getState().chapterId) return false;
      if (store.getState().dirty && !(await save({ quiet: true }))) return false;
      if (!(await sendPending())) {
        toast.show(withError(TOASTS.chapterSaveFailed, new Error(NOT_SENT_YET)));
        return false;
      }
      return applyChosen(snapshot, null);
    },
    [applyChosen, save, sendPending, store],
  );

  const setCompare = useCallback((compare: Comparand | null) => store.setState({ compare }), [store]);

  return useMemo(
    () => ({ setCompare, keepMine, keepTheirs, saveMerged, restoreRevision }),
    [setCompare, keepMine, keepTheirs, saveMerged, restoreRevision],
  );
}
