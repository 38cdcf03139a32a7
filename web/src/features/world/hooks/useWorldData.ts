/**
 * The World page's data, live from the local database (docs/architecture.md#the-data-loop: screens
 * never fetch entity data): every series, and the locations of the shown one. An answer carries the
 * series it was read for, so switching series never shows the previous series' locations.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { Location } from '@chronicler/schema';
import { useSeriesChoice, type SeriesChoice } from '@/lib/useSeriesChoice';
import type { ChroniclerDb } from '@chronicler/sync-client';
import { locationsOfSeries } from '@chronicler/sync-client';

export interface WorldData extends SeriesChoice {
  /** undefined while the shown series' locations load. */
  locations: Location[] | undefined;
}

export function useWorldData(db: ChroniclerDb): WorldData {
  const choice = useSeriesChoice(db);
  const { series, seriesId } = choice;

  const rows = useLiveQuery(
    async () => (seriesId ? { seriesId, locations: await locationsOfSeries(db, seriesId) } : null),
    [db, seriesId],
  );

  const fresh = rows && rows.seriesId === seriesId ? rows.locations : undefined;
  return { ...choice, locations: seriesId === null && series !== undefined ? [] : fresh };
}
