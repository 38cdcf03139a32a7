/**
 * Saving (the button, auto-save, leaving): through the mutators — create for a new chapter, update
 * otherwise (the engine sends PUT with X-Base-Rev). What is sent comes from the save planner:
 * a fast-forward of the base, or the author's text merged with text saved elsewhere meanwhile; when
 * both changed the same paragraphs nothing is sent and the author compares (`compare`).
 */
import { type RefObject, useCallback } from 'react';
import type { Book, Chapter, WritingMark } from '@chronicler/schema';
import { TOASTS, withError } from '@/lib/copy/toasts';
import { toast } from '@/lib/toast';
import type { Mutators } from '@chronicler/sync-client';
import type { ProseEditorHandle } from '../components/ProseEditor';
import { draftKey } from '../model/constants';
import { hasChanges, planSave, refuseSave, versionOf } from '../model/save-plan';
import { type EditorStore, localInput } from './editor-store';

export interface SaveOptions {
  auto?: boolean;
  /** No success toast (a save that is one step of another action). */
  quiet?: boolean;
  /** Saved on the way out: a new chapter does not move to its own URL first. */
  leaving?: boolean;
  /**
   * What the save is for the writing statistics, when it is not the author's writing: text the
   * companion inserted is saved on its own as 'companion', so it never counts as words written.
   */
  writingKind?: NonNullable<WritingMark['kind']>;
}

export type Save = (options?: SaveOptions) => Promise<boolean>;

export interface SaveDeps {
  store: EditorStore;
  editorRef: RefObject<ProseEditorHandle | null>;
  mutators: Mutators;
  bookId: string;
  book: Book | null;
  discardDraft: (key: string) => unknown;
  /** Called after a new chapter was created locally (the screen moves to its URL). */
  onCreated?: ((chapter: Chapter) => void) | undefined;
}

const REFUSAL_TOAST = { 'title-required': TOASTS.editorTitleRequired, 'book-required': TOASTS.editorBookRequired } as const;

export function useSave({ store, editorRef, mutators, bookId, book, discardDraft, onCreated }: SaveDeps): Save {
  return useCallback(
    async ({ auto = false, quiet = false, leaving = false, writingKind }: SaveOptions = {}): Promise<boolean> => {
      const editor = editorRef.current;
      const state = store.getState();
      if (state.saving || state.offer || !editor) return false;
      const refusal = refuseSave(state.title, Boolean(bookId && book));
      if (refusal) {
        if (!auto) toast.show(REFUSAL_TOAST[refusal]);
        return false;
      }

      const plan = planSave(state.base, localInput(store, editor), state.elsewhere && versionOf(state.elsewhere));
      if (plan.kind === 'conflict') {
        if (!auto && state.elsewhere) store.setState({ compare: { kind: 'elsewhere', chapter: state.elsewhere } });
        return false;
      }
      // What the editor shows becomes the merged text; the saved state becomes the base before
      // the write lands, so its echo is not news.
      if (plan.merged) editor.setText(plan.show.content);
      const edits = store.getState().edits;
      const words = editor.counts().words;
      const before = state.elsewhere ? versionOf(state.elsewhere) : state.base;
      store.setState({ saving: true, title: plan.show.title, status: plan.show.status, base: plan.saved, elsewhere: null });
      // Words typed while the save was in flight stay unsaved.
      const markSaved = () => {
        const unchanged = store.getState().edits === edits;
        store.setState({ lastSavedAt: new Date(), previous: words, ...(unchanged ? { dirty: false } : {}) });
      };
      const mark = writingKind ? { writing: { kind: writingKind } } : {};
      try {
        const id = state.chapterId;
        if (!id) {
          const created = await mutators.chapters.create({ bookId, ...plan.show, wordCount: words, ...mark });
          void discardDraft(draftKey(null, bookId));
          store.setState({ chapterId: created.id, base: versionOf(created) });
          markSaved();
          toast.show(TOASTS.chapterCreated);
          if (!leaving) onCreated?.(created);
        } else {
          const fields = plan.fields.content === undefined ? plan.fields : { ...plan.fields, wordCount: words };
          if (hasChanges(plan.fields)) await mutators.chapters.update(id, { ...fields, ...mark });
          markSaved();
          if (!auto && !quiet) toast.show(navigator.onLine ? TOASTS.chapterSaved : TOASTS.chapterSavedOffline);
        }
        return true;
      } catch (error) {
        store.setState({ base: before });
        toast.show(withError(TOASTS.chapterSaveFailed, error));
        return false;
      } finally {
        store.setState({ saving: false });
      }
    },
    [book, bookId, discardDraft, editorRef, mutators, onCreated, store],
  );
}
