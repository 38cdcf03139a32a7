import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { updateBookBodySchema } from '../entities.ts';
import { BOOK_GOAL_MESSAGES } from './book-goal.ts';
import { addDays, writingDay } from './day.ts';
import { type BookGoal, PACE_WINDOW_DAYS, bookGoalOf, daySnapshot, isWritingDay, projectPace, wordsByDay } from './pace.ts';

const today = '2026-11-25'; // a Wednesday
const goal = (over: Partial<BookGoal> = {}): BookGoal => ({ targetWords: 80_000, deadline: null, writingDays: [0, 1, 2, 3, 4, 5, 6], daysOff: [], ...over });
/** `words` on each of the last `days` days before `from`. */
const history = (words: number, days = PACE_WINDOW_DAYS, from = today) =>
  wordsByDay(Array.from({ length: days }, (_, i) => ({ day: addDays(from, -1 - i), wordsWritten: words })));

describe('projectPace on known histories', () => {
  it('a deadline met: 1,000 words a day for two weeks, 20,000 to go, 30 days left', () => {
    const p = projectPace({ goal: goal({ deadline: addDays(today, 29) }), wordsAtDayStart: 60_000, wordsNow: 60_000, wordsOn: history(1000), today });
    expect(p.status).toBe('on-track');
    expect(p.wordsToGo).toBe(20_000);
    expect(p.pacePerWritingDay).toBe(1000);
    expect(p.writingDaysLeft).toBe(30);
    expect(p.neededPerWritingDay).toBe(667);
    // 20 writing days from today, today included.
    expect(p.projectedFinish).toBe(addDays(today, 19));
    expect(p.behindBy).toBe(0);
  });

  it('a slipping deadline: 500 a day does not cover 20,000 in 30 days, behind by 5,000 words', () => {
    const p = projectPace({ goal: goal({ deadline: addDays(today, 29) }), wordsAtDayStart: 60_000, wordsNow: 60_000, wordsOn: history(500), today });
    expect(p.status).toBe('behind');
    expect(p.behindBy).toBe(5_000);
    expect(p.projectedFinish).toBe(addDays(today, 39));
  });

  it('writing days only: weekdays at 1,000 a day, weekends off, is 1,000 a writing day', () => {
    const weekdays = [1, 2, 3, 4, 5];
    const stats = Array.from({ length: PACE_WINDOW_DAYS }, (_, i) => addDays(today, -1 - i))
      .filter((day) => weekdays.includes(new Date(`${day}T00:00:00Z`).getUTCDay()))
      .map((day) => ({ day, wordsWritten: 1000 }));
    const p = projectPace({ goal: goal({ writingDays: weekdays, targetWords: 65_000 }), wordsAtDayStart: 60_000, wordsNow: 60_000, wordsOn: wordsByDay(stats), today });
    expect(p.windowWritingDays).toBe(10);
    expect(p.pacePerWritingDay).toBe(1000);
    expect(p.status).toBe('no-deadline');
    // Wed, Thu, Fri, Mon, Tue: the weekend is skipped.
    expect(p.projectedFinish).toBe(addDays(today, 6));
  });

  it('days off are skipped by the projection and the days left', () => {
    const off = [addDays(today, 1), addDays(today, 2)];
    const p = projectPace({ goal: goal({ deadline: addDays(today, 9), daysOff: off, targetWords: 65_000 }), wordsAtDayStart: 60_000, wordsNow: 60_000, wordsOn: history(1000), today });
    expect(p.writingDaysLeft).toBe(8);
    expect(p.projectedFinish).toBe(addDays(today, 6));
    expect(isWritingDay(goal({ daysOff: off }), off[0]!)).toBe(false);
  });

  it('a bad day does not swing it: today is outside the window and the projection uses the day snapshot', () => {
    const input = { goal: goal({ deadline: addDays(today, 29) }), wordsAtDayStart: 60_000, wordsNow: 60_000, wordsOn: history(1000), today };
    const morning = projectPace(input);
    // Two hours of writing and then deleting a scene: words now are below the morning's, the projection holds.
    const evening = projectPace({ ...input, wordsNow: 59_200, wordsOn: (d) => (d === today ? 40 : input.wordsOn(d)) });
    expect(evening.status).toBe(morning.status);
    expect(evening.projectedFinish).toBe(morning.projectedFinish);
    expect(evening.neededPerWritingDay).toBe(morning.neededPerWritingDay);
    expect(evening.wordsToGo).toBe(20_800);
    // The snapshot keeps the day's first figure and is taken again the next day.
    const snap = daySnapshot(null, today, 60_000);
    expect(daySnapshot(snap, today, 59_200)).toEqual({ day: today, words: 60_000 });
    expect(daySnapshot(snap, addDays(today, 1), 59_200)).toEqual({ day: addDays(today, 1), words: 59_200 });
  });

  it('imports do not count: the pace comes from the statistics only, a book grown by an import just has fewer words to go', () => {
    const p = projectPace({ goal: goal({ deadline: addDays(today, 29) }), wordsAtDayStart: 75_000, wordsNow: 75_000, wordsOn: history(0), today });
    expect(p.pacePerWritingDay).toBe(0);
    expect(p.status).toBe('no-pace');
    expect(p.neededPerWritingDay).toBe(167);
  });

  it('reached, and a deadline that has passed', () => {
    expect(projectPace({ goal: goal(), wordsAtDayStart: 79_000, wordsNow: 80_100, wordsOn: history(1000), today }).status).toBe('reached');
    const late = projectPace({ goal: goal({ deadline: addDays(today, -1) }), wordsAtDayStart: 60_000, wordsNow: 60_000, wordsOn: history(1000), today });
    expect(late.status).toBe('deadline-passed');
    expect(late.neededPerWritingDay).toBeNull();
  });

  it('a time-zone move: today follows the new zone, each day of the statistics counts once', () => {
    // 2026-11-25 02:00 UTC: already the 25th (11:00) in Tokyo, still the 24th (21:00) in New York.
    const instant = Date.UTC(2026, 10, 25, 2);
    const tokyoToday = writingDay(instant, 'Asia/Tokyo');
    const newYorkToday = writingDay(instant, 'America/New_York');
    expect([tokyoToday, newYorkToday]).toEqual(['2026-11-25', '2026-11-24']);
    // Written in Tokyo until the 24th; the author flies to New York, where it is the 24th again.
    const words = history(1000, 20, '2026-11-25');
    const before = projectPace({ goal: goal({ targetWords: 70_000, deadline: '2026-12-31' }), wordsAtDayStart: 60_000, wordsNow: 60_000, wordsOn: words, today: tokyoToday });
    const after = projectPace({ goal: goal({ targetWords: 70_000, deadline: '2026-12-31' }), wordsAtDayStart: 60_000, wordsNow: 60_000, wordsOn: words, today: newYorkToday });
    // The 24th is today again in New York: being written, out of the window, not counted twice.
    expect(before.pacePerWritingDay).toBe(1000);
    expect(after.pacePerWritingDay).toBe(1000);
    expect(after.writingDaysLeft).toBe(before.writingDaysLeft! + 1);
    expect(after.projectedFinish).toBe(addDays(before.projectedFinish!, -1));
  });

  it('a daylight-saving change: the day ends at 04:00 local on both sides and the days left stay whole', () => {
    // New York springs forward at 07:00 UTC on 2027-03-14 (02:00 EST → 03:00 EDT).
    expect(writingDay(Date.UTC(2027, 2, 14, 7, 30), 'America/New_York')).toBe('2027-03-13'); // 03:30 EDT
    expect(writingDay(Date.UTC(2027, 2, 14, 8, 30), 'America/New_York')).toBe('2027-03-14'); // 04:30 EDT
    // And back on 2027-11-07 at 06:00 UTC (02:00 EDT → 01:00 EST): 04:00 EST is 09:00 UTC.
    expect(writingDay(Date.UTC(2027, 10, 7, 8, 30), 'America/New_York')).toBe('2027-11-06');
    expect(writingDay(Date.UTC(2027, 10, 7, 9, 30), 'America/New_York')).toBe('2027-11-07');
    const p = projectPace({ goal: goal({ targetWords: 74_000, deadline: '2027-03-20' }), wordsAtDayStart: 60_000, wordsNow: 60_000, wordsOn: history(1000, 14, '2027-03-10'), today: '2027-03-10' });
    expect(p.writingDaysLeft).toBe(11);
    expect(p.projectedFinish).toBe('2027-03-23');
    expect(p.status).toBe('behind');
    expect(p.behindBy).toBe(3_000);
  });
});

