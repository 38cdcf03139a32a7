/**
 * The author's current series (spec 000 §2 "Current Series card", dashboard "Current Project"):
 * the series last selected on the Series page, remembered on this device under
 * `chronicler:current-series`. When nothing is stored, or the stored series is gone, the first
 * series (oldest) is current.
 *
 *   const id = useCurrentSeriesId();      // what is stored (may name a deleted series)
 *   setCurrentSeriesId(series.id);
 *   const series = useCurrentSeries();    // lib/useCurrentSeries: resolved against Dexie
 */
import { create } from 'zustand';
import { readLocal, removeLocal, writeLocal } from './storage';

export const CURRENT_SERIES_KEY = 'chronicler:current-series';

const useStore = create<{ id: string | null }>(() => ({ id: readLocal(CURRENT_SERIES_KEY) }));

export function useCurrentSeriesId(): string | null {
  return useStore((s) => s.id);
}

export function getCurrentSeriesId(): string | null {
  return useStore.getState().id;
}

export function setCurrentSeriesId(id: string | null): void {
  if (id === null) removeLocal(CURRENT_SERIES_KEY);
  else writeLocal(CURRENT_SERIES_KEY, id);
  if (useStore.getState().id !== id) useStore.setState({ id });
}

/** Tests and sign-out: read the stored choice again. */
export function reloadCurrentSeriesId(): void {
  useStore.setState({ id: readLocal(CURRENT_SERIES_KEY) });
}

// Another tab chose a series.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === CURRENT_SERIES_KEY || event.key === null) reloadCurrentSeriesId();
  });
}

/** The current series among `series` (oldest first): the stored one if it is there, else the first. */
export function pickCurrentSeries<T extends { id: string }>(series: readonly T[] | undefined, storedId: string | null): T | null {
  if (!series || series.length === 0) return null;
  return (storedId ? series.find((s) => s.id === storedId) : undefined) ?? series[0] ?? null;
}
