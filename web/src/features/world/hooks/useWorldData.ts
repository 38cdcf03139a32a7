/**
 * The World page's data, live from the local database (docs/architecture.md#the-data-loop: screens
 * never fetch entity data): every series, and the locations of the shown one. An answer carries the
 * series it was read for, so switching series never shows the previous series' locations.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { Book, Location } from '@chronicler/schema';
import { useSeriesChoice, type SeriesChoice } from '@/lib/useSeriesChoice';
import type { ChroniclerDb } from '@chronicler/sync-client';
import { booksOfSeries, locationsOfSeries } from '@chronicler/sync-client';

export interface WorldData extends SeriesChoice {
  /** undefined while the shown series' locations load. */
  locations: Location[] | undefined;
  /** The series' books: the book appearances a location can have. */
  books: Book[];
}

const NO_BOOKS: Book[] = [];

export function useWorldData(db: ChroniclerDb): WorldData {
  const choice = useSeriesChoice(db);
  const { series, seriesId } = choice;

  const rows = useLiveQuery(
    async () => {
      if (!seriesId) return null;
      const [locations, books] = await Promise.all([locationsOfSeries(db, seriesId), booksOfSeries(db, seriesId)]);
      return { seriesId, locations, books };
    },
    [db, seriesId],
  );

  const fresh = rows && rows.seriesId === seriesId ? rows : undefined;
  return { ...choice, locations: seriesId === null && series !== undefined ? [] : fresh?.locations, books: fresh?.books ?? NO_BOOKS };
}
