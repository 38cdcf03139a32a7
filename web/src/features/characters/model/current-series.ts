/**
 * The current series, remembered by the series screens in localStorage under
 * `chronicler:current-series`. Read directly (features do not import each other). The value is a
 * series id; a JSON string or `{id}` object is accepted too.
 */
import { readLocal } from '@/lib/storage';

export const CURRENT_SERIES_KEY = 'chronicler:current-series';

export function readCurrentSeriesId(): string | null {
  const raw = readLocal(CURRENT_SERIES_KEY);
  if (raw === null || raw.trim() === '') return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'string') return parsed || null;
    if (parsed && typeof parsed === 'object' && 'id' in parsed && typeof (parsed as { id: unknown }).id === 'string') {
      return (parsed as { id: string }).id;
    }
    if (typeof parsed === 'number') return String(parsed);
  } catch {
    /* a bare id */
  }
  return raw.trim();
}

/**
 * The series to show: the chosen one when it still exists, else the remembered current series,
 * else the first series; null when there are none.
 */
export function pickSeriesId(seriesIds: readonly string[], chosen: string | null, remembered: string | null): string | null {
  if (chosen && seriesIds.includes(chosen)) return chosen;
  if (remembered && seriesIds.includes(remembered)) return remembered;
  return seriesIds[0] ?? null;
}
