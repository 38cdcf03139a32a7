/**
 * The World page's data, live from the local database (DESIGN.md §1: screens never fetch entity
 * data): every series, and the locations of the shown one. An answer carries the series it was read
 * for, so switching series never shows the previous series' locations.
 */
import { useMemo, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { Location, Series } from '@chronicler/schema';
import { useCurrentSeriesId } from '@/lib/currentSeries';
import type { ChroniclerDb } from '@/sync/db';
import { locationsOfSeries, seriesList } from '@/sync/queries';
import { pickSeriesId } from '../model/series-choice';

export interface WorldData {
  /** undefined while the first read runs. */
  series: Series[] | undefined;
  seriesId: string | null;
  selectSeries: (id: string | null) => void;
  current: Series | null;
  /** undefined while the shown series' locations load. */
  locations: Location[] | undefined;
}

export function useWorldData(db: ChroniclerDb): WorldData {
  const series = useLiveQuery(() => seriesList(db), [db]);
  const remembered = useCurrentSeriesId();
  const [chosen, setChosen] = useState<string | null>(null);

  const seriesId = useMemo(() => (series ? pickSeriesId(series.map((s) => s.id), chosen, remembered) : null), [series, chosen, remembered]);

  const rows = useLiveQuery(
    async () => (seriesId ? { seriesId, locations: await locationsOfSeries(db, seriesId) } : null),
    [db, seriesId],
  );

  const fresh = rows && rows.seriesId === seriesId ? rows.locations : undefined;
  return {
    series,
    seriesId,
    selectSeries: setChosen,
    current: series?.find((s) => s.id === seriesId) ?? null,
    locations: seriesId === null && series !== undefined ? [] : fresh,
  };
}
