/**
 * The analytics page's figures (docs/decisions/0019-analytics-charts.md): the shared rules of
 * @chronicler/schema applied to the progress snapshot (daily words, synced and in the outbox) and to
 * the counted saves of GET /api/writing-activity, with the names of the author's books and series.
 * Pure: the screen and its tests feed it.
 */
import {
  type PeriodWords,
  type PlanName,
  type SessionSummary,
  type StatsPeriod,
  type WritingActivity,
  type WritingTotals,
  DEFAULT_DAY_END_HOUR,
  addDays,
  peakHour,
  summariseSessions,
  wordsByHour,
  wordsByPlace,
  wordsPerPeriod,
  writingDay,
  writingSessions,
  writingTotals,
} from '@chronicler/schema';
import type { ProgressSnapshot } from '@chronicler/sync-client';
import { streakSettingsOf } from './figures';

export interface PlaceNames {
  /** Book id → its title and its series' title. */
  books: ReadonlyMap<string, { title: string; seriesTitle: string }>;
  series: ReadonlyMap<string, string>;
  /** Chapter id → the book it is in now. */
  bookOfChapter: ReadonlyMap<string, string>;
}

export interface NamedWords {
  id: string;
  label: string;
  words: number;
}

export interface AnalyticsFigures {
  today: string;
  timeZone: string;
  totals: WritingTotals;
  periods: Record<StatsPeriod, PeriodWords[]>;
  /** Words per local hour, 0–23; null while the edit log is not on this device. */
  hours: number[] | null;
  peakHour: number | null;
  sessions: SessionSummary | null;
  books: NamedWords[] | null;
  series: NamedWords[] | null;
  /** Words of chapters no longer on this device. */
  elsewhere: number;
}

function named(rows: readonly { id: string; words: number }[], label: (id: string) => string): NamedWords[] {
  return rows.map((row) => ({ id: row.id, label: label(row.id), words: row.words }));
}

/** Every figure of the page; `activity` null: the saves have not reached this device yet (offline, first visit). */
export function analyticsFigures(
  snapshot: Pick<ProgressSnapshot, 'dailyWords' | 'settings' | 'timeZone'>,
  activity: readonly WritingActivity[] | null,
  names: PlaceNames,
  now: Date,
  plan: PlanName,
): AnalyticsFigures {
  const { dailyWords, settings, timeZone } = snapshot;
  const today = writingDay(now, timeZone, settings?.dayEndHour ?? DEFAULT_DAY_END_HOUR);
  const periods = {
    day: wordsPerPeriod(dailyWords, 'day', today),
    week: wordsPerPeriod(dailyWords, 'week', today),
    month: wordsPerPeriod(dailyWords, 'month', today),
  };
  const totals = writingTotals(dailyWords, today, streakSettingsOf(settings, plan));
  if (activity === null) return { today, timeZone, totals, periods, hours: null, peakHour: null, sessions: null, books: null, series: null, elsewhere: 0 };
  const hours = wordsByHour(activity, timeZone);
  const places = wordsByPlace(activity, names.bookOfChapter);
  return {
    today,
    timeZone,
    totals,
    periods,
    hours,
    peakHour: peakHour(hours),
    sessions: summariseSessions(writingSessions(activity)),
    books: named(places.books, (id) => {
      const book = names.books.get(id);
      return book ? `${book.title} (${book.seriesTitle})` : 'A book no longer here';
    }),
    series: named(places.series, (id) => names.series.get(id) ?? 'A series no longer here'),
    elsewhere: places.elsewhere,
  };
}

/** Whether there is anything to show: a new author has no words yet. */
export function hasWriting(figures: AnalyticsFigures): boolean {
  return figures.totals.words > 0 || (figures.books?.length ?? 0) > 0;
}

// ---- labels -------------------------------------------------------------------------------------

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Nov 25", "Week of Nov 23", "Nov 2026": a period by its first day. */
export function periodLabel(start: string, period: StatsPeriod): string {
  const [y, m, d] = start.split('-').map(Number) as [number, number, number];
  const month = MONTHS[m - 1]!;
  if (period === 'month') return `${month} ${y}`;
  if (period === 'week') return `Week of ${month} ${d}`;
  return `${month} ${d}`;
}

/** "21:00–22:00". */
export function hourLabel(hour: number): string {
  const two = (h: number) => String(h % 24).padStart(2, '0');
  return `${two(hour)}:00–${two(hour + 1)}:00`;
}

/** "45 min", "1 h 20 min". */
export function minutesLabel(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

// ---- the preview a plan without analytics sees --------------------------------------------------

/**
 * A made-up author's figures, the same for everyone, drawn under the upgrade prompt so an author
 * without `analytics` sees what the page would show them (never an empty screen).
 */
export function sampleAnalytics(now: Date): AnalyticsFigures {
  const today = writingDay(now, 'UTC');
  const daily = new Map<string, number>();
  const activity: WritingActivity[] = [];
  const chapters = ['sample-1', 'sample-2', 'sample-3'];
  for (let ago = 0; ago < 120; ago++) {
    // A steady evening writer who rests about one day in four.
    const seed = (ago * 7919) % 101;
    if (seed % 4 === 0) continue;
    const words = 250 + ((seed * 37) % 900);
    const day = addDays(today, -ago);
    daily.set(day, words);
    const evening = Date.parse(`${day}T19:00:00Z`) + (seed % 3) * 3_600_000;
    for (let save = 0; save < 4; save++) {
      activity.push({ at: new Date(evening + save * 12 * 60_000).toISOString(), chapterId: chapters[seed % 3]!, seriesId: 'sample-series', words: Math.round(words / 4) });
    }
  }
  const names: PlaceNames = {
    books: new Map([
      ['sample-book-1', { title: 'The First Book', seriesTitle: 'Your Series' }],
      ['sample-book-2', { title: 'The Second Book', seriesTitle: 'Your Series' }],
    ]),
    series: new Map([['sample-series', 'Your Series']]),
    bookOfChapter: new Map([
      ['sample-1', 'sample-book-1'],
      ['sample-2', 'sample-book-1'],
      ['sample-3', 'sample-book-2'],
    ]),
  };
  return analyticsFigures({ dailyWords: daily, settings: null, timeZone: 'UTC' }, activity, names, now, 'wordsmith');
}
