/**
 * The plain data of the synced entities (entities.ts): limits, enum values, kinds, the time-zone
 * test. Apart from the schemas so that code that only reads them (the signed-in shell, the sync
 * engine, the dashboard) builds no zod schema and downloads no zod (issue 16); entities.ts
 * re-exports all of it, and its schemas are built from these values.
 */

// ---------------------------------------------------------------------------------------------
// Building blocks

export const LIMITS = {
  title: 500,
  shortText: 200,
  longText: 20_000,
  /** A chapter's text; a 200,000-word chapter is about 1.2 M characters. */
  chapterContent: 5_000_000,
  url: 2_048,
  reorderItems: 2_000,
  characterIds: 500,
} as const;

/** The books a character or location may appear in (001 §9). */
export const BOOK_NUMBERS = [1, 2, 3, 4, 5] as const;

// ---------------------------------------------------------------------------------------------
// Enums

export const BOOK_STATUSES = ['in_progress', 'completed', 'planning', 'revision'] as const;
export const CHAPTER_STATUSES = ['in_progress', 'draft', 'revision', 'completed'] as const;
export const CHARACTER_ROLES = ['protagonist', 'antagonist', 'supporting', 'mentor', 'comic_relief', 'minor'] as const;
export const CHARACTER_STATUSES = ['alive', 'deceased', 'unknown'] as const;
export const RELATIONSHIP_TYPES = ['ally', 'enemy', 'family', 'romantic', 'conflict', 'mentor', 'professional'] as const;
export const LOCATION_TYPES = [
  'city', 'town', 'village', 'castle', 'forest', 'mountain', 'ocean', 'river',
  'desert', 'island', 'cave', 'ruins', 'general', 'other',
] as const;
export const LOCATION_IMPORTANCE = ['main', 'secondary', 'minor'] as const;
export const EVENT_TYPES = ['plot', 'character', 'world'] as const;
export const EVENT_IMPORTANCE = ['major', 'medium', 'minor'] as const;
export const DEFAULT_EVENT_COLOR = '#6366f1';

/** Whether the runtime's Intl knows `zone` as an IANA time zone (the same test on both sides). */
export function isValidTimeZone(zone: string): boolean {
  if (zone.trim() === '' || zone !== zone.trim()) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Other names a character goes by (the companion matches them like the name): at most this many… */
export const CHARACTER_ALIASES_MAX = 10;
/** …of at most this many characters each. */
export const CHARACTER_ALIAS_MAX_CHARS = 60;

// ---------------------------------------------------------------------------------------------
// Sync (DESIGN.md §3)

/** The synced entity kinds, as named in the changes feed and the outbox. */
export const ENTITY_KINDS = [
  'series', 'books', 'chapters', 'characters', 'characterRelationships', 'locations', 'timelineEvents', 'chapterConflicts',
  'users',
  'writingStats', 'userAchievements', 'writingSettings',
  'aiSuggestions',
  'entitlements',
] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];

/**
 * The kinds whose rows belong to one author rather than to a series (packages/sync-client README,
 * "How to add a user-scoped kind"): their wire rows carry `userId` and no `seriesId`, the changes
 * feed sends each author their own, and the server writes them. Every one is in ENTITY_KINDS too.
 */
export const USER_SCOPED_KINDS = [
  'users',
  'writingStats', 'userAchievements', 'writingSettings',
  'entitlements',
] as const satisfies readonly EntityKind[];
export type UserScopedKind = (typeof USER_SCOPED_KINDS)[number];
/** The kinds whose rows belong to a series (the series itself included). */
export type SeriesScopedKind = Exclude<EntityKind, UserScopedKind>;

/**
 * How an update was applied. `applied`: no base revision given, plain write. `fast-forward`: the
 * base was current. `merged`: concurrent edits combined (per field, or a clean text merge).
 * `conflict`: some incoming text was kept as a conflict copy (`conflictId`). `deleted`: the row
 * was deleted before this update arrived; text changes were kept as a conflict copy.
 */
export const MERGE_STATUSES = ['applied', 'fast-forward', 'merged', 'conflict', 'deleted'] as const;
export type MergeStatus = (typeof MERGE_STATUSES)[number];

/** Most outbox entries one POST /api/sync/batch may carry (DESIGN.md §6: batches of 500). */
export const MAX_BATCH_ENTRIES = 500;
