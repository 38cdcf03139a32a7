import { Suspense, lazy } from 'react';
import { ChapterList, EditSeriesDialog, chapterEditorPath } from '@/features/series';
import { DashboardScreen } from '@/features/progress';

// The companion's panel and the Inspiration Pack's prompt load after the dashboard's own panels:
// neither is needed for its first paint (issue 16, first-route JavaScript).
const WritersCompanionPanel = lazy(() => import('@/features/companion').then((m) => ({ default: m.WritersCompanionPanel })));
const PromptOfTheDay = lazy(() => import('@/features/inspiration').then((m) => ({ default: m.PromptOfTheDay })));

/** Where a book with no chapter yet opens: the chapter editor of the book (001 §2). */
function bookEditorPath(book: { id: string; seriesId: string }): string {
  return `/chapter-editor?${new URLSearchParams({ bookId: book.id, seriesId: book.seriesId }).toString()}`;
}

/**
 * The dashboard (spec 000 §2), composed: the progress feature's screen with the series feature's
 * Edit Series dialog and chapter list, the companion feature's Writer's Companion panel and the
 * Inspiration Pack's prompt of the day.
 */
export default function DashboardRoute() {
  return (
    <DashboardScreen
      renderEditSeries={(series, onClose) => <EditSeriesDialog series={series} onClose={onClose} />}
      renderChapterList={(book, chapters) => <ChapterList bookId={book.id} seriesId={book.seriesId} chapters={chapters} />}
      chapterPath={chapterEditorPath}
      bookPath={bookEditorPath}
      companionPanel={
        <Suspense fallback={null}>
          <WritersCompanionPanel />
        </Suspense>
      }
      promptOfTheDay={
        <Suspense fallback={null}>
          <PromptOfTheDay />
        </Suspense>
      }
    />
  );
}
