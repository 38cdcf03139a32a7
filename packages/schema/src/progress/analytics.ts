/**
 * Writing analytics (the plan table's `analytics`; docs/decisions/0019-analytics-charts.md): the
 * author's writing over time, computed on the device from what it holds — the daily figures
 * (synced `writingStats` rows plus the outbox's words) and the counted saves of the edit log. Days,
 * weeks and months are the statistics' own (day.ts writing days, aggregate.ts periodStart), the
 * longest streak is streak.ts's: one rule each, never a second copy.
 */
import { periodStart } from './aggregate.ts';
import { type DayKey, addDays, localHour } from './day.ts';
import { type DailyWords, type StreakSettings, DEFAULT_STREAK_SETTINGS, streakSummary } from './streak.ts';
import type { StatsPeriod } from './wire.ts';

/** One counted save of the author's edit log (GET /api/writing-activity): when, where, how many words. */
export interface WritingActivity {
  /** The attributed time of the save (ISO 8601, UTC). */
  at: string;
  chapterId: string;
  seriesId: string;
  /** Counted words the save added (pastes and the kinds that are not writing are never here). */
  words: number;
}

/** Saves further apart than this start a new writing session. */
export const SESSION_GAP_MINUTES = 30;
/** How many periods the over-time chart shows, ending with the current one. */
export const ANALYTICS_PERIODS: Readonly<Record<StatsPeriod, number>> = { day: 30, week: 12, month: 12 };

export interface PeriodWords {
  /** The first day of the period (periodStart). */
  start: DayKey;
  words: number;
}

function previousPeriod(start: DayKey, period: StatsPeriod): DayKey {
  if (period === 'day') return addDays(start, -1);
  if (period === 'week') return addDays(start, -7);
  return periodStart(addDays(start, -1), 'month');
}

/** Counted words of the last `count` periods up to the one holding `today`, oldest first; a period without words is 0. */
export function wordsPerPeriod(daily: DailyWords, period: StatsPeriod, today: DayKey, count: number = ANALYTICS_PERIODS[period]): PeriodWords[] {
  const starts: DayKey[] = [];
  for (let start = periodStart(today, period), i = 0; i < count; i++, start = previousPeriod(start, period)) starts.push(start);
  starts.reverse();
  const words = new Map(starts.map((s) => [s, 0]));
  for (const [day, n] of daily) {
    const start = periodStart(day, period);
    const sum = words.get(start);
    if (sum !== undefined && n > 0) words.set(start, sum + n);
  }
  return starts.map((start) => ({ start, words: words.get(start)! }));
}

/** Counted words per local hour of the day (index 0 = 00:00–01:00) on the author's clock. */
export function wordsByHour(activity: readonly WritingActivity[], timeZone: string): number[] {
  const hours = new Array<number>(24).fill(0);
  for (const a of activity) hours[localHour(a.at, timeZone)]! += a.words;
  return hours;
}

/** The hour with the most words, null when there are none (the earlier hour wins a tie). */
export function peakHour(hours: readonly number[]): number | null {
  let best: number | null = null;
  hours.forEach((words, hour) => {
    if (words > 0 && (best === null || words > hours[best]!)) best = hour;
  });
  return best;
}

export interface WritingSession {
  start: string;
  end: string;
  /** Whole minutes from the first save to the last, at least 1 (a lone save is a minute's writing). */
  minutes: number;
  words: number;
}

/**
 * Runs of saves with no gap over `gapMinutes`, oldest first. Lengths are measured between instants,
 * so a session across a daylight-saving change is as long as it was, not as the wall clock says.
 */
export function writingSessions(activity: readonly WritingActivity[], gapMinutes: number = SESSION_GAP_MINUTES): WritingSession[] {
  const saves = activity.map((a) => ({ t: Date.parse(a.at), words: a.words })).filter((s) => Number.isFinite(s.t));
  saves.sort((a, b) => a.t - b.t);
  const sessions: WritingSession[] = [];
  let first = 0;
  let last = 0;
  let words = 0;
  const close = () => {
    sessions.push({
      start: new Date(first).toISOString(),
      end: new Date(last).toISOString(),
      minutes: Math.max(1, Math.ceil((last - first) / 60_000)),
      words,
    });
  };
  saves.forEach((s, i) => {
    if (i > 0 && s.t - last > gapMinutes * 60_000) close();
    if (i === 0 || s.t - last > gapMinutes * 60_000) {
      first = s.t;
      words = 0;
    }
    last = s.t;
    words += s.words;
  });
  if (saves.length > 0) close();
  return sessions;
}

/** The session-length bands the analytics page counts sessions in. */
export const SESSION_BANDS = [
  { label: 'Under 15 min', upTo: 14 },
  { label: '15–29 min', upTo: 29 },
  { label: '30–59 min', upTo: 59 },
  { label: '1–2 hours', upTo: 119 },
  { label: '2 hours or more', upTo: Infinity },
] as const;

export interface SessionSummary {
  count: number;
  longestMinutes: number;
  medianMinutes: number;
  /** Sessions per band of SESSION_BANDS, in its order. */
  bands: { label: string; sessions: number }[];
}

