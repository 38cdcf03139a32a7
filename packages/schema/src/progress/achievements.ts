/**
 * The achievements catalogue (000 §3) and its evaluation. Each type has a ladder; the plan table's
 * `expandedAchievements` flag adds higher rungs for Wordsmith and above. Ids are stable strings:
 * earned rows refer to them.
 */
import { type PlanName, hasFeature } from '../plans.ts';

export const ACHIEVEMENT_TYPES = ['streak', 'words', 'chapters', 'characters', 'locations', 'books'] as const;
export type AchievementType = (typeof ACHIEVEMENT_TYPES)[number];

export interface Achievement {
  id: string;
  name: string;
  description: string;
  /** An icon name the web app maps to a glyph. */
  icon: string;
  type: AchievementType;
  category: string;
  requiredValue: number;
  /** Only with the plan's `expandedAchievements`. */
  expanded: boolean;
}

interface Rung {
  value: number;
  name: string;
  expanded?: true;
}

const TYPE_INFO: Record<AchievementType, { category: string; icon: string; unit: string; describe: (v: string) => string }> = {
  streak: { category: 'Streaks', icon: 'flame', unit: 'days', describe: (v) => `Write ${v} days in a row` },
  words: { category: 'Words', icon: 'pencil', unit: 'words', describe: (v) => `Write ${v} words` },
  chapters: { category: 'Chapters', icon: 'file-text', unit: 'chapters', describe: (v) => (v === '1' ? 'Create your first chapter' : `Create ${v} chapters`) },
  characters: { category: 'Characters', icon: 'users', unit: 'characters', describe: (v) => (v === '1' ? 'Create your first character' : `Create ${v} characters`) },
  locations: { category: 'Locations', icon: 'map-pin', unit: 'locations', describe: (v) => (v === '1' ? 'Create your first location' : `Create ${v} locations`) },
  books: { category: 'Books', icon: 'book', unit: 'books', describe: (v) => (v === '1' ? 'Complete your first book' : `Complete ${v} books`) },
};

const LADDERS: Record<AchievementType, readonly Rung[]> = {
  streak: [
    { value: 3, name: 'Warming Up' },
    { value: 7, name: 'Week of Words' },
    { value: 14, name: 'Fortnight Focus' },
    { value: 30, name: 'Monthly Devotion' },
    { value: 60, name: 'Habit Formed' },
    { value: 100, name: 'Centurion' },
    { value: 180, name: 'Half-Year Scribe' },
    { value: 365, name: 'Year of Writing' },
    { value: 500, name: 'Unbroken Quill', expanded: true },
    { value: 730, name: 'Two-Year Chronicle', expanded: true },
  ],
  words: [
    { value: 1_000, name: 'First Thousand' },
    { value: 5_000, name: 'Short Story' },
    { value: 10_000, name: 'Ten Thousand Strong' },
    { value: 25_000, name: 'Novelette' },
    { value: 50_000, name: 'Novel Length' },
    { value: 100_000, name: 'Epic Tome' },
    { value: 250_000, name: 'Saga Builder' },
    { value: 500_000, name: 'Half a Million' },
    { value: 1_000_000, name: 'Millionaire of Words' },
    { value: 2_000_000, name: 'Prolific Chronicler', expanded: true },
    { value: 5_000_000, name: 'Living Library', expanded: true },
  ],
  chapters: [
    { value: 1, name: 'First Chapter' },
    { value: 5, name: 'Finding the Thread' },
    { value: 10, name: 'Ten Chapters' },
    { value: 25, name: 'Chapter Crafter' },
    { value: 50, name: 'Storyteller' },
    { value: 100, name: 'Hundred Chapters' },
    { value: 250, name: 'Chapter Architect', expanded: true },
    { value: 500, name: 'Endless Pages', expanded: true },
  ],
  characters: [
    { value: 1, name: 'First Character' },
    { value: 5, name: 'Small Cast' },
    { value: 10, name: 'Ensemble' },
    { value: 25, name: 'Crowded Stage' },
    { value: 50, name: 'Cast of Thousands' },
    { value: 100, name: 'World Populator', expanded: true },
  ],
  locations: [
    { value: 1, name: 'First Place' },
    { value: 5, name: 'Mapmaker' },
    { value: 10, name: 'Explorer' },
    { value: 25, name: 'Cartographer' },
    { value: 50, name: 'World Builder' },
    { value: 100, name: 'Realm Shaper', expanded: true },
  ],
  books: [
    { value: 1, name: 'The End' },
    { value: 3, name: 'Trilogy' },
    { value: 5, name: 'Series Author' },
    { value: 10, name: 'Shelf of Your Own' },
    { value: 20, name: 'Library Wing', expanded: true },
  ],
};

