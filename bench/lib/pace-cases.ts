/**
 * The pace bench's case and timing loop (docs/decisions/0018-pace-predictions.md), run in Node and,
 * bundled, in Chromium: a series of `books` books, each with a goal (target, deadline, five writing
 * days, a few days off), over `days` days of the author's statistics — what the series' pace table
 * recomputes: the words per day from the synced rows, then every book's projection.
 */
import { type BookGoal, addDays, projectPace, wordsByDay } from '@chronicler/schema';

export interface PaceCase {
  today: string;
  stats: { day: string; wordsWritten: number }[];
  books: { goal: BookGoal; words: number }[];
}

export interface PaceTiming {
  books: number;
  days: number;
  /** Median of one whole recalculation (rows to words per day, then every projection). */
  medianMs: number;
  slowestMs: number;
  /** A checksum of the answers, so the work cannot be skipped and two runs can be compared. */
  finishes: number;
}

export function paceCase(books: number, days: number): PaceCase {
  const today = '2026-11-25';
  // A writer's two years: weekdays of 400–1,600 words, the odd weekend, some weeks off.
  const stats: PaceCase['stats'] = [];
  for (let i = 1; i <= days; i++) {
    const day = addDays(today, -i);
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    if ((i * 7) % 53 < 4) continue;
    if ((weekday === 0 || weekday === 6) && i % 3 !== 0) continue;
    stats.push({ day, wordsWritten: 400 + ((i * 997) % 1200) });
  }
  const list: PaceCase['books'] = Array.from({ length: books }, (_, b) => ({
    // Small targets finish soon; the large ones walk years of writing days (the projection's worst case).
    goal: {
      targetWords: 60_000 + b * 40_000,
      deadline: b % 5 === 4 ? null : addDays(today, 30 + b * 11),
      writingDays: b % 2 === 0 ? [1, 2, 3, 4, 5] : [0, 1, 2, 3, 4, 5, 6],
      daysOff: Array.from({ length: 12 }, (_, k) => addDays(today, 7 + k * 13 + b)),
    },
    words: (b * 7_919) % 55_000,
  }));
  return { today, stats, books: list };
}

/** One recalculation, as the pace hook does it; answers a checksum. */
export function recalculate(c: PaceCase): number {
  const wordsOn = wordsByDay(c.stats);
  let sum = 0;
  for (const { goal, words } of c.books) {
    const p = projectPace({ goal, wordsAtDayStart: words, wordsNow: words, wordsOn, today: c.today });
    sum += (p.projectedFinish ? Date.parse(p.projectedFinish) / 86_400_000 : 0) + p.behindBy + p.wordsToGo;
  }
  return sum;
}

export function runPaceBench(input: { rounds: number; books: number; days: number }): PaceTiming {
  const c = paceCase(input.books, input.days);
  const times: number[] = [];
  let finishes = 0;
  recalculate(c); // warm-up: the first call compiles
  for (let r = 0; r < input.rounds; r++) {
    const started = performance.now();
    finishes = recalculate(c);
    times.push(performance.now() - started);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return {
    books: input.books,
    days: input.days,
    medianMs: sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2,
    slowestMs: sorted[sorted.length - 1]!,
    finishes,
  };
}
