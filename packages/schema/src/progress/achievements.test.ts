import { describe, expect, it } from 'vitest';
import { ACHIEVEMENTS, ACHIEVEMENT_TYPES, achievementsForPlan, newlyEarned, progressByType } from './achievements.ts';
import { aggregateStats } from './aggregate.ts';

const none = { streak: 0, words: 0, chapters: 0, characters: 0, locations: 0, books: 0 };

describe('the achievement catalogue', () => {
  it('has a rising ladder per type, 30+ basic achievements, more with expandedAchievements', () => {
    const basic = achievementsForPlan('apprentice');
    expect(basic.length).toBeGreaterThanOrEqual(30);
    expect(achievementsForPlan('wordsmith').length).toBeGreaterThan(basic.length);
    expect(achievementsForPlan('wordsmith')).toHaveLength(ACHIEVEMENTS.length);
    for (const type of ACHIEVEMENT_TYPES) {
      const values = ACHIEVEMENTS.filter((a) => a.type === type).map((a) => a.requiredValue);
      expect(values.length).toBeGreaterThanOrEqual(4);
      expect(values).toEqual([...values].sort((a, b) => a - b));
    }
    expect(ACHIEVEMENTS.find((a) => a.id === 'words-1000000')).toMatchObject({ expanded: false, type: 'words' });
    expect(ACHIEVEMENTS.find((a) => a.id === 'streak-365')).toBeDefined();
    expect(new Set(ACHIEVEMENTS.map((a) => a.id)).size).toBe(ACHIEVEMENTS.length);
  });

  it('earns every rung the progress reaches, once', () => {
    const catalogue = achievementsForPlan('apprentice');
    const first = newlyEarned(catalogue, { ...none, chapters: 5, words: 1200 }, new Set());
    expect(first.map((a) => a.id)).toEqual(['words-1000', 'chapters-1', 'chapters-5']);
    expect(newlyEarned(catalogue, { ...none, chapters: 5, words: 1200 }, new Set(first.map((a) => a.id)))).toEqual([]);
    expect(newlyEarned(catalogue, { ...none, streak: 3 }, new Set()).map((a) => a.id)).toEqual(['streak-3']);
  });

  it('counts earned/total per type', () => {
    const rows = progressByType(achievementsForPlan('apprentice'), new Set(['chapters-1']));
    expect(rows.find((r) => r.type === 'chapters')).toMatchObject({ earned: 1, total: 6 });
  });
});

describe('aggregateStats', () => {
  it('sums days into weeks (from Monday) and months', () => {
    const days = [
      { day: '2026-11-23', wordsWritten: 100, wordsRemoved: 10, wordsPasted: 0 },
      { day: '2026-11-29', wordsWritten: 50, wordsRemoved: 0, wordsPasted: 600 },
      { day: '2026-11-30', wordsWritten: 5, wordsRemoved: 0, wordsPasted: 0 },
    ];
    expect(aggregateStats(days, 'week').map((e) => [e.date, e.wordsWritten, e.netWords])).toEqual([
      ['2026-11-23', 150, 740],
      ['2026-11-30', 5, 5],
    ]);
    expect(aggregateStats(days, 'month')).toHaveLength(1);
    expect(aggregateStats(days, 'day')).toHaveLength(3);
  });
});
