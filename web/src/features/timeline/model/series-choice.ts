/**
 * Which series the page shows: the one chosen in its selector while it exists, else the current
 * series remembered under `chronicler:current-series` (lib/currentSeries), else the first series.
 */
export function pickSeriesId(seriesIds: readonly string[], chosen: string | null, remembered: string | null): string | null {
  if (chosen && seriesIds.includes(chosen)) return chosen;
  if (remembered && seriesIds.includes(remembered)) return remembered;
  return seriesIds[0] ?? null;
}
