/**
 * A world tab's data, live from the local database (docs/architecture.md#the-data-loop): the
 * series' entries of every category (links name entries of any tab), and its characters, places
 * and books (the link pickers, the book filter). An answer carries the series it was read for.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { Book, Character, Location, WorldEntry } from '@chronicler/schema';
import { type ChroniclerDb, booksOfSeries, charactersOfSeries, locationsOfSeries, worldEntriesOfSeries } from '@chronicler/sync-client';

export interface WorldEntriesData {
  entries: WorldEntry[];
  characters: Character[];
  locations: Location[];
  books: Book[];
}

/** undefined while the series' rows load. */
export function useWorldEntriesData(db: ChroniclerDb, seriesId: string): WorldEntriesData | undefined {
  const rows = useLiveQuery(
    async () => {
      const [entries, characters, locations, books] = await Promise.all([
        worldEntriesOfSeries(db, seriesId),
        charactersOfSeries(db, seriesId),
        locationsOfSeries(db, seriesId),
        booksOfSeries(db, seriesId),
      ]);
      return { seriesId, entries, characters, locations, books };
    },
    [db, seriesId],
  );
  return rows && rows.seriesId === seriesId ? rows : undefined;
}
