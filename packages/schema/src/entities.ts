/**
 * Entities and request bodies of spec 001 §3/§5/§7 and 000 §3/§5, shared by the server (validation)
 * and the web app (forms, Dexie rows). Ids are UUIDv7 strings (docs/architecture.md#identity), not
 * numbers. Bodies are strict: unknown fields are rejected (docs/server.md#security).
 */
import './zod-browser.ts';
import { z } from 'zod';
import { MESSAGES, MINIMUMS } from './messages.ts';
import { planNameSchema } from './plans.ts';
import { writingMarkSchema } from './progress/mark.ts';
import { bookGoalBodyFields, bookGoalRowFields } from './progress/book-goal.ts';
import type { UserAchievement, WritingSettings, WritingStat } from './progress/wire.ts';
import type { AiSuggestion } from './ai.ts';
import type { CanonChange } from './canon/wire.ts';
import type { WorldEntry } from './world/wire.ts';
import { PRODUCT_IDS } from './products.ts';

// ---------------------------------------------------------------------------------------------
// Building blocks

export const LIMITS = {
  title: 500,
  shortText: 200,
  longText: 20_000,
  /** A chapter's text; a 200,000-word chapter is about 1.2 M characters. */
  chapterContent: 5_000_000,
  /** A chapter's synopsis: a few lines, marked text like the chapter's (docs/architecture.md#chapters). */
  chapterSynopsis: 2_000,
  /** A chapter's notes: free marked text, never counted as writing. */
  chapterNotes: 100_000,
  url: 2_048,
  reorderItems: 2_000,
  /** The timeline's era order: eras ordered, and one era's key. */
  eras: 200,
  eraKey: 200,
  characterIds: 500,
} as const;

const id = z.uuid({ error: 'Must be a valid id' });

/** A required one-line text: trimmed, non-blank, with the spec's message when missing or blank. */
function requiredText(message: string, max: number = LIMITS.title) {
  return z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(max, { error: `Must be at most ${max} characters` });
}
function optionalText(max: number = LIMITS.longText) {
  return z.string().max(max, { error: `Must be at most ${max} characters` });
}
const nullableUrl = z.string().max(LIMITS.url).nullable();
const position = z.number().int().min(0).max(1_000_000);

/** Upper bound of a book number in `bookAppearances` (as many as a series may hold, at most). */
export const BOOK_APPEARANCE_MAX = 1000;
/**
 * Book numbers (a book's position in its series), not the spec's fixed 1 to 5 (001 §9,
 * docs/spec-differences.md): the server checks them against the series' books
 * (book-appearances.ts). Stored sorted and without repeats.
 */
const bookAppearances = z
  .array(z.number().int().min(1).max(BOOK_APPEARANCE_MAX))
  .max(BOOK_APPEARANCE_MAX)
  .transform((nums) => [...new Set(nums)].sort((a, b) => a - b));

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

export const bookStatusSchema = z.enum(BOOK_STATUSES);
export const chapterStatusSchema = z.enum(CHAPTER_STATUSES);
export const characterRoleSchema = z.enum(CHARACTER_ROLES);
export const characterStatusSchema = z.enum(CHARACTER_STATUSES);
export const relationshipTypeSchema = z.enum(RELATIONSHIP_TYPES);
export const locationTypeSchema = z.enum(LOCATION_TYPES);
export const locationImportanceSchema = z.enum(LOCATION_IMPORTANCE);
export const eventTypeSchema = z.enum(EVENT_TYPES);
export const eventImportanceSchema = z.enum(EVENT_IMPORTANCE);
const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, { error: MESSAGES.timeline.colorInvalid });

// ---------------------------------------------------------------------------------------------
// Entities as the server answers them (and as Dexie stores them)

