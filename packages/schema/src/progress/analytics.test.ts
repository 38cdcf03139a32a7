import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type WritingActivity,
  compactActivity,
  expandActivity,
  peakHour,
  summariseSessions,
  wordsByHour,
  wordsByPlace,
  wordsPerPeriod,
  writingSessions,
  writingTotals,
} from './analytics.ts';
import { writingDay } from './day.ts';

const save = (at: string, words: number, chapterId = 'c1', seriesId = 's1'): WritingActivity => ({ at, chapterId, seriesId, words });

describe('wordsPerPeriod', () => {
  const daily = new Map([
    ['2026-11-25', 500], // Wednesday
    ['2026-11-23', 200], // Monday, same week
    ['2026-11-22', 100], // Sunday: the week before
    ['2026-10-31', 50],
    ['2025-01-01', 9_999], // outside every window
  ]);

  it('days: the last 30, oldest first, empty days 0', () => {
    const days = wordsPerPeriod(daily, 'day', '2026-11-25');
    expect(days).toHaveLength(30);
    expect(days[0]!.start).toBe('2026-10-27');
    expect(days.at(-1)).toEqual({ start: '2026-11-25', words: 500 });
    expect(days.find((d) => d.start === '2026-11-24')!.words).toBe(0);
  });

  it('weeks start on Monday, as the statistics API counts them', () => {
    const weeks = wordsPerPeriod(daily, 'week', '2026-11-25', 3);
    expect(weeks).toEqual([
      { start: '2026-11-09', words: 0 },
      { start: '2026-11-16', words: 100 },
      { start: '2026-11-23', words: 700 },
    ]);
  });

  it('months go back across a year end', () => {
    const months = wordsPerPeriod(daily, 'month', '2026-11-25', 12);
    expect(months[0]!.start).toBe('2025-12-01');
    expect(months.at(-2)).toEqual({ start: '2026-10-01', words: 50 });
    expect(months.at(-1)).toEqual({ start: '2026-11-01', words: 800 });
  });

  it('the periods cover every word of the window exactly once (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 29 }), fc.integer({ min: 1, max: 3000 })), { maxLength: 40 }), (entries) => {
        const map = new Map<string, number>();
        for (const [ago, n] of entries) {
          const day = new Date(Date.UTC(2026, 10, 25 - ago)).toISOString().slice(0, 10);
          map.set(day, n);
        }
        const total = [...map.values()].reduce((a, b) => a + b, 0);
        expect(wordsPerPeriod(map, 'day', '2026-11-25').reduce((a, p) => a + p.words, 0)).toBe(total);
        // Six weeks back always hold the last 30 days.
        expect(wordsPerPeriod(map, 'week', '2026-11-25', 6).reduce((a, p) => a + p.words, 0)).toBe(total);
      }),
    );
  });
});

describe('wordsByHour', () => {
  it('counts on the author’s wall clock, not UTC', () => {
    const hours = wordsByHour([save('2026-11-25T02:30:00Z', 300), save('2026-11-25T13:05:00Z', 40)], 'America/New_York');
    expect(hours[21]).toBe(300); // 21:30 the evening before in New York
    expect(hours[8]).toBe(40);
    expect(hours.reduce((a, b) => a + b, 0)).toBe(340);
    expect(peakHour(hours)).toBe(21);
    expect(peakHour(new Array(24).fill(0))).toBeNull();
  });

  it('follows a daylight-saving change: the same UTC hour is 22:00 in winter and 23:00 in summer in Berlin', () => {
    const hours = wordsByHour([save('2026-03-28T21:15:00Z', 10), save('2026-03-29T21:15:00Z', 20)], 'Europe/Berlin');
    expect(hours[22]).toBe(10);
    expect(hours[23]).toBe(20);
  });
});

