/**
 * Auto-save (spec 001 §4, §9): AUTO_SAVE_DELAY_MS after the author's LAST change, when it is on and
 * the input could be saved without asking anything (a title, some words, no draft on offer, no
 * save in flight). A save that ends with input still unsaved (typed meanwhile, or failed) waits
 * another full delay.
 */
import { type RefObject, useCallback, useEffect, useRef } from 'react';
import type { ProseEditorHandle } from '../components/ProseEditor';
import { AUTO_SAVE_DELAY_MS } from '../model/constants';
import { autoSaveReady } from '../model/save-plan';
import type { EditorStore } from './editor-store';

export function useAutoSave(
  store: EditorStore,
  editorRef: RefObject<ProseEditorHandle | null>,
  save: (options: { auto: true }) => Promise<boolean>,
): (on: boolean) => void {
  const saveRef = useRef(save);
  saveRef.current = save;

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const clear = () => {
      if (timer) clearTimeout(timer);
      timer = null;
    };
    const schedule = () => {
      clear();
      timer = setTimeout(() => {
        timer = null;
        const { dirty, saving, offer, title } = store.getState();
        const content = editorRef.current?.getText() ?? '';
        if (autoSaveReady({ dirty, saving, offering: offer !== null, title, content })) void saveRef.current({ auto: true });
      }, AUTO_SAVE_DELAY_MS);
    };
    const unsubscribe = store.subscribe((state, prev) => {
      if (!state.autoSave || !state.dirty) {
        if (timer) clear();
        return;
      }
      const changed = state.edits !== prev.edits;
      const saveEnded = prev.saving && !state.saving;
      const switchedOn = !prev.autoSave;
      if (changed || saveEnded || switchedOn) schedule();
    });
    return () => {
      unsubscribe();
      clear();
    };
  }, [editorRef, store]);

  return useCallback((on: boolean) => store.setState({ autoSave: on }), [store]);
}
