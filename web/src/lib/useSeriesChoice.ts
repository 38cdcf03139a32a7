/**
 * The series a series-scoped page (Characters, World, Timeline) shows, live from the local database
 * (docs/architecture.md#the-data-loop): the one chosen in the page's selector while it exists, else
 * the current series remembered under `chronicler:current-series` (lib/currentSeries, set by the
 * series screens), else the first series; null when there are none.
 */
import { useMemo, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { Series } from '@chronicler/schema';
import type { ChroniclerDb } from '@chronicler/sync-client';
import { seriesList } from '@chronicler/sync-client';
import { useCurrentSeriesId } from './currentSeries';

export function pickSeriesId(seriesIds: readonly string[], chosen: string | null, remembered: string | null): string | null {
  if (chosen && seriesIds.includes(chosen)) return chosen;
  if (remembered && seriesIds.includes(remembered)) return remembered;
  return seriesIds[0] ?? null;
}

export interface SeriesChoice {
  /** undefined while the first read runs. */
  series: Series[] | undefined;
  seriesId: string | null;
  selectSeries: (id: string) => void;
  current: Series | null;
}

export function useSeriesChoice(db: ChroniclerDb): SeriesChoice {
  const series = useLiveQuery(() => seriesList(db), [db]);
  const remembered = useCurrentSeriesId();
  const [chosen, setChosen] = useState<string | null>(null);
  const seriesId = useMemo(() => (series ? pickSeriesId(series.map((s) => s.id), chosen, remembered) : null), [series, chosen, remembered]);
  const current = useMemo(() => series?.find((s) => s.id === seriesId) ?? null, [series, seriesId]);
  return { series, seriesId, selectSeries: setChosen, current };
}