describe('writingSessions', () => {
  it('splits at a gap over 30 minutes and measures from the first save to the last', () => {
    const sessions = writingSessions([
      save('2026-11-25T20:00:00Z', 100),
      save('2026-11-25T20:29:00Z', 50),
      save('2026-11-25T20:50:00Z', 25), // 21 minutes later: same session
      save('2026-11-25T21:30:00Z', 10), // 40 minutes later: a new one
    ]);
    expect(sessions).toEqual([
      { start: '2026-11-25T20:00:00.000Z', end: '2026-11-25T20:50:00.000Z', minutes: 50, words: 175 },
      { start: '2026-11-25T21:30:00.000Z', end: '2026-11-25T21:30:00.000Z', minutes: 1, words: 10 },
    ]);
  });

  it('takes saves in any order', () => {
    const sessions = writingSessions([save('2026-11-25T20:20:00Z', 1), save('2026-11-25T20:00:00Z', 1)]);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.minutes).toBe(20);
  });

  it('a session across the autumn clock change lasts its real 40 minutes (New York: 01:50 EDT → 01:30 EST)', () => {
    // 05:50Z is 01:50 EDT; 06:30Z is 01:30 EST after the clocks went back: the wall clock says −20 min.
    const sessions = writingSessions([save('2026-11-01T05:50:00Z', 100), save('2026-11-01T06:10:00Z', 100), save('2026-11-01T06:30:00Z', 100)]);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.minutes).toBe(40);
    // …and the whole session is one writing day, the one it started on (days end at 04:00).
    expect(writingDay(sessions[0]!.start, 'America/New_York')).toBe('2026-10-31');
    expect(writingDay(sessions[0]!.end, 'America/New_York')).toBe('2026-10-31');
  });

  it('every save is in exactly one session and no session is longer than its saves allow (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 3 * 24 * 60 }), fc.integer({ min: 1, max: 500 })), { maxLength: 60 }), (raw) => {
        const base = Date.UTC(2026, 10, 20);
        const activity = raw.map(([minute, words]) => save(new Date(base + minute * 60_000).toISOString(), words));
        const sessions = writingSessions(activity);
        expect(sessions.reduce((a, s) => a + s.words, 0)).toBe(activity.reduce((a, s) => a + s.words, 0));
        for (let i = 1; i < sessions.length; i++) expect(Date.parse(sessions[i]!.start) - Date.parse(sessions[i - 1]!.end)).toBeGreaterThan(30 * 60_000);
        const summary = summariseSessions(sessions);
        expect(summary.bands.reduce((a, b) => a + b.sessions, 0)).toBe(sessions.length);
      }),
    );
  });
});

describe('summariseSessions', () => {
  it('longest, median and bands', () => {
    const at = (minutes: number) => ({ start: '', end: '', minutes, words: 1 });
    const summary = summariseSessions([at(10), at(20), at(45), at(150)]);
    expect(summary.count).toBe(4);
    expect(summary.longestMinutes).toBe(150);
    expect(summary.medianMinutes).toBe(33);
    expect(summary.bands.map((b) => b.sessions)).toEqual([1, 1, 1, 0, 1]);
    expect(summariseSessions([])).toMatchObject({ count: 0, longestMinutes: 0, medianMinutes: 0 });
  });
});

describe('wordsByPlace', () => {
  it('a chapter’s words go to the book it is in now; chapters this device no longer has are counted apart', () => {
    const activity = [save('2026-11-25T20:00:00Z', 100, 'c1', 's1'), save('2026-11-25T20:10:00Z', 40, 'c2', 's1'), save('2026-11-25T20:20:00Z', 7, 'gone', 's2')];
    const places = wordsByPlace(activity, new Map([['c1', 'book-2'], ['c2', 'book-1']]));
    expect(places.books).toEqual([
      { id: 'book-2', words: 100 },
      { id: 'book-1', words: 40 },
    ]);
    expect(places.series).toEqual([
      { id: 's1', words: 140 },
      { id: 's2', words: 7 },
    ]);
    expect(places.elsewhere).toBe(7);
  });
});

describe('writingTotals', () => {
  it('lifetime words, writing days, best day and the streak rules’ longest run', () => {
    const daily = new Map([
      ['2026-11-01', 300],
      ['2026-11-02', 300],
      ['2026-11-03', 900],
      ['2026-11-10', 100],
      ['2026-11-25', 50],
    ]);
    const totals = writingTotals(daily, '2026-11-25', { restDays: [], freezesPerMonth: 0, goal: 1 });
    expect(totals).toEqual({ words: 1650, writingDays: 5, bestDay: { day: '2026-11-03', words: 900 }, currentStreak: 1, longestStreak: 3 });
  });

  it('a new author has nothing yet', () => {
    expect(writingTotals(new Map(), '2026-11-25')).toEqual({ words: 0, writingDays: 0, bestDay: null, currentStreak: 0, longestStreak: 0 });
  });
});

describe('compactActivity / expandActivity', () => {
  it('folds saves into minutes per chapter and back, losing no word', () => {
    const saves = [
      save('2026-11-25T20:00:10Z', 10, 'c1'),
      save('2026-11-25T20:00:50Z', 5, 'c1'),
      save('2026-11-25T20:00:30Z', 7, 'c2', 's2'),
      save('2026-11-25T19:59:59Z', 1, 'c1'),
      save('not a time', 3, 'c1'),
    ];
    const answer = compactActivity(saves);
    expect(answer.chapters).toEqual([
      { id: 'c1', seriesId: 's1' },
      { id: 'c2', seriesId: 's2' },
    ]);
    expect(answer.minutes).toHaveLength(3);
    const back = expandActivity(answer);
    expect(back.map((s) => [s.at, s.chapterId, s.words])).toEqual([
      ['2026-11-25T19:59:00.000Z', 'c1', 1],
      ['2026-11-25T20:00:00.000Z', 'c1', 15],
      ['2026-11-25T20:00:00.000Z', 'c2', 7],
    ]);
    expect(expandActivity({ chapters: [], minutes: [[1, 0, 5]] })).toEqual([]);
  });
});
