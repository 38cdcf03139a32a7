/**
 * The progress an author has made on a series (`seriesProgress` in @chronicler/schema: completed
 * chapters of its books against the books planned), read live from the local database. 0 while
 * reading, and for no series.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { seriesProgress } from '@chronicler/schema';
import { booksOfSeries, chaptersOfSeries } from '@chronicler/sync-client';
import { useDb } from './sync';

export function useSeriesProgress(series: { id: string; totalBooks: number } | null | undefined): number {
  const db = useDb();
  const seriesId = series?.id ?? null;
  const rows = useLiveQuery(
    async () => (seriesId ? Promise.all([booksOfSeries(db, seriesId), chaptersOfSeries(db, seriesId)]) : null),
    [db, seriesId],
  );
  if (!series || !rows) return 0;
  const [books, chapters] = rows;
  return seriesProgress(series, books, chapters);
}
