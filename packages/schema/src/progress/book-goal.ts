/**
 * A book's goal (docs/decisions/0018-pace-predictions.md): a target word count and, optionally, a
 * deadline, the weekdays the author writes on and single days off. Synced book fields, merged like
 * any other field; the wire shapes here, the projection in pace.ts. No import of entities.ts (it
 * imports these), so the book schema and the update body take their fields from one place.
 */
import { z } from 'zod';

/** Every weekday, 0 = Sunday … 6 = Saturday: a book without chosen writing days is written on all. */
export const ALL_WEEKDAYS: readonly number[] = [0, 1, 2, 3, 4, 5, 6];
export const MAX_TARGET_WORDS = 10_000_000;
/** Single days off a book keeps (a year of them and more). */
export const MAX_DAYS_OFF = 400;

export const BOOK_GOAL_MESSAGES = {
  targetRequired: 'Enter a target word count',
  targetMin: 'A target is at least 1 word',
  targetMax: `A target is at most ${MAX_TARGET_WORDS.toLocaleString('en-US')} words`,
  targetBelowWritten: (written: number) =>
    `The target is below the ${written.toLocaleString('en-US')} words this book already has: choose at least ${written.toLocaleString('en-US')}`,
  deadlinePast: 'The deadline has passed: choose today or a later day',
  deadlineInvalid: 'Must be a date such as 2027-03-01',
  deadlineWithoutTarget: 'Set a target word count before a deadline',
  writingDaysEmpty: 'Keep at least one writing day a week',
  daysOffMax: `At most ${MAX_DAYS_OFF} days off`,
} as const;

const dayKey = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: BOOK_GOAL_MESSAGES.deadlineInvalid })
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), {
    error: BOOK_GOAL_MESSAGES.deadlineInvalid,
  });

/** The goal fields of a stored book row. Absent on books written before goals existed: no goal. */
export const bookGoalRowFields = {
  /** Words the finished book should have; null: no goal. */
  targetWords: z.number().int().nullable().optional(),
  /** The last day ('YYYY-MM-DD', the author's calendar) the book should be finished on; null: none. */
  deadline: z.string().nullable().optional(),
  /** Weekdays the author writes this book on; empty or absent: every day. */
  writingDays: z.array(z.number().int()).optional(),
  /** Single days the author will not write ('YYYY-MM-DD'), sorted. */
  daysOff: z.array(z.string()).optional(),
};

/** The goal fields of PUT /api/books/{id}: each optional, the target and deadline clearable with null. */
export const bookGoalBodyFields = {
  targetWords: z
    .number({ error: BOOK_GOAL_MESSAGES.targetRequired })
    .int({ error: BOOK_GOAL_MESSAGES.targetMin })
    .min(1, { error: BOOK_GOAL_MESSAGES.targetMin })
    .max(MAX_TARGET_WORDS, { error: BOOK_GOAL_MESSAGES.targetMax })
    .nullable()
    .optional(),
  deadline: dayKey.nullable().optional(),
  writingDays: z
    .array(z.number().int().min(0).max(6))
    .min(1, { error: BOOK_GOAL_MESSAGES.writingDaysEmpty })
    .max(7)
    .transform((d) => [...new Set(d)].sort((a, b) => a - b))
    .optional(),
  daysOff: z
    .array(dayKey)
    .max(MAX_DAYS_OFF, { error: BOOK_GOAL_MESSAGES.daysOffMax })
    .transform((d) => [...new Set(d)].sort())
    .optional(),
};

/** The names of the goal fields: a write that names one needs `pacePredictions` on the owner's plan. */
export const BOOK_GOAL_FIELDS = ['targetWords', 'deadline', 'writingDays', 'daysOff'] as const;
export type BookGoalField = (typeof BOOK_GOAL_FIELDS)[number];

export function touchesBookGoal(body: Partial<Record<BookGoalField, unknown>>): boolean {
  return BOOK_GOAL_FIELDS.some((f) => body[f] !== undefined);
}
