/**
 * Live reads of the local database for the series screens (docs/architecture.md#the-data-loop:
 * screens read Dexie with useLiveQuery and write through the mutators). `undefined` means "still
 * reading".
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { Book, Chapter, Series } from '@chronicler/schema';
import { booksOfSeries, chaptersOfBook, getSeries, seriesList } from '@chronicler/sync-client';
import { useDb } from '@/lib/sync';

export function useSeriesList(): Series[] | undefined {
  const db = useDb();
  return useLiveQuery(() => seriesList(db), [db]);
}

/** One series; null when it does not exist here (or was deleted). */
export function useSeries(id: string | null | undefined): Series | null | undefined {
  const db = useDb();
  return useLiveQuery(async () => {
    if (!id) return null;
    const row = await getSeries(db, id);
    return row && !row.deletedAt ? row : null;
  }, [db, id]);
}

export function useBooks(seriesId: string | null | undefined): Book[] | undefined {
  const db = useDb();
  return useLiveQuery(async () => (seriesId ? booksOfSeries(db, seriesId) : []), [db, seriesId]);
}

export function useChapters(bookId: string): Chapter[] | undefined {
  const db = useDb();
  return useLiveQuery(() => chaptersOfBook(db, bookId), [db, bookId]);
}