/** Fields every synced row carries. `rev` is the server sequence of its last write. */
export const syncedRowSchema = z.object({
  id,
  rev: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Soft delete: tombstones travel through the changes feed (docs/sync-protocol.md#pull-the-changes-feed). */
  deletedAt: z.string().nullable(),
});

export const seriesSchema = syncedRowSchema.extend({
  ownerId: id,
  title: z.string(),
  description: z.string(),
  totalBooks: z.number().int(),
  currentBook: z.number().int(),
  coverImage: z.string().nullable(),
  /**
   * The author's order of the timeline's eras (era keys, web timeline model `eraKey`): those eras
   * come first, in this order. Empty or absent: the order the story first uses them.
   */
  eraOrder: z.array(z.string()).optional(),
});
export type Series = z.infer<typeof seriesSchema>;

export const bookSchema = syncedRowSchema.extend({
  seriesId: id,
  title: z.string(),
  description: z.string(),
  position: z.number().int(),
  status: bookStatusSchema,
  wordCount: z.number().int(),
  /** When the book was put in its series' Trash (restructure.ts); null or absent: not in it. */
  trashedAt: z.string().nullable().optional(),
  /** The book's goal (progress/book-goal.ts, docs/decisions/0018-pace-predictions.md). */
  ...bookGoalRowFields,
});
export type Book = z.infer<typeof bookSchema>;

export const chapterSchema = syncedRowSchema.extend({
  seriesId: id,
  bookId: id,
  title: z.string(),
  content: z.string(),
  position: z.number().int(),
  wordCount: z.number().int(),
  status: chapterStatusSchema,
  /**
   * The planner's summary and the author's notes: marked text (docs/decisions/0009-chapter-markup.md),
   * never counted as writing. The server always sends them; absent reads as empty (a device's copy
   * or a backup made before they existed).
   */
  synopsis: z.string().optional(),
  notes: z.string().optional(),
  /** When the chapter was put in its series' Trash (restructure.ts); null or absent: not in it. */
  trashedAt: z.string().nullable().optional(),
  /**
   * A flashback or memory: told out of story order, so the continuity checks do not read it as the
   * present (docs/decisions/0017-canon-changes.md). Absent reads as false (rows from before it).
   */
  flashback: z.boolean().optional(),
});
export type Chapter = z.infer<typeof chapterSchema>;

export const characterSchema = syncedRowSchema.extend({
  seriesId: id,
  name: z.string(),
  role: characterRoleSchema,
  age: z.string(),
  occupation: z.string(),
  status: characterStatusSchema,
  description: z.string(),
  appearance: z.string(),
  personality: z.string(),
  goals: z.string(),
  backstory: z.string(),
  bookAppearances: z.array(z.number().int()),
  isProtagonist: z.boolean(),
  avatar: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  // Defaults: rows written before these fields (older backups, rows kept on a device) read as none.
  aliases: z.array(z.string()).default([]),
  alwaysInclude: z.boolean().default(false),
});
export type Character = z.infer<typeof characterSchema>;

export const characterRelationshipSchema = syncedRowSchema.extend({
  seriesId: id,
  sourceCharacterId: id,
  targetCharacterId: id,
  relationshipType: relationshipTypeSchema,
  description: z.string(),
});
export type CharacterRelationship = z.infer<typeof characterRelationshipSchema>;

export const locationSchema = syncedRowSchema.extend({
  seriesId: id,
  name: z.string(),
  locationType: locationTypeSchema,
  description: z.string(),
  importance: locationImportanceSchema,
  bookAppearances: z.array(z.number().int()),
  image: z.string().nullable(),
  // Default: rows written before the field (older backups, rows kept on a device) read as unmarked.
  alwaysInclude: z.boolean().default(false),
  /**
   * The place this one is inside (a location of the same series), null at the top level
   * (docs/decisions/0021-places-inside-places.md). Default: rows written before it read as top level.
   */
  parentId: id.nullable().default(null),
});
export type Location = z.infer<typeof locationSchema>;

export const timelineEventSchema = syncedRowSchema.extend({
  seriesId: id,
  title: z.string(),
  description: z.string(),
  eventType: eventTypeSchema,
  date: z.string(),
  bookId: id.nullable(),
  chapterId: id.nullable(),
  characterIds: z.array(id),
  locationId: id.nullable(),
  importance: eventImportanceSchema,
  color: z.string(),
  position: z.number().int(),
  isPlotPoint: z.boolean(),
  /** A flashback or memory, as on a chapter; absent reads as false. */
  flashback: z.boolean().optional(),
});
export type TimelineEvent = z.infer<typeof timelineEventSchema>;

/**
 * A conflict copy: chapter text that could not be merged cleanly (or was edited after the
 * chapter was deleted). It syncs to everyone and stays until an author resolves it.
 */
export const chapterConflictSchema = syncedRowSchema.extend({
  seriesId: id,
  chapterId: id,
  /** The revision the incoming edit was based on. */
  baseRev: z.number().int(),
  title: z.string(),
  content: z.string(),
  authorId: id,
  reason: z.enum(['conflict', 'edited-after-delete']),
  /** The device the set-aside save came from ("Firefox on Android", describeDevice); null before it was recorded. */
  device: z.string().max(60).nullable().default(null),
});
export type ChapterConflict = z.infer<typeof chapterConflictSchema>;

// ---------------------------------------------------------------------------------------------
// Users and accounts (000 §3, §5)

export const userSchema = z.object({
  id,
  username: z.string(),
  displayName: z.string(),
  email: z.string().nullable(),
  plan: planNameSchema,
});
export type User = z.infer<typeof userSchema>;

/**
 * The signed-in author's own record as it syncs (a user-scoped kind, `users`): plan, time zone and
 * the rest of their settings reach every open app through the changes feed. `userId` is the
 * record's own id (every user-scoped row names its owner in `userId`).
 */
export const userRecordSchema = syncedRowSchema.extend({
  userId: id,
  username: z.string(),
  displayName: z.string(),
  email: z.string().nullable(),
  plan: planNameSchema,
  /** IANA zone (e.g. `Europe/Paris`) the author's days are counted in; null until the app sets it. */
  timeZone: z.string().nullable(),
});
export type UserRecord = z.infer<typeof userRecordSchema>;

/** What an entitlement grants: a product bought, or a gift month of Wordsmith redeemed. */
export const ENTITLEMENT_KINDS = [...PRODUCT_IDS, 'gift-month'] as const;
export type EntitlementKind = (typeof ENTITLEMENT_KINDS)[number];

/**
 * A user-scoped synced row (docs/server.md#billing): granted only by the server (the
 * verified Stripe webhook, a redeemed gift code); the client keeps it and works offline with it.
 */
export const entitlementSchema = syncedRowSchema.extend({
  userId: id,
  kind: z.enum(ENTITLEMENT_KINDS),
  /** When it stops (premium support, gift month); null for products kept for ever. */
  expiresAt: z.string().nullable(),
  /** For a bought gift subscription: the code to give away. */
  giftCode: z.string().nullable(),
  /** When the gift code was redeemed (by anyone); null while it can still be given. */
  giftRedeemedAt: z.string().nullable(),
});
export type Entitlement = z.infer<typeof entitlementSchema>;

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

/** PUT /api/user/settings: the author's own settings (more fields join as they are added). */
export const updateUserSettingsBodySchema = z.strictObject({
  timeZone: z
    .string()
    .max(100, { error: 'Unknown time zone' })
    .refine(isValidTimeZone, { error: 'Unknown time zone' })
    .nullable()
    .optional(),
});
export type UpdateUserSettingsBody = z.input<typeof updateUserSettingsBodySchema>;

const username = z
  .string({ error: MESSAGES.auth.usernameRequired })
  .trim()
  .min(MINIMUMS.username, { error: MESSAGES.auth.usernameMin })
  .max(50, { error: 'Username must be at most 50 characters' })
  .regex(/^[\p{L}\p{N}._-]+$/u, { error: 'Username may contain letters, numbers, dots, dashes and underscores' });
const password = z
  .string({ error: MESSAGES.auth.passwordRequired })
  .min(MINIMUMS.password, { error: MESSAGES.auth.passwordMin })
  .max(200, { error: 'Password must be at most 200 characters' });

export const registerBodySchema = z
  .strictObject({
    username,
    password,
    confirmPassword: z.string().max(200).optional(),
    displayName: z
      .string({ error: MESSAGES.auth.displayNameRequired })
      .trim()
      .min(MINIMUMS.displayName, { error: MESSAGES.auth.displayNameMin })
      .max(100, { error: 'Display name must be at most 100 characters' }),
    /** Optional (docs/spec-differences.md): invites are matched by email. Empty string means none. */
    email: z
      .union([z.literal(''), z.email({ error: MESSAGES.auth.invalidEmail }).max(254)])
      .nullable()
      .optional(),
  })
  .refine((b) => b.confirmPassword === undefined || b.confirmPassword === b.password, {
    error: MESSAGES.auth.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });
export type RegisterBody = z.infer<typeof registerBodySchema>;

export const loginBodySchema = z.strictObject({
  username: z.string({ error: MESSAGES.auth.usernameRequired }).trim().min(1, { error: MESSAGES.auth.usernameRequired }).max(200),
  password: z.string({ error: MESSAGES.auth.passwordRequired }).min(1, { error: MESSAGES.auth.passwordRequired }).max(200),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

// ---------------------------------------------------------------------------------------------
// Request bodies of the story-structure API (001 §7). `id` on a create is the client's UUIDv7.

/** A series' planned number of books (001 §5: minimum 1); the New/Edit Series forms check with it too. */
export const totalBooksSchema = z
  .number({ error: MESSAGES.series.totalBooksMin })
  .int({ error: 'Total books must be a whole number' })
  .min(1, { error: MESSAGES.series.totalBooksMin })
  .max(1000, { error: 'A series can plan at most 1000 books' });

export const createSeriesBodySchema = z.strictObject({
  id: id.optional(),
  title: requiredText(MESSAGES.series.titleRequired),
  description: optionalText().default(''),
  totalBooks: totalBooksSchema.default(3),
  currentBook: z.number().int().min(1).max(1000).default(1),
  coverImage: nullableUrl.default(null),
});
export type CreateSeriesBody = z.input<typeof createSeriesBodySchema>;

/** PUT /api/series/{id}: the spec sends `name`; `title` is accepted too. */
export const updateSeriesBodySchema = z
  .strictObject({
    name: requiredText(MESSAGES.series.nameRequired).optional(),
    title: requiredText(MESSAGES.series.nameRequired).optional(),
    description: optionalText().optional(),
    totalBooks: totalBooksSchema.optional(),
    currentBook: z.number().int().min(1).max(1000).optional(),
    coverImage: nullableUrl.optional(),
    eraOrder: z.array(z.string().max(LIMITS.eraKey, { error: `An era name can be at most ${LIMITS.eraKey} characters` })).max(LIMITS.eras, { error: `At most ${LIMITS.eras} eras can be ordered` }).optional(),
  })
  .transform(({ name, ...rest }) => (name !== undefined && rest.title === undefined ? { ...rest, title: name } : rest));
export type UpdateSeriesBody = z.input<typeof updateSeriesBodySchema>;

export const createBookBodySchema = z.strictObject({
  id: id.optional(),
  seriesId: z.uuid({ error: MESSAGES.book.seriesRequired }),
  title: requiredText(MESSAGES.book.titleRequired),
  description: optionalText().default(''),
  /** Ignored by the server, which places a new book after the existing ones (count + 1). */
  position: position.optional(),
  status: bookStatusSchema.default('in_progress'),
});
export type CreateBookBody = z.input<typeof createBookBodySchema>;

export const updateBookBodySchema = z.strictObject({
  title: requiredText(MESSAGES.book.titleRequired).optional(),
  description: optionalText().optional(),
  status: bookStatusSchema.optional(),
  position: position.optional(),
  wordCount: z.number().int().min(0).max(100_000_000).optional(),
  /** Into the series' Trash (true) or back out of it (false); the server stamps `trashedAt`. */
  trashed: z.boolean().optional(),
  ...bookGoalBodyFields,
});
export type UpdateBookBody = z.input<typeof updateBookBodySchema>;

export const createChapterBodySchema = z.strictObject({
  id: id.optional(),
  bookId: z.uuid({ error: MESSAGES.chapter.bookRequired }),
  title: requiredText(MESSAGES.chapter.titleRequired),
  content: optionalText(LIMITS.chapterContent).default(''),
  /** The server recounts words from the content; the client's figure is advisory. */
  wordCount: z.number().int().min(0).max(10_000_000).optional(),
  status: chapterStatusSchema.default('in_progress'),
  synopsis: optionalText(LIMITS.chapterSynopsis).default(''),
  notes: optionalText(LIMITS.chapterNotes).default(''),
  /** Count + 1 when omitted. */
  position: position.optional(),
  flashback: z.boolean().default(false),
  /** Text typed before the create was sent (an offline chapter) counts as writing when marked. */
  writing: writingMarkSchema.optional(),
});
export type CreateChapterBody = z.input<typeof createChapterBodySchema>;

export const updateChapterBodySchema = z.strictObject({
  title: requiredText(MESSAGES.chapter.editorTitleRequired).optional(),
  content: optionalText(LIMITS.chapterContent).optional(),
  wordCount: z.number().int().min(0).max(10_000_000).optional(),
  status: chapterStatusSchema.optional(),
  synopsis: optionalText(LIMITS.chapterSynopsis).optional(),
  notes: optionalText(LIMITS.chapterNotes).optional(),
  position: position.optional(),
  /** A move to another book of the same series (restructure.ts), placed at `position` or last. */
  bookId: z.uuid({ error: MESSAGES.chapter.bookRequired }).optional(),
  /** Into the series' Trash (true) or back out of it (false); the server stamps `trashedAt`. */
  trashed: z.boolean().optional(),
  flashback: z.boolean().optional(),
  /** What the save is for writing statistics (progress/mark.ts); never stored on the chapter. */
  writing: writingMarkSchema.optional(),
});
export type UpdateChapterBody = z.input<typeof updateChapterBodySchema>;

const reorderItem = z.strictObject({ id, position });
export const reorderChaptersBodySchema = z.strictObject({
  chapters: z.array(reorderItem).min(1).max(LIMITS.reorderItems),
});
export const reorderTimelineBodySchema = z.strictObject({
  events: z.array(reorderItem).min(1).max(LIMITS.reorderItems),
});
export type ReorderChaptersBody = z.input<typeof reorderChaptersBodySchema>;
export type ReorderTimelineBody = z.input<typeof reorderTimelineBodySchema>;

/** Other names a character goes by (the companion matches them like the name): at most this many… */
export const CHARACTER_ALIASES_MAX = 10;
/** …of at most this many characters each. */
export const CHARACTER_ALIAS_MAX_CHARS = 60;
/** Trimmed, blanks dropped, repeats (ignoring case) kept once, in the author's order. */
const characterAliases = z
  .array(z.string().max(CHARACTER_ALIAS_MAX_CHARS, { error: `Each alias must be at most ${CHARACTER_ALIAS_MAX_CHARS} characters` }))
  .transform((aliases) => {
    const seen = new Set<string>();
    return aliases.map((a) => a.trim()).filter((a) => a !== '' && !seen.has(a.toLowerCase()) && seen.add(a.toLowerCase()));
  })
  .pipe(z.array(z.string()).max(CHARACTER_ALIASES_MAX, { error: `At most ${CHARACTER_ALIASES_MAX} aliases` }));

const characterFields = {
  name: requiredText(MESSAGES.character.nameRequired, LIMITS.shortText),
  role: characterRoleSchema,
  age: optionalText(LIMITS.shortText),
  occupation: optionalText(LIMITS.shortText),
  status: characterStatusSchema,
  description: optionalText(),
  appearance: optionalText(),
  personality: optionalText(),
  goals: optionalText(),
  backstory: optionalText(),
  bookAppearances,
  isProtagonist: z.boolean(),
  avatar: nullableUrl,
  avatarUrl: nullableUrl,
  aliases: characterAliases,
  /** Always in the companion's series bible for a model (within the spoiler rule). */
  alwaysInclude: z.boolean(),
};
export const createCharacterBodySchema = z.strictObject({
  id: id.optional(),
  seriesId: z.uuid({ error: MESSAGES.character.seriesRequired }),
  name: characterFields.name,
  role: characterFields.role.default('supporting'),
  age: characterFields.age.default(''),
  occupation: characterFields.occupation.default(''),
  status: characterFields.status.default('alive'),
  description: characterFields.description.default(''),
  appearance: characterFields.appearance.default(''),
  personality: characterFields.personality.default(''),
  goals: characterFields.goals.default(''),
  backstory: characterFields.backstory.default(''),
  bookAppearances: characterFields.bookAppearances.default([]),
  isProtagonist: characterFields.isProtagonist.default(false),
  avatar: characterFields.avatar.default(null),
  avatarUrl: characterFields.avatarUrl.default(null),
  aliases: characterFields.aliases.default([]),
  alwaysInclude: characterFields.alwaysInclude.default(false),
});
export type CreateCharacterBody = z.input<typeof createCharacterBodySchema>;
export const updateCharacterBodySchema = z.strictObject(characterFields).partial();
export type UpdateCharacterBody = z.input<typeof updateCharacterBodySchema>;

export const createRelationshipBodySchema = z
  .strictObject({
    id: id.optional(),
    sourceCharacterId: id,
    targetCharacterId: id,
    relationshipType: relationshipTypeSchema,
    description: optionalText(LIMITS.longText).default(''),
  })
  .refine((b) => b.sourceCharacterId !== b.targetCharacterId, {
    error: MESSAGES.relationship.self,
    path: ['targetCharacterId'],
  });
export type CreateRelationshipBody = z.input<typeof createRelationshipBodySchema>;
export const updateRelationshipBodySchema = z.strictObject({
  relationshipType: relationshipTypeSchema.optional(),
  description: optionalText(LIMITS.longText).optional(),
});
export type UpdateRelationshipBody = z.input<typeof updateRelationshipBodySchema>;

const locationFields = {
  name: requiredText(MESSAGES.location.nameRequired, LIMITS.shortText),
  locationType: locationTypeSchema,
  description: optionalText(),
  importance: locationImportanceSchema,
  bookAppearances,
  image: nullableUrl,
  /** Always in the companion's series bible for a model (within the spoiler rule); main locations are anyway. */
  alwaysInclude: z.boolean(),
  /** The place it is inside, null for none: same series, never itself or a place inside it (places.ts). */
  parentId: id.nullable(),
};
export const createLocationBodySchema = z.strictObject({
  id: id.optional(),
  seriesId: z.uuid({ error: MESSAGES.location.seriesRequired }),
  name: locationFields.name,
  locationType: locationFields.locationType.default('general'),
  description: locationFields.description.default(''),
  importance: locationFields.importance.default('secondary'),
  bookAppearances: locationFields.bookAppearances.default([]),
  image: locationFields.image.default(null),
  alwaysInclude: locationFields.alwaysInclude.default(false),
  parentId: locationFields.parentId.default(null),
});
export type CreateLocationBody = z.input<typeof createLocationBodySchema>;
export const updateLocationBodySchema = z.strictObject(locationFields).partial();
export type UpdateLocationBody = z.input<typeof updateLocationBodySchema>;

const eventFields = {
  title: requiredText(MESSAGES.timeline.titleRequired),
  description: optionalText(),
  eventType: eventTypeSchema,
  date: optionalText(LIMITS.shortText),
  bookId: id.nullable(),
  chapterId: id.nullable(),
  characterIds: z.array(id).max(LIMITS.characterIds).transform((ids) => [...new Set(ids)]),
  locationId: id.nullable(),
  importance: eventImportanceSchema,
  color: hexColor,
  position,
  isPlotPoint: z.boolean(),
  flashback: z.boolean(),
};
export const createTimelineEventBodySchema = z.strictObject({
  id: id.optional(),
  seriesId: z.uuid({ error: 'Please select a series first' }),
  title: eventFields.title,
  description: eventFields.description.default(''),
  eventType: eventFields.eventType.default('plot'),
  date: eventFields.date.default(''),
  bookId: eventFields.bookId.default(null),
  chapterId: eventFields.chapterId.default(null),
  characterIds: eventFields.characterIds.default([]),
  locationId: eventFields.locationId.default(null),
  importance: eventFields.importance.default('medium'),
  color: eventFields.color.default(DEFAULT_EVENT_COLOR),
  position: eventFields.position.default(0),
  isPlotPoint: eventFields.isPlotPoint.default(false),
  flashback: eventFields.flashback.default(false),
});
export type CreateTimelineEventBody = z.input<typeof createTimelineEventBodySchema>;
export const updateTimelineEventBodySchema = z.strictObject(eventFields).partial();
export type UpdateTimelineEventBody = z.input<typeof updateTimelineEventBodySchema>;

// ---------------------------------------------------------------------------------------------
// Sync (docs/sync-protocol.md)

/** The synced entity kinds, as named in the changes feed and the outbox. */
export const ENTITY_KINDS = [
  'series', 'books', 'chapters', 'characters', 'characterRelationships', 'locations', 'timelineEvents', 'chapterConflicts',
  'users',
  'writingStats', 'userAchievements', 'writingSettings',
  'aiSuggestions',
  'entitlements',
  'canonChanges',
  'worldEntries',
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

export interface EntityRowByKind {
  series: Series;
  books: Book;
  chapters: Chapter;
  characters: Character;
  characterRelationships: CharacterRelationship;
  locations: Location;
  timelineEvents: TimelineEvent;
  chapterConflicts: ChapterConflict;
  users: UserRecord;
  writingStats: WritingStat;
  userAchievements: UserAchievement;
  writingSettings: WritingSettings;
  aiSuggestions: AiSuggestion;
  entitlements: Entitlement;
  canonChanges: CanonChange;
  worldEntries: WorldEntry;
}

/**
 * How an update was applied. `applied`: no base revision given, plain write. `fast-forward`: the
 * base was current. `merged`: concurrent edits combined (per field, or a clean text merge).
 * `conflict`: some incoming text was kept as a conflict copy (`conflictId`). `deleted`: the row
 * was deleted before this update arrived; text changes were kept as a conflict copy.
 */
export const MERGE_STATUSES = ['applied', 'fast-forward', 'merged', 'conflict', 'deleted'] as const;
export type MergeStatus = (typeof MERGE_STATUSES)[number];

export interface ChangesResponse {
  /** Latest state of each changed row, tombstones included (deletedAt set), grouped by kind. */
  changes: { [K in EntityKind]: EntityRowByKind[K][] };
  /** Series that entered the caller's scope since the cursor (their rows are in `changes`). */
  scopeAdded: string[];
  /** Series that left the caller's scope: drop them and everything under them locally. */
  scopeRemoved: string[];
  cursor: number;
  hasMore: boolean;
}

export const changesQuerySchema = z.strictObject({
  since: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  limit: z.coerce.number().int().min(1).max(10_000).default(2_000),
});

/** Most outbox entries one POST /api/sync/batch may carry (docs/measurements.md#before-the-code: batches of 500). */
export const MAX_BATCH_ENTRIES = 500;

/** One outbox entry replayed through its REST route by POST /api/sync/batch. */
export const batchEntrySchema = z.strictObject({
  method: z.enum(['POST', 'PUT', 'PATCH', 'DELETE']),
  /** The REST path, e.g. `/api/chapters/{id}`. */
  path: z.string().regex(/^\/api\/[^\s#]*$/, { error: 'Must be an /api/ path' }).max(2_048),
  headers: z
    .strictObject({
      idempotencyKey: z.string().min(1).max(200).optional(),
      baseRev: z.number().int().min(0).nullable().optional(),
      mutationId: z.string().max(200).optional(),
    })
    .default({}),
  body: z.unknown().optional(),
});
export type BatchEntry = z.input<typeof batchEntrySchema>;

export const batchBodySchema = z.strictObject({
  entries: z.array(batchEntrySchema).min(1).max(MAX_BATCH_ENTRIES),
});
export type BatchBody = z.input<typeof batchBodySchema>;

/**
 * The answer of each entry, in order. Entries after one answered 5xx, 408 or 429 (transient) are
 * not run: the answer is shorter than the request, and the client resends the rest later.
 */
export interface BatchResult {
  status: number;
  body: unknown;
}

export interface ChapterRevisionSummary {
  rev: number;
  createdAt: string;
  title: string;
  wordCount: number;
  authorId: string | null;
}
