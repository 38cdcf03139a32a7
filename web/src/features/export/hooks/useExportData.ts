/** Live reads of what an export can include, from the local database (works offline). */
import { useLiveQuery } from 'dexie-react-hooks';
import { type ExportProfile, DEFAULT_EXPORT_PROFILE } from '@chronicler/schema';
import { booksOfSeries, chaptersOfSeries, getSeries } from '@chronicler/sync-client';
import { useDb } from '@/lib/sync';

export function useExportSource(seriesId: string) {
  const db = useDb();
  return useLiveQuery(async () => {
    const series = await getSeries(db, seriesId);
    if (!series || series.deletedAt) return null;
    const [books, chapters] = await Promise.all([booksOfSeries(db, seriesId), chaptersOfSeries(db, seriesId)]);
    return { series, books: books.filter((b) => !b.deletedAt), chapters: chapters.filter((c) => !c.deletedAt) };
  }, [db, seriesId]);
}

/** The profile saved for the series on this device, or the default; undefined while reading. */
export function useSavedProfile(seriesId: string): ExportProfile | undefined {
  const db = useDb();
  return useLiveQuery(async () => (await db.exportProfiles.get(seriesId))?.profile ?? DEFAULT_EXPORT_PROFILE, [db, seriesId]);
}
