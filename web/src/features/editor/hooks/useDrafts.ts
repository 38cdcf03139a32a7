/**
 * Keystroke drafts: the author's unsaved input survives a reload, a crash or a closed tab.
 *
 * - Every change reaches IndexedDB within DRAFT_DELAY_MS (in idle time), and at once when the page
 *   is hidden or closed, whatever the auto-save setting. While input is unsaved the app counts as
 *   busy (no update reload) and closing the tab warns.
 * - When the input stops being unsaved (saved, or replaced by a saved state) the draft is deleted.
 * - A draft that differs from the saved text is offered when the chapter opens again; the editor
 *   stays read-only until the author restores or discards it.
 */
import { type RefObject, useEffect, useMemo, useRef } from 'react';
import { registerBusyPredicate } from '@/lib/appBusy';
import type { Mutators } from '@chronicler/sync-client';
import type { ProseEditorHandle } from '../components/ProseEditor';
import { DRAFT_DELAY_MS, draftKey } from '../model/constants';
import { type EditorStore, markChanged } from './editor-store';

/** DRAFT_DELAY_MS + this stays under a second. */
const DRAFT_IDLE_TIMEOUT_MS = 400;

function whenIdle(run: () => void): void {
  if (typeof window !== 'undefined' && typeof window.requestIdleCallback === 'function') {
    window.requestIdleCallback(run, { timeout: DRAFT_IDLE_TIMEOUT_MS });
  } else {
    run();
  }
}

export interface Drafts {
  /** Writes the current title and text as the draft now (when there is unsaved input). */
  flush(): Promise<unknown>;
  /** Deletes the draft stored under `key` (after the writes queued before it). */
  discard(key: string): Promise<unknown>;
  /** The offered draft becomes the editor's (unsaved) input. */
  restoreOffered(): void;
  /** The offered draft is thrown away; the saved text stays. */
  discardOffered(): void;
}

export function useDrafts(store: EditorStore, editorRef: RefObject<ProseEditorHandle | null>, mutators: Mutators, bookId: string): Drafts {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // Draft writes and deletes run one after another, in the order they were asked for.
  const queue = useRef<Promise<unknown>>(Promise.resolve());

  const drafts = useMemo(() => {
    const key = () => draftKey(store.getState().chapterId, bookId);
    const enqueue = (op: () => Promise<unknown>) => {
      const next = queue.current.then(op).catch(() => undefined);
      queue.current = next;
      return next;
    };
    const cancel = () => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
    };
    const flush = () => {
      cancel();
      const { dirty, offer, title } = store.getState();
      const editor = editorRef.current;
      if (!dirty || offer || !editor) return queue.current;
      const at = key();
      const draft = { title, content: editor.getText() };
      return enqueue(() => mutators.drafts.save(at, draft));
    };
    const schedule = () => {
      if (timer.current) return; // the pending write picks up this change too
      timer.current = setTimeout(() => {
        // Copying a long chapter into IndexedDB takes a few milliseconds: do it between frames
        // (idle time), and at the latest DRAFT_IDLE_TIMEOUT_MS later, so typing never waits for it.
        whenIdle(() => {
          timer.current = null;
          void flush();
        });
      }, DRAFT_DELAY_MS);
    };
    const discard = (at: string) => enqueue(() => mutators.drafts.discard(at));
    const restoreOffered = () => {
      const { offer } = store.getState();
      if (!offer) return;
      store.setState({ offer: null, title: offer.draft.title });
      editorRef.current?.setText(offer.draft.content);
      markChanged(store);
    };
    const discardOffered = () => {
      if (!store.getState().offer) return;
      store.setState({ offer: null });
      void discard(key());
    };
    return { flush, schedule, cancel, discard, key, restoreOffered, discardOffered };
  }, [bookId, editorRef, mutators, store]);

  // Each change schedules a write; input no longer unsaved stops it and deletes the draft.
  useEffect(
    () =>
      store.subscribe((state, prev) => {
        if (state.edits !== prev.edits && state.dirty) drafts.schedule();
        if (prev.dirty && !state.dirty) {
          drafts.cancel();
          void drafts.discard(drafts.key());
        }
      }),
    [drafts, store],
  );

  // Page lifecycle: busy while unsaved, warn on close, write the draft when hidden or closed.
  useEffect(() => {
    const unregister = registerBusyPredicate(() => store.getState().dirty || store.getState().saving);
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!store.getState().dirty) return;
      void drafts.flush();
      event.preventDefault();
      event.returnValue = '';
    };
    const onPageHide = () => void drafts.flush();
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') void drafts.flush();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    window.addEventListener('pagehide', onPageHide);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      unregister();
      window.removeEventListener('beforeunload', onBeforeUnload);
      window.removeEventListener('pagehide', onPageHide);
      document.removeEventListener('visibilitychange', onVisibility);
      void drafts.flush();
    };
  }, [drafts, store]);

  const { flush, discard, restoreOffered, discardOffered } = drafts;
  return useMemo(() => ({ flush, discard, restoreOffered, discardOffered }), [flush, discard, restoreOffered, discardOffered]);
}
