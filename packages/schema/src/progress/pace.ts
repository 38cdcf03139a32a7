/**
 * Pace predictions (docs/decisions/0018-pace-predictions.md): from a book's goal (book-goal.ts),
 * its words and the author's counted words per writing day (the statistics: writing only — imports,
 * restores, restructures and pastes never count, counting.ts), how many words are left, how many a
 * writing day needs, when the book will be finished at the recent pace, and whether that is before
 * the deadline.
 *
 * Stable within a day: the pace is taken from the 14 complete days before today (today is still
 * being written), and the projection from the book's words at the start of today (a day snapshot,
 * `daySnapshot`); only "words to go" follows the words live. So a bad day moves nothing until
 * tomorrow, and then only as one day of fourteen. Days are the statistics' writing days (day.ts:
 * the author's zone, their day end, DST through Intl), handled here as day keys only, so a clock
 * change or a move of zone changes which day is today, never how days are counted.
 */
import { ALL_WEEKDAYS } from './book-goal.ts';
import { type DayKey, addDays } from './day.ts';

/** The trailing window the pace is measured over, in calendar days, ending yesterday. */
export const PACE_WINDOW_DAYS = 14;
/** A projection further away than this is "not within ten years" (no date shown). */
export const MAX_PROJECTION_DAYS = 3_653;
/** "Behind by" is rounded up to hundreds: a figure that reads as an estimate and holds still. */
export const BEHIND_ROUNDING_WORDS = 100;

export interface BookGoal {
  targetWords: number;
  deadline: DayKey | null;
  /** Weekdays (0 = Sunday) the book is written on; never empty. */
  writingDays: readonly number[];
  daysOff: readonly DayKey[];
}

/** The goal a book row holds, or null when it has none. */
export function bookGoalOf(book: {
  targetWords?: number | null;
  deadline?: string | null;
  writingDays?: readonly number[] | null;
  daysOff?: readonly string[] | null;
}): BookGoal | null {
  if (book.targetWords === null || book.targetWords === undefined || book.targetWords < 1) return null;
  return {
    targetWords: book.targetWords,
    deadline: book.deadline ?? null,
    writingDays: book.writingDays && book.writingDays.length > 0 ? book.writingDays : ALL_WEEKDAYS,
    daysOff: book.daysOff ?? [],
  };
}

/** A book's words at the start of a day: the figure its projection uses all that day. */
export interface PaceSnapshot {
  day: DayKey;
  words: number;
}

/** The day's snapshot: the stored one while it is today's, else the words now as today's. */
export function daySnapshot(stored: PaceSnapshot | null | undefined, today: DayKey, wordsNow: number): PaceSnapshot {
  return stored && stored.day === today ? stored : { day: today, words: wordsNow };
}

export type PaceStatus =
  /** The book has reached its target. */
  | 'reached'
  /** At the recent pace it is finished by the deadline. */
  | 'on-track'
  /** At the recent pace it is not: `behindBy` words short on the deadline. */
  | 'behind'
  /** No deadline: only the projected finish. */
  | 'no-deadline'
  /** No words in the last 14 days: nothing to project from. */
  | 'no-pace'
  /** The deadline is before today and the target not reached. */
  | 'deadline-passed';

export interface PaceProjection {
  today: DayKey;
  targetWords: number;
  deadline: DayKey | null;
  /** Target minus the words now (live), never below 0. */
  wordsToGo: number;
  /** Counted words per writing day over the window, rounded. */
  pacePerWritingDay: number;
  /** Writing days in the window (the pace's divisor). */
  windowWritingDays: number;
  /** Writing days from today to the deadline, both included; null without a deadline. */
  writingDaysLeft: number | null;
  /** Words each writing day left needs to meet the deadline; null without one or with none left. */
  neededPerWritingDay: number | null;
  /** The writing day the target is reached at the recent pace; null with no pace or beyond ten years. */
  projectedFinish: DayKey | null;
  status: PaceStatus;
  /** Words short on the deadline at the recent pace (rounded up to hundreds); 0 unless behind. */
  behindBy: number;
}

export interface PaceInput {
  goal: BookGoal;
  /** The book's words at the start of today (daySnapshot). */
  wordsAtDayStart: number;
  /** The book's words now. */
  wordsNow: number;
  /** The author's counted words of a writing day (writingStats.wordsWritten), 0 when none. */
  wordsOn: (day: DayKey) => number;
  today: DayKey;
}

const DAY_MS = 86_400_000;

