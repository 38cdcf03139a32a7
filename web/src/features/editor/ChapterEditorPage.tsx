import { useRef } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { useSync } from '@/lib/sync';
import { ChapterEditor } from './ChapterEditor';

/**
 * /chapter-editor?id=&bookId=&seriesId= (the entry rule that needs bookId lives in the route).
 * One editor per chapter; a new chapter keeps its editor (caret, undo history, words typed during
 * the save) when the URL changes to its new id.
 */
export function ChapterEditorPage() {
  const { db, mutators, engine } = useSync();
  const [params] = useSearchParams();
  const bookId = params.get('bookId') ?? '';
  const chapterId = params.get('id') || null;
  const seriesId = params.get('seriesId') || null;
  const { key: locationKey } = useLocation();
  const created = useRef(new Map<string, string>());
  // Each visit to a new-chapter URL is its own editor; once saved, the chapter keeps that editor.
  const key = (chapterId && created.current.get(chapterId)) || chapterId || `new:${bookId}:${locationKey}`;
  return (
    <ChapterEditor
      key={key}
      db={db}
      mutators={mutators}
      engine={engine}
      chapterId={chapterId}
      bookId={bookId}
      seriesId={seriesId}
      onCreated={(chapter) => created.current.set(chapter.id, key)}
    />
  );
}
