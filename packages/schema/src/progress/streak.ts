/**
 * Streaks and trends from daily figures (docs/spec-differences.md: computed, not the spec's fixed 7
 * and +14). A day is written when its counted words reach the goal (any word by default). Rest days
 * the author chose neither count nor break a streak; a missed day during a streak uses one of a few
 * automatic freezes of its calendar month; today without words yet is pending, not missed. Lifetime
 * totals never reset: only the run does.
 */
import { type DayKey, addDays, daysBetween } from './day.ts';

export const DEFAULT_FREEZES_PER_MONTH = 2;
/** The dashboard's streak bar (000 §2, §9). */
export const STREAK_BAR_DAYS = 7;

export interface StreakSettings {
  /** Weekdays (0 = Sunday) the author rests. */
  restDays: readonly number[];
  freezesPerMonth: number;
  /** Counted words a day needs to count (the Wordsmith daily goal; 1 otherwise). */
  goal: number;
}

export const DEFAULT_STREAK_SETTINGS: StreakSettings = { restDays: [], freezesPerMonth: DEFAULT_FREEZES_PER_MONTH, goal: 1 };

export type DayState = 'written' | 'rest' | 'frozen' | 'missed' | 'pending';

/** Counted words per day. */
export type DailyWords = ReadonlyMap<DayKey, number>;

function firstDay(days: DailyWords): DayKey | null {
  let first: DayKey | null = null;
  for (const [day, words] of days) if (words > 0 && (first === null || day < first)) first = day;
  return first;
}

/** The state of every day from the first written day to `today`, in order, with the run length after each. */
function scan(days: DailyWords, today: DayKey, settings: StreakSettings): { day: DayKey; state: DayState; run: number }[] {
  const start = firstDay(days);
  if (start === null || start > today) return [];
  const goal = Math.max(1, settings.goal);
  const out: { day: DayKey; state: DayState; run: number }[] = [];
  let run = 0;
  let month = '';
  let freezesUsed = 0;
  // One Date walked forward (a year of days is scanned on every evaluation: no parsing per day).
  const cursor = new Date(`${start}T00:00:00Z`);
  for (let i = 0, n = daysBetween(start, today); i <= n; i++, cursor.setUTCDate(cursor.getUTCDate() + 1)) {
    const day = cursor.toISOString().slice(0, 10);
    if (day.slice(0, 7) !== month) {
      month = day.slice(0, 7);
      freezesUsed = 0;
    }
    let state: DayState;
    if ((days.get(day) ?? 0) >= goal) {
      state = 'written';
      run++;
    } else if (day === today) state = 'pending';
    else if (settings.restDays.includes(cursor.getUTCDay())) state = 'rest';
    else if (run > 0 && freezesUsed < settings.freezesPerMonth) {
      state = 'frozen';
      freezesUsed++;
    } else {
      state = 'missed';
      run = 0;
    }
    out.push({ day, state, run });
  }
  return out;
}

export interface StreakSummary {
  /** Written days in the run that is still alive today. */
  current: number;
  longest: number;
  /** The last STREAK_BAR_DAYS days, oldest first. */
  lastDays: { day: DayKey; state: DayState | 'none' }[];
}

export function streakSummary(days: DailyWords, today: DayKey, settings: StreakSettings = DEFAULT_STREAK_SETTINGS): StreakSummary {
  const scanned = scan(days, today, settings);
  const last = scanned[scanned.length - 1];
  const byDay = new Map(scanned.map((s) => [s.day, s.state]));
  const lastDays = Array.from({ length: STREAK_BAR_DAYS }, (_, i) => {
    const day = addDays(today, i - (STREAK_BAR_DAYS - 1));
    return { day, state: byDay.get(day) ?? ('none' as const) };
  });
  return {
    current: last?.run ?? 0,
    longest: scanned.reduce((m, s) => Math.max(m, s.run), 0),
    lastDays,
  };
}

export interface Trend {
  change: number;
  /** Percent against yesterday, rounded; null when yesterday had no words. */
  percent: number | null;
  direction: 'increase' | 'decrease' | 'same';
}

/** Today's words against yesterday's (the Words Today card). */
export function trendVsYesterday(today: number, yesterday: number): Trend {
  const change = today - yesterday;
  return {
    change,
    percent: yesterday > 0 ? Math.round((change / yesterday) * 100) : null,
    direction: change > 0 ? 'increase' : change < 0 ? 'decrease' : 'same',
  };
}
