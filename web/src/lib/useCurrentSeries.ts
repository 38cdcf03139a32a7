import { useLiveQuery } from 'dexie-react-hooks';
import type { Series } from '@chronicler/schema';
import { seriesList } from '@chronicler/sync-client';
import { useOptionalSync } from '@/lib/sync';
import { pickCurrentSeries, useCurrentSeriesId } from './currentSeries';

export interface CurrentSeriesState {
  /** undefined while the local database is read; null when the author has no series. */
  series: Series | null | undefined;
  /** Every series, oldest first (undefined while loading). */
  all: Series[] | undefined;
}

/**
 * The current series, live from Dexie: the one stored under `chronicler:current-series`, else the
 * first. Works offline. Outside the signed-in part of the app it answers null.
 */
export function useCurrentSeries(): CurrentSeriesState {
  const sync = useOptionalSync();
  const storedId = useCurrentSeriesId();
  const db = sync?.db ?? null;
  const all = useLiveQuery(() => (db ? seriesList(db) : Promise.resolve([] as Series[])), [db]);
  if (!db) return { series: null, all: [] };
  if (all === undefined) return { series: undefined, all: undefined };
  return { series: pickCurrentSeries(all, storedId), all };
}
