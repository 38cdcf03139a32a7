import { ChapterList, EditSeriesDialog, chapterEditorPath } from '@/features/series';
import { DashboardScreen } from '@/features/progress';

/** Where a book with no chapter yet opens: the chapter editor of the book (001 §2). */
function bookEditorPath(book: { id: string; seriesId: string }): string {
  return `/chapter-editor?${new URLSearchParams({ bookId: book.id, seriesId: book.seriesId }).toString()}`;
}

/**
 * The dashboard (spec 000 §2), composed: the progress feature's screen with the series feature's
 * Edit Series dialog and chapter list. `companionPanel` (the AI feature's WritersCompanionPanel) and
 * `promptOfTheDay` (the Inspiration Pack's prompt) are wired here when those features land.
 */
export default function DashboardRoute() {
  return (
    <DashboardScreen
      renderEditSeries={(series, onClose) => <EditSeriesDialog series={series} onClose={onClose} />}
      renderChapterList={(book, chapters) => <ChapterList bookId={book.id} seriesId={book.seriesId} chapters={chapters} />}
      chapterPath={chapterEditorPath}
      bookPath={bookEditorPath}
    />
  );
}