// One formatter for the whole table: `toLocaleString` builds a new one per call, ~8 ms for the
// catalogue below on a phone's first load (docs/web.md#first-load). Same output. Made on first use.
let numberFormat: Intl.NumberFormat | undefined;

function formatValue(value: number): string {
  numberFormat ??= new Intl.NumberFormat('en-US');
  return numberFormat.format(value);
}

/** Every achievement, basic and expanded, in type then ladder order. */
export const ACHIEVEMENTS: readonly Achievement[] = Object.freeze(
  ACHIEVEMENT_TYPES.flatMap((type) =>
    LADDERS[type].map((rung) => {
      const info = TYPE_INFO[type];
      return Object.freeze({
        id: `${type}-${rung.value}`,
        name: rung.name,
        description: info.describe(formatValue(rung.value)),
        icon: info.icon,
        type,
        category: info.category,
        requiredValue: rung.value,
        expanded: rung.expanded === true,
      });
    }),
  ),
);

export const ACHIEVEMENTS_BY_ID: ReadonlyMap<string, Achievement> = new Map(ACHIEVEMENTS.map((a) => [a.id, a]));

/** The unit shown in "Target: {requiredValue} {type}". */
export function achievementUnit(type: AchievementType): string {
  return TYPE_INFO[type].unit;
}

const BASIC_ACHIEVEMENTS: readonly Achievement[] = ACHIEVEMENTS.filter((a) => !a.expanded);

/** The catalogue an author on `plan` can earn (shared: the server asks on every save). */
export function achievementsForPlan(plan: PlanName): readonly Achievement[] {
  return hasFeature(plan, 'expandedAchievements') ? ACHIEVEMENTS : BASIC_ACHIEVEMENTS;
}

/** What an author has done, per achievement type (streak: the longest streak). */
export type AchievementProgress = Record<AchievementType, number>;

/** Achievements of `catalogue` whose condition holds and that are not earned yet, in catalogue order. */
export function newlyEarned(catalogue: readonly Achievement[], progress: AchievementProgress, earnedIds: ReadonlySet<string>): Achievement[] {
  return catalogue.filter((a) => !earnedIds.has(a.id) && progress[a.type] >= a.requiredValue);
}

/** Earned / total per type, the Badge Progression and the category grid. */
export function progressByType(catalogue: readonly Achievement[], earnedIds: ReadonlySet<string>): { type: AchievementType; category: string; earned: number; total: number }[] {
  return ACHIEVEMENT_TYPES.map((type) => {
    const ofType = catalogue.filter((a) => a.type === type);
    return { type, category: TYPE_INFO[type].category, earned: ofType.filter((a) => earnedIds.has(a.id)).length, total: ofType.length };
  }).filter((t) => t.total > 0);
}

/** NEW for 24 hours after being earned (000 §2, §4). */
export const NEW_ACHIEVEMENT_MS = 24 * 60 * 60 * 1000;
export function isNewAchievement(earnedAt: string, now: Date): boolean {
  const t = new Date(earnedAt).getTime();
  return now.getTime() - t < NEW_ACHIEVEMENT_MS && t <= now.getTime() + 60_000;
}
