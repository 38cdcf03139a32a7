/**
 * The dashboard's figures from the progress snapshot, with the shared rules of @chronicler/schema:
 * Words Today (synced day figure + words still in the outbox), the trend against yesterday, the
 * streak and its 7-day bar, the 30-day view, and the badges in newest-first order.
 */
import {
  ACHIEVEMENTS_BY_ID,
  DEFAULT_DAY_END_HOUR,
  DEFAULT_STREAK_SETTINGS,
  type Achievement,
  type PlanName,
  type StreakSettings,
  type StreakSummary,
  type Trend,
  type UserAchievement,
  type WritingSettings,
  addDays,
  hasFeature,
  isValidTimeZone,
  streakSummary,
  trendVsYesterday,
  writingDay,
} from '@chronicler/schema';
import type { ProgressSnapshot } from '@chronicler/sync-client';

export interface EarnedBadge {
  row: UserAchievement;
  achievement: Achievement;
}

export interface ProgressFigures {
  today: string;
  wordsToday: number;
  trend: Trend;
  streak: StreakSummary;
  /** The daily goal that counts a day (Wordsmith and above, when set); null: any word counts. */
  goal: number | null;
  /** The last 30 days, oldest first. */
  lastThirtyDays: { day: string; words: number }[];
  /** Earned achievements, newest first. */
  earned: EarnedBadge[];
  timeZone: string;
  settings: WritingSettings | null;
}

/** The browser's IANA zone (the author's zone until they choose one). */
export function browserTimeZone(): string {
  // Read at most once a minute: the dashboard's progress query asks at every change of the local
  // database, and each reading builds two Intl.DateTimeFormat (~1–3 ms on a phone).
  const now = Date.now();
  if (zoneCache && now - zoneCache.at < ZONE_CACHE_MS) return zoneCache.zone;
  const read = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const zone = read && isValidTimeZone(read) ? read : 'UTC';
  zoneCache = { zone, at: now };
  return zone;
}

const ZONE_CACHE_MS = 60_000;
let zoneCache: { zone: string; at: number } | null = null;

/** The daily goal that counts a day (Wordsmith and above, when set); null: any word counts. */
export function dailyGoalOf(settings: WritingSettings | null, plan: PlanName): number | null {
  return settings?.dailyGoal != null && hasFeature(plan, 'writingChallenges') ? settings.dailyGoal : null;
}

/** The author's streak rules from their settings (the dashboard's and the analytics page's). */
export function streakSettingsOf(settings: WritingSettings | null, plan: PlanName): StreakSettings {
  return {
    restDays: settings?.restDays ?? DEFAULT_STREAK_SETTINGS.restDays,
    freezesPerMonth: settings?.freezesPerMonth ?? DEFAULT_STREAK_SETTINGS.freezesPerMonth,
    goal: dailyGoalOf(settings, plan) ?? 1,
  };
}

export function progressFigures(snapshot: ProgressSnapshot, now: Date, plan: PlanName): ProgressFigures {
  const settings = snapshot.settings;
  const timeZone = snapshot.timeZone;
  const dayEndHour = settings?.dayEndHour ?? DEFAULT_DAY_END_HOUR;
  const today = writingDay(now, timeZone, dayEndHour);
  const goal = dailyGoalOf(settings, plan);
  const wordsOn = (day: string) => snapshot.dailyWords.get(day) ?? 0;
  const streak = streakSummary(snapshot.dailyWords, today, streakSettingsOf(settings, plan));
  const earned = snapshot.earned
    .flatMap((row) => {
      const achievement = ACHIEVEMENTS_BY_ID.get(row.achievementId);
      return achievement ? [{ row, achievement }] : [];
    })
    .sort((a, b) => b.row.earnedAt.localeCompare(a.row.earnedAt) || a.row.id.localeCompare(b.row.id));
  return {
    today,
    wordsToday: wordsOn(today),
    trend: trendVsYesterday(wordsOn(today), wordsOn(addDays(today, -1))),
    streak,
    goal,
    lastThirtyDays: Array.from({ length: 30 }, (_, i) => {
      const day = addDays(today, i - 29);
      return { day, words: wordsOn(day) };
    }),
    earned,
    timeZone,
    settings,
  };
}

/** "+12 from yesterday", "-3 from yesterday", "Same as yesterday" — with the percent when there is one. */
export function trendText(trend: Trend): string {
  if (trend.direction === 'same') return 'Same as yesterday';
  const sign = trend.change > 0 ? '+' : '';
  const percent = trend.percent === null ? '' : ` (${sign}${trend.percent}%)`;
  return `${sign}${trend.change.toLocaleString('en-US')}${percent} from yesterday`;
}