describe('projectPace properties', () => {
  const arbGoal = fc.record({
    targetWords: fc.integer({ min: 1, max: 200_000 }),
    deadline: fc.option(fc.integer({ min: -10, max: 400 }).map((n) => addDays(today, n)), { nil: null }),
    writingDays: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 7 }),
    daysOff: fc.uniqueArray(fc.integer({ min: -20, max: 400 }).map((n) => addDays(today, n)), { maxLength: 30 }),
  });
  const arbWords = fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: PACE_WINDOW_DAYS, maxLength: PACE_WINDOW_DAYS });

  it('on track exactly when the projected finish is a writing day on or before the deadline; more written never finishes later', () => {
    fc.assert(
      fc.property(arbGoal, arbWords, fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: 1, max: 5000 }), (g, days, written, more) => {
        const wordsOn = (d: string) => days[-1 - Math.round((Date.parse(d) - Date.parse(today)) / 86_400_000)] ?? 0;
        const p = projectPace({ goal: g, wordsAtDayStart: written, wordsNow: written, wordsOn, today });
        if (p.projectedFinish !== null && p.status !== 'reached') {
          expect(p.projectedFinish >= today).toBe(true);
          expect(isWritingDay(g, p.projectedFinish)).toBe(true);
        }
        if (p.status === 'on-track') expect(p.projectedFinish! <= g.deadline!).toBe(true);
        if (p.status === 'behind') expect(p.behindBy).toBeGreaterThan(0);
        const further = projectPace({ goal: g, wordsAtDayStart: written + more, wordsNow: written + more, wordsOn, today });
        if (p.projectedFinish !== null && further.projectedFinish !== null) expect(further.projectedFinish <= p.projectedFinish).toBe(true);
        if (p.status === 'on-track') expect(['on-track', 'reached']).toContain(further.status);
      }),
    );
  });
});

