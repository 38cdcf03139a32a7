import type { Chapter } from '@chronicler/schema';

/** The editor's address for a chapter (the series list, the inspiration pack and the toolkit open chapters with it). */
export function chapterEditorPath(chapter: Pick<Chapter, 'id' | 'bookId' | 'seriesId'>): string {
  const q = new URLSearchParams({ id: chapter.id, bookId: chapter.bookId, seriesId: chapter.seriesId });
  return `/chapter-editor?${q.toString()}`;
}

/**
 * The editor's search parameter naming a range of the chapter's text to select when it opens
 * (`select=<from>-<to>`, offsets in the marked text): how a search result opens the editor at its hit.
 */
export const EDITOR_SELECT_PARAM = 'select';
