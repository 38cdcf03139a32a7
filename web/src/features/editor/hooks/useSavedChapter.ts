/**
 * The saved chapter under the editor: loaded from Dexie (live) with its book and conflict copies;
 * opened once (the saved text, or an empty new chapter, and any draft of it on offer); and followed
 * afterwards — a saved state arriving from sync, another tab or a conflict resolution is taken as
 * is when nothing is unsaved here, and held as `elsewhere` (merged on the next save) otherwise.
 */
import { type RefObject, useEffect, useRef } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useStore } from 'zustand';
import { type Book, type Chapter, type ChapterConflict, chapterWordCount } from '@chronicler/schema';
import type { ChroniclerDb } from '@chronicler/sync-client';
import { conflictsOfChapter, draftOf, getBook, getChapter } from '@chronicler/sync-client';
import type { ProseEditorHandle } from '../components/ProseEditor';
import { draftKey } from '../model/constants';
import { EMPTY_VERSION, classifyIncoming, decideDraft, versionOf } from '../model/save-plan';
import { type EditorStore, adopt } from './editor-store';

type Loaded = { ok: true; chapter: Chapter | null; book: Book | null } | { ok: false; error: string };

const NO_CONFLICTS: ChapterConflict[] = [];

export function useSavedChapter(
  store: EditorStore,
  editorRef: RefObject<ProseEditorHandle | null>,
  { db, chapterId, bookId, discardDraft }: { db: ChroniclerDb; chapterId: string | null; bookId: string; discardDraft: (key: string) => unknown },
) {
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

  // Opening: once, when the chapter is there (it may still arrive: the query is live).
  const opened = useRef(false);
  useEffect(() => {
    if (!loaded || opened.current) return;
    if (!loaded.ok) {
      store.setState({ phase: 'error', loadError: loaded.error });
      return;
    }
    if (chapterId && !loaded.chapter) {
      store.setState({ phase: 'missing' });
      return;
    }
    opened.current = true;
    const row = loaded.chapter;
    const key = draftKey(chapterId, bookId);
    void (async () => {
      const draft = await draftOf(db, key).catch(() => undefined);
      const base = row ? versionOf(row) : EMPTY_VERSION;
      const decision = decideDraft(draft, base, row ? Date.parse(row.updatedAt) : null);
      if (decision.kind === 'discard') void discardDraft(key);
      store.setState({
        base,
        title: base.title,
        status: base.status,
        initialText: base.content,
        previous: row ? row.wordCount : 0,
        lastSavedAt: row ? new Date(row.updatedAt) : null,
        words: chapterWordCount(base.content),
        chars: base.content.length,
        dirty: false,
        offer: draft && decision.kind === 'offer' ? { draft, olderThanSaved: decision.olderThanSaved } : null,
        phase: 'ready',
      });
    })();
  }, [bookId, chapterId, db, discardDraft, loaded, store]);

  // Following: a saved state of this chapter arrived.
  const phase = useStore(store, (s) => s.phase);
  useEffect(() => {
    const state = store.getState();
    if (phase !== 'ready' || !chapter || chapter.id !== state.chapterId) return;
    const incoming = versionOf(chapter);
    const action = classifyIncoming(state.base, incoming, { dirty: state.dirty, saving: state.saving, offering: state.offer !== null });
    if (action === 'echo') {
      // Its rev (and, with nothing unsaved here, its status) is the base's now.
      if (incoming.rev === state.base.rev && incoming.status === state.base.status && !state.elsewhere) return;
      const status = state.dirty ? state.status : incoming.status;
      store.setState({ base: { ...state.base, rev: incoming.rev, status: incoming.status }, status, elsewhere: null });
    } else if (action === 'adopt') {
      adopt(store, editorRef.current, incoming, { words: chapter.wordCount, savedAt: new Date(chapter.updatedAt) });
    } else if (action === 'hold') {
      store.setState({ elsewhere: chapter });
    }
  }, [chapter, editorRef, phase, store]);

  return { chapter, book, conflicts };
}