/** A day key as whole days since 1970-01-01 (a Thursday). */
function dayNumber(day: DayKey): number {
  return Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
}

function dayKeyOf(n: number): DayKey {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

/** The goal's writing days as a test on day numbers: its weekdays, less its days off. */
function writingDayTest(goal: BookGoal): (n: number) => boolean {
  const weekdays = new Array<boolean>(7).fill(false);
  for (const w of goal.writingDays) if (w >= 0 && w <= 6) weekdays[w] = true;
  if (!weekdays.includes(true)) weekdays.fill(true);
  const off = new Set(goal.daysOff.map(dayNumber));
  return (n) => weekdays[(((n + 4) % 7) + 7) % 7]! && !off.has(n);
}

/** Whether `day` is a writing day of `goal`. */
export function isWritingDay(goal: BookGoal, day: DayKey): boolean {
  return writingDayTest(goal)(dayNumber(day));
}

/** Projects a book's finish from its goal, its words and the author's recent pace. */
export function projectPace(input: PaceInput): PaceProjection {
  const { goal, today, wordsOn } = input;
  const isWriting = writingDayTest(goal);
  const todayN = dayNumber(today);

  let windowWords = 0;
  let windowWritingDays = 0;
  for (let i = 1; i <= PACE_WINDOW_DAYS; i++) {
    // Every counted word of the window moves the book on, a day off's too; the divisor is the days
    // the author planned to write, so the pace is "words per writing day".
    windowWords += Math.max(0, wordsOn(addDays(today, -i)));
    if (isWriting(todayN - i)) windowWritingDays++;
  }
  const pace = windowWritingDays > 0 ? windowWords / windowWritingDays : 0;

  const wordsToGo = Math.max(0, goal.targetWords - input.wordsNow);
  const remaining = Math.max(0, goal.targetWords - input.wordsAtDayStart);
  const deadlineN = goal.deadline === null ? null : dayNumber(goal.deadline);

  let writingDaysLeft: number | null = null;
  if (deadlineN !== null) {
    writingDaysLeft = 0;
    for (let n = todayN; n <= deadlineN; n++) if (isWriting(n)) writingDaysLeft++;
  }

  let projectedFinish: DayKey | null = null;
  if (remaining > 0 && pace > 0) {
    let daysNeeded = Math.ceil(remaining / pace);
    for (let n = todayN; n <= todayN + MAX_PROJECTION_DAYS; n++) {
      if (isWriting(n) && --daysNeeded === 0) {
        projectedFinish = dayKeyOf(n);
        break;
      }
    }
  } else if (remaining === 0) projectedFinish = today;

  const neededPerWritingDay = writingDaysLeft !== null && writingDaysLeft > 0 ? Math.ceil(remaining / writingDaysLeft) : null;
  const base = {
    today,
    targetWords: goal.targetWords,
    deadline: goal.deadline,
    wordsToGo,
    pacePerWritingDay: Math.round(pace),
    windowWritingDays,
    writingDaysLeft,
    neededPerWritingDay,
    projectedFinish,
    behindBy: 0,
  };

  if (wordsToGo === 0 || remaining === 0) return { ...base, status: 'reached', wordsToGo: 0 };
  if (deadlineN !== null && deadlineN < todayN) return { ...base, status: 'deadline-passed' };
  if (pace === 0) return { ...base, status: 'no-pace' };
  if (deadlineN === null) return { ...base, status: 'no-deadline' };
  if (projectedFinish !== null && dayNumber(projectedFinish) <= deadlineN) return { ...base, status: 'on-track' };
  const short = remaining - pace * (writingDaysLeft ?? 0);
  return { ...base, status: 'behind', behindBy: Math.ceil(short / BEHIND_ROUNDING_WORDS) * BEHIND_ROUNDING_WORDS };
}

/** Counted words per day from the synced statistics rows, for `wordsOn`. */
export function wordsByDay(stats: readonly { day: DayKey; wordsWritten: number }[]): (day: DayKey) => number {
  const byDay = new Map<DayKey, number>();
  for (const s of stats) byDay.set(s.day, (byDay.get(s.day) ?? 0) + s.wordsWritten);
  return (day) => byDay.get(day) ?? 0;
}

/** A deadline's problem against today (client and server ask the same): null when it is fine. */
export function deadlineProblem(deadline: DayKey | null | undefined, today: DayKey): 'past' | null {
  return deadline !== null && deadline !== undefined && deadline < today ? 'past' : null;
}
