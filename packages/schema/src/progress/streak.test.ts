import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from './day.ts';
import { DEFAULT_STREAK_SETTINGS, streakSummary, trendVsYesterday } from './streak.ts';

const today = '2026-11-25'; // a Wednesday
const written = (...daysAgo: number[]) => new Map(daysAgo.map((n) => [addDays(today, -n), 100]));

describe('streakSummary', () => {
  it('counts consecutive written days; today without words yet does not break it', () => {
    expect(streakSummary(written(0, 1, 2), today).current).toBe(3);
    expect(streakSummary(written(1, 2), today).current).toBe(2);
    expect(streakSummary(new Map(), today).current).toBe(0);
  });

  it('one missed day uses a monthly freeze instead of wiping the streak; freezes run out', () => {
    const settings = { ...DEFAULT_STREAK_SETTINGS, freezesPerMonth: 1 };
    expect(streakSummary(written(0, 1, 3, 4), today, settings).current).toBe(4);
    // 6,5 written, 4 frozen, 3 written, 2 missed with no freeze left: the run restarts at 1.
    expect(streakSummary(written(0, 1, 3, 5, 6), today, settings).current).toBe(2);
    expect(streakSummary(written(0, 1, 3, 5, 6), today, settings).longest).toBe(3);
    expect(streakSummary(written(0, 1, 3, 4), today, { ...settings, freezesPerMonth: 0 }).current).toBe(2);
  });

  it('rest days neither count nor break', () => {
    // 2026-11-22 is a Sunday (3 days ago).
    const settings = { ...DEFAULT_STREAK_SETTINGS, freezesPerMonth: 0, restDays: [0] };
    expect(streakSummary(written(0, 1, 2, 4, 5), today, settings).current).toBe(5);
  });

  it('a goal makes days under it not count', () => {
    const days = new Map([[today, 200], [addDays(today, -1), 50], [addDays(today, -2), 900]]);
    expect(streakSummary(days, today, { ...DEFAULT_STREAK_SETTINGS, freezesPerMonth: 0, goal: 100 }).current).toBe(1);
  });

  it('draws the last seven days oldest first', () => {
    const s = streakSummary(written(1, 2, 6), today, { ...DEFAULT_STREAK_SETTINGS, freezesPerMonth: 0 });
    expect(s.lastDays.map((d) => d.state)).toEqual(['written', 'missed', 'missed', 'missed', 'written', 'written', 'pending']);
    expect(s.lastDays[6]!.day).toBe(today);
  });

  it('properties: current ≤ longest ≤ written days; freezes never shorten a streak; without freezes more days never shorten it', () => {
    const history = fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { maxLength: 40 });
    fc.assert(
      fc.property(history, fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 3 }), (ago, extra, freezes) => {
        const settings = { ...DEFAULT_STREAK_SETTINGS, freezesPerMonth: freezes };
        const s = streakSummary(written(...ago), today, settings);
        expect(s.current).toBeLessThanOrEqual(s.longest);
        expect(s.longest).toBeLessThanOrEqual(ago.length);
        const strict = { ...DEFAULT_STREAK_SETTINGS, freezesPerMonth: 0 };
        const unfrozen = streakSummary(written(...ago), today, strict);
        expect(s.longest).toBeGreaterThanOrEqual(unfrozen.longest);
        expect(s.current).toBeGreaterThanOrEqual(unfrozen.current);
        // With freezes an earlier day may use up a month's freezes (they go to the first gaps): only the strict rule is monotone.
        expect(streakSummary(written(...ago, extra), today, strict).longest).toBeGreaterThanOrEqual(unfrozen.longest);
      }),
      { numRuns: 200 },
    );
  });
});

describe('trendVsYesterday', () => {
  it('is the real change against yesterday, not a fixed +14', () => {
    expect(trendVsYesterday(300, 200)).toEqual({ change: 100, percent: 50, direction: 'increase' });
    expect(trendVsYesterday(100, 200)).toEqual({ change: -100, percent: -50, direction: 'decrease' });
    expect(trendVsYesterday(100, 0)).toEqual({ change: 100, percent: null, direction: 'increase' });
    expect(trendVsYesterday(0, 0).direction).toBe('same');
  });
});
