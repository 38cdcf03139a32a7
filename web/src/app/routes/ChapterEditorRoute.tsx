import { lazy } from 'react';
import { Navigate, useSearchParams } from 'react-router';

const ChapterEditorScreen = lazy(() => import('./ChapterEditorScreen'));

/**
 * Chapter-editor entry rule (spec 000 §2, 001 §2): with bookId the editor is shown; with only
 * seriesId go to /series?id={seriesId}; with neither go to "/".
 */
export default function ChapterEditorRoute() {
  const [params] = useSearchParams();
  const bookId = params.get('bookId');
  const seriesId = params.get('seriesId');
  if (bookId) return <ChapterEditorScreen />;
  if (seriesId) return <Navigate to={`/series?id=${encodeURIComponent(seriesId)}`} replace />;
  return <Navigate to="/" replace />;
}