describe('the goal fields', () => {
  it('reads a book without a goal as none, and no chosen writing days as every day', () => {
    expect(bookGoalOf({})).toBeNull();
    expect(bookGoalOf({ targetWords: null })).toBeNull();
    expect(bookGoalOf({ targetWords: 1000, writingDays: [] })?.writingDays).toHaveLength(7);
  });

  it('refuses bad input with clear messages', () => {
    const issue = (body: unknown) => updateBookBodySchema.safeParse(body).error?.issues[0]?.message;
    expect(issue({ targetWords: 0 })).toBe(BOOK_GOAL_MESSAGES.targetMin);
    expect(issue({ targetWords: 20_000_000 })).toBe(BOOK_GOAL_MESSAGES.targetMax);
    expect(issue({ deadline: '2027-02-30' })).toBe(BOOK_GOAL_MESSAGES.deadlineInvalid);
    expect(issue({ writingDays: [] })).toBe(BOOK_GOAL_MESSAGES.writingDaysEmpty);
    expect(updateBookBodySchema.parse({ targetWords: 90_000, deadline: '2027-03-01', writingDays: [5, 1, 1], daysOff: ['2027-01-02', '2027-01-01'] })).toEqual({
      targetWords: 90_000,
      deadline: '2027-03-01',
      writingDays: [1, 5],
      daysOff: ['2027-01-01', '2027-01-02'],
    });
  });
});
