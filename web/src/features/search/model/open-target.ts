/** Where choosing a result goes: a chapter opens in the editor with the hit selected; the bible opens its page. */
import type { SearchResult } from '@chronicler/schema/search';
import { EDITOR_SELECT_PARAM } from '@/lib/chapterEditorPath';

export function openTarget(result: SearchResult, snippetIndex = 0): string {
  switch (result.kind) {
    case 'chapter': {
      const q = new URLSearchParams({ id: result.rowId, bookId: result.bookId ?? '', seriesId: result.seriesId });
      const snippet = result.snippets[snippetIndex] ?? result.snippets[0];
      if (snippet?.field === 'content') q.set(EDITOR_SELECT_PARAM, `${snippet.source.from}-${snippet.source.to}`);
      return `/chapter-editor?${q.toString()}`;
    }
    case 'book':
      return `/series/${encodeURIComponent(result.seriesId)}`;
    case 'character':
      return '/characters';
    case 'location':
      return '/world';
    case 'event':
      return '/timeline';
  }
}