export function summariseSessions(sessions: readonly WritingSession[]): SessionSummary {
  const minutes = sessions.map((s) => s.minutes).sort((a, b) => a - b);
  const mid = Math.floor(minutes.length / 2);
  const median = minutes.length === 0 ? 0 : minutes.length % 2 ? minutes[mid]! : Math.round((minutes[mid - 1]! + minutes[mid]!) / 2);
  return {
    count: sessions.length,
    longestMinutes: minutes[minutes.length - 1] ?? 0,
    medianMinutes: median,
    bands: SESSION_BANDS.map((band, i) => ({
      label: band.label,
      sessions: minutes.filter((m) => m <= band.upTo && (i === 0 || m > SESSION_BANDS[i - 1]!.upTo)).length,
    })),
  };
}

export interface WordsByPlace {
  /** Counted words per book id, most first. */
  books: { id: string; words: number }[];
  /** Counted words per series id, most first. */
  series: { id: string; words: number }[];
  /** Words of chapters this device no longer holds (deleted for good, or a series left). */
  elsewhere: number;
}

/**
 * Counted words per book and per series. A chapter's words go to the book it is in now, so a
 * chapter moved to another book takes its statistics with it (docs/decisions/0014-trash-and-restructure.md).
 */
export function wordsByPlace(activity: readonly WritingActivity[], bookOfChapter: ReadonlyMap<string, string>): WordsByPlace {
  const books = new Map<string, number>();
  const series = new Map<string, number>();
  let elsewhere = 0;
  for (const a of activity) {
    series.set(a.seriesId, (series.get(a.seriesId) ?? 0) + a.words);
    const book = bookOfChapter.get(a.chapterId);
    if (book === undefined) elsewhere += a.words;
    else books.set(book, (books.get(book) ?? 0) + a.words);
  }
  const sorted = (m: Map<string, number>) => [...m].map(([id, words]) => ({ id, words })).sort((a, b) => b.words - a.words || (a.id < b.id ? -1 : 1));
  return { books: sorted(books), series: sorted(series), elsewhere };
}

export interface WritingTotals {
  words: number;
  writingDays: number;
  /** The day with the most words, null before the first. */
  bestDay: { day: DayKey; words: number } | null;
  currentStreak: number;
  longestStreak: number;
}

/** Lifetime figures from the daily words; streaks by the author's streak settings. */
export function writingTotals(daily: DailyWords, today: DayKey, settings: StreakSettings = DEFAULT_STREAK_SETTINGS): WritingTotals {
  let words = 0;
  let writingDays = 0;
  let bestDay: WritingTotals['bestDay'] = null;
  for (const [day, n] of daily) {
    if (n <= 0) continue;
    words += n;
    writingDays++;
    if (bestDay === null || n > bestDay.words || (n === bestDay.words && day < bestDay.day)) bestDay = { day, words: n };
  }
  const streak = streakSummary(daily, today, settings);
  return { words, writingDays, bestDay, currentStreak: streak.current, longestStreak: streak.longest };
}

/**
 * GET /api/writing-activity: the caller's counted saves folded into minutes per chapter, so years of
 * writing travel in a few hundred kilobytes — `chapters` once each, then one
 * `[minute since the epoch, index into chapters, counted words]` per minute a chapter was written in.
 */
export interface WritingActivityAnswer {
  chapters: { id: string; seriesId: string }[];
  minutes: [number, number, number][];
}

/** Folds saves into the answer's minutes, oldest first (the server's side). */
export function compactActivity(saves: Iterable<WritingActivity>): WritingActivityAnswer {
  const chapters: WritingActivityAnswer['chapters'] = [];
  const chapterIndex = new Map<string, number>();
  const byMinute = new Map<string, [number, number, number]>();
  for (const save of saves) {
    const t = Date.parse(save.at);
    if (!Number.isFinite(t) || save.words <= 0) continue;
    let index = chapterIndex.get(save.chapterId);
    if (index === undefined) {
      index = chapters.push({ id: save.chapterId, seriesId: save.seriesId }) - 1;
      chapterIndex.set(save.chapterId, index);
    }
    const minute = Math.floor(t / 60_000);
    const key = `${minute}:${index}`;
    const entry = byMinute.get(key);
    if (entry) entry[2] += save.words;
    else byMinute.set(key, [minute, index, save.words]);
  }
  const minutes = [...byMinute.values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return { chapters, minutes };
}

/** The answer back into saves, one per chapter and minute (the device's side). Malformed entries are skipped. */
export function expandActivity(answer: WritingActivityAnswer): WritingActivity[] {
  const out: WritingActivity[] = [];
  for (const entry of answer.minutes) {
    const [minute, index, words] = entry;
    const chapter = answer.chapters[index];
    if (!chapter || !Number.isFinite(minute) || !(words > 0)) continue;
    out.push({ at: new Date(minute * 60_000).toISOString(), chapterId: chapter.id, seriesId: chapter.seriesId, words });
  }
  return out;
}
