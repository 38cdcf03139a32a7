/**
 * Writing-progress rows and requests. Statistics, earned achievements and writing settings are
 * user-scoped synced rows (userId, no seriesId): the server writes them, the device keeps them.
 */
import { z } from 'zod';
import { syncedRowSchema } from '../entities.ts';
import type { Achievement } from './achievements.ts';

const id = z.uuid({ error: 'Must be a valid id' });
const dayKey = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Must be a date such as 2026-11-25' });

/** One author's figures for one writing day. `wordsWritten` is what counts (no pastes). */
export const writingStatSchema = syncedRowSchema.extend({
  userId: id,
  day: dayKey,
  wordsWritten: z.number().int(),
  wordsRemoved: z.number().int(),
  /** Words added by pastes: recorded, not counted. */
  wordsPasted: z.number().int(),
  edits: z.number().int(),
});
export type WritingStat = z.infer<typeof writingStatSchema>;

export const userAchievementSchema = syncedRowSchema.extend({
  userId: id,
  achievementId: z.string(),
  earnedAt: z.string(),
});
export type UserAchievement = z.infer<typeof userAchievementSchema>;
/** GET /api/user-achievements: the earned row with its achievement (000 §3). */
export type UserAchievementAnswer = UserAchievement & { achievement: Achievement };

/** The author's streak settings (their time zone is on their own record, `users.timeZone`). */
export const writingSettingsSchema = syncedRowSchema.extend({
  userId: id,
  dayEndHour: z.number().int(),
  restDays: z.array(z.number().int()),
  freezesPerMonth: z.number().int(),
  /** Daily word goal (Wordsmith and above); null: any word counts the day. */
  dailyGoal: z.number().int().nullable(),
});
export type WritingSettings = z.infer<typeof writingSettingsSchema>;

export const MAX_DAILY_GOAL = 100_000;
export const MAX_FREEZES_PER_MONTH = 5;

export const updateWritingSettingsBodySchema = z.strictObject({
  dayEndHour: z.number().int().min(0).max(12, { error: 'A day may end at most at 12:00' }).optional(),
  restDays: z
    .array(z.number().int().min(0).max(6))
    .max(6, { error: 'Keep at least one writing day a week' })
    .transform((d) => [...new Set(d)].sort((a, b) => a - b))
    .optional(),
  freezesPerMonth: z.number().int().min(0).max(MAX_FREEZES_PER_MONTH).optional(),
  dailyGoal: z.number().int().min(1, { error: 'A goal is at least 1 word' }).max(MAX_DAILY_GOAL).nullable().optional(),
});
export type UpdateWritingSettingsBody = z.input<typeof updateWritingSettingsBodySchema>;


export const STATS_PERIODS = ['day', 'week', 'month'] as const;
export type StatsPeriod = (typeof STATS_PERIODS)[number];
/** A query's days at most (a few years of daily figures). */
export const MAX_STATS_RANGE_DAYS = 3_700;

export const writingStatsQuerySchema = z.strictObject({
  period: z.enum(STATS_PERIODS).default('day'),
  from: dayKey.optional(),
  to: dayKey.optional(),
});

/** One entry of GET /api/writing-stats: `date` is the first day of the period. */
export interface WritingStatsEntry {
  period: StatsPeriod;
  date: string;
  wordsWritten: number;
  wordsRemoved: number;
  wordsPasted: number;
  netWords: number;
}
