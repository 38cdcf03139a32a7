/**
 * Daily figures into the entries of GET /api/writing-stats and the dashboard's numbers: one rule
 * for the server's answer and the device's view of its synced rows.
 */
import { type DayKey, addDays, weekdayOf } from './day.ts';
import type { StatsPeriod, WritingStatsEntry } from './wire.ts';

export interface DayFigures {
  day: DayKey;
  wordsWritten: number;
  wordsRemoved: number;
  wordsPasted: number;
}

/** The first day of the period holding `day`: itself, its Monday, or the 1st of its month. */
export function periodStart(day: DayKey, period: StatsPeriod): DayKey {
  if (period === 'day') return day;
  if (period === 'month') return `${day.slice(0, 7)}-01`;
  return addDays(day, -((weekdayOf(day) + 6) % 7));
}

/** Sums daily figures per period, oldest first. */
export function aggregateStats(days: readonly DayFigures[], period: StatsPeriod): WritingStatsEntry[] {
  const byStart = new Map<DayKey, WritingStatsEntry>();
  for (const d of days) {
    const date = periodStart(d.day, period);
    let entry = byStart.get(date);
    if (!entry) {
      entry = { period, date, wordsWritten: 0, wordsRemoved: 0, wordsPasted: 0, netWords: 0 };
      byStart.set(date, entry);
    }
    entry.wordsWritten += d.wordsWritten;
    entry.wordsRemoved += d.wordsRemoved;
    entry.wordsPasted += d.wordsPasted;
    entry.netWords += d.wordsWritten + d.wordsPasted - d.wordsRemoved;
  }
  return [...byStart.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}
