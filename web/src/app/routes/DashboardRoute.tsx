import { Suspense, lazy, useState } from 'react';
import type { Series } from '@chronicler/schema';
import { DashboardScreen } from '@/features/progress';
import { PromptOfTheDay } from '@/features/inspiration';
import { chapterEditorPath } from '@/lib/chapterEditorPath';

// What the dashboard's first paint does not show loads after it (docs/web.md#first-load): the
// current book's chapter list (drag and drop) and the companion's panel lower down the page, drawn
// once the panels above them are on screen (DashboardScreen), and the Edit Series dialog when it
// first opens.
const ChapterList = lazy(() => import('@/features/series').then((m) => ({ default: m.ChapterList })));
const EditSeriesDialog = lazy(() => import('@/features/series').then((m) => ({ default: m.EditSeriesDialog })));
const WritersCompanionPanel = lazy(() => import('@/features/companion').then((m) => ({ default: m.WritersCompanionPanel })));

/** Where a book with no chapter yet opens: the chapter editor of the book (001 §2). */
function bookEditorPath(book: { id: string; seriesId: string }): string {
  return `/chapter-editor?${new URLSearchParams({ bookId: book.id, seriesId: book.seriesId }).toString()}`;
}

/** The Edit Series dialog, downloaded when it is first opened and kept mounted after (it animates out). */
function EditSeries({ series, onClose }: { series: Series | null; onClose: () => void }) {
  const [wanted, setWanted] = useState(false);
  if (series && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <EditSeriesDialog series={series} onClose={onClose} />
    </Suspense>
  );
}

/**
 * The dashboard (spec 000 §2), composed: the progress feature's screen with the series feature's
 * Edit Series dialog and chapter list, the companion feature's Writer's Companion panel and the
 * Inspiration Pack's prompt of the day.
 */
export default function DashboardRoute() {
  return (
    <DashboardScreen
      renderEditSeries={(series, onClose) => <EditSeries series={series} onClose={onClose} />}
      renderChapterList={(book, chapters) => <ChapterList bookId={book.id} seriesId={book.seriesId} chapters={chapters} />}
      chapterPath={chapterEditorPath}
      bookPath={bookEditorPath}
      companionPanel={
        <Suspense fallback={null}>
          <WritersCompanionPanel />
        </Suspense>
      }
      promptOfTheDay={<PromptOfTheDay />}
    />
  );
}
