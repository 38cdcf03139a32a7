/**
 * The descriptions of the synced entity kinds (packages/schema ENTITY_KINDS): table, wire fields,
 * how fields are stored, where a row's series comes from, plan limits and feature gates. Data only:
 * the modules beside it use it — wire.ts (row ↔ wire), access.ts (who may do what), queries.ts and
 * writes.ts (the only two that touch SQL).
 */
import {
  type EntityKind,
  type FeatureName,
  type LimitName,
  chapterConflictSchema,
  chapterWordCount,
  editedWordCount,
  chapterSchema,
  characterRelationshipSchema,
  characterSchema,
  bookSchema,
  locationSchema,
  seriesSchema,
  timelineEventSchema,
  userRecordSchema,
  userAchievementSchema,
  writingSettingsSchema,
  writingStatSchema,
  aiSuggestionSchema,
  entitlementSchema,
  canonChangeSchema,
  worldEntrySchema,
} from '@chronicler/schema';
import type { DB } from '../db/tables.ts';

/**
 * Where a row's series comes from when it is created: the series itself, or a stored parent row
 * named by a body field. Every kind but series also keeps `seriesId` stored on the row (chapters,
 * relationships and conflicts denormalised from their parent), which is what access checks read.
 * `user`: a user-scoped kind (@chronicler/schema USER_SCOPED_KINDS) — no series; the row's
 * `user_id` names its owner, the only author who reads it (entities/user-rows.ts).
 */
export type SeriesSource = { from: 'self' } | { from: 'parent'; kind: EntityKind; field: string } | { from: 'user' };

export interface EntityDescription {
  kind: EntityKind;
  /** The Kysely table (camelCase, as the CamelCasePlugin exposes it). */
  table: keyof DB;
  /** The fields of the wire row, in the order of its schema in entities.ts. */
  wireFields: readonly string[];
  seriesSource: SeriesSource;
  /** Arrays stored as JSON text. */
  jsonColumns: readonly string[];
  /** Booleans stored as 0/1. */
  booleanColumns: readonly string[];
  /** The plan limit a create counts against (live rows per series; series: per owner). */
  createLimit: LimitName | null;
  /** The feature flag every write of this kind needs (reads are never gated). */
  writeFeature: FeatureName | null;
  /** A text field merged three-way on concurrent updates rather than last arrival wins. */
  textField?: string;
  /** Fields the server computes from the others on every write (`before`: the stored row an update changes). */
  derive?: (row: Record<string, unknown>, before: Record<string, unknown> | null) => Record<string, unknown>;
  /**
   * The fields whose change makes a write worth listing in the revision history (a chapter's text
   * and title: reordering is not a new version). Without it every write is listed.
   */
  historyFields?: readonly string[];
}

function fieldsOf(schema: { shape: Record<string, unknown> }): string[] {
  return Object.keys(schema.shape);
}

export const ENTITIES: { readonly [K in EntityKind]: EntityDescription & { kind: K } } = {
  series: {
    kind: 'series',
    table: 'series',
    wireFields: fieldsOf(seriesSchema),
    seriesSource: { from: 'self' },
    jsonColumns: ['eraOrder'],
    booleanColumns: [],
    createLimit: 'series',
    writeFeature: null,
  },
  books: {
    kind: 'books',
    table: 'books',
    wireFields: fieldsOf(bookSchema),
    seriesSource: { from: 'parent', kind: 'series', field: 'seriesId' },
    jsonColumns: ['writingDays', 'daysOff'],
    booleanColumns: [],
    createLimit: 'booksPerSeries',
    writeFeature: null,
  },
  chapters: {
    kind: 'chapters',
    table: 'chapters',
    wireFields: fieldsOf(chapterSchema),
    seriesSource: { from: 'parent', kind: 'books', field: 'bookId' },
    jsonColumns: [],
    booleanColumns: ['flashback'],
    createLimit: null,
    writeFeature: null,
    textField: 'content',
    historyFields: ['title', 'content'],
    // The client's word count is advisory: the server counts the text it stores (001 §5 editor rule);
    // an update counts only what changed from the stored row, whose count the server made.
    derive: (row, before) => {
      const content = String(row.content ?? '');
      const previous = before && typeof before.wordCount === 'number' ? { content: String(before.content ?? ''), wordCount: before.wordCount } : null;
      return { wordCount: previous ? editedWordCount(previous, content) : chapterWordCount(content) };
    },
  },
  characters: {
    kind: 'characters',
    table: 'characters',
    wireFields: fieldsOf(characterSchema),
    seriesSource: { from: 'parent', kind: 'series', field: 'seriesId' },
    jsonColumns: ['bookAppearances', 'aliases'],
    booleanColumns: ['isProtagonist', 'alwaysInclude'],
    createLimit: 'charactersPerSeries',
    writeFeature: null,
  },
  characterRelationships: {
    kind: 'characterRelationships',
    table: 'characterRelationships',
    wireFields: fieldsOf(characterRelationshipSchema),
    seriesSource: { from: 'parent', kind: 'characters', field: 'sourceCharacterId' },
    jsonColumns: [],
    booleanColumns: [],
    createLimit: null,
    writeFeature: 'relationshipMapping',
  },
  locations: {
    kind: 'locations',
    table: 'locations',
    wireFields: fieldsOf(locationSchema),
    seriesSource: { from: 'parent', kind: 'series', field: 'seriesId' },
    jsonColumns: ['bookAppearances'],
    booleanColumns: ['alwaysInclude'],
    createLimit: 'locationsPerSeries',
    writeFeature: null,
  },
  timelineEvents: {
    kind: 'timelineEvents',
    table: 'timelineEvents',
    wireFields: fieldsOf(timelineEventSchema),
    seriesSource: { from: 'parent', kind: 'series', field: 'seriesId' },
    jsonColumns: ['characterIds'],
    booleanColumns: ['isPlotPoint', 'flashback'],
    createLimit: null,
    writeFeature: 'timeline',
  },
  chapterConflicts: {
    kind: 'chapterConflicts',
    table: 'chapterConflicts',
    wireFields: fieldsOf(chapterConflictSchema),
    seriesSource: { from: 'parent', kind: 'chapters', field: 'chapterId' },
    jsonColumns: [],
    booleanColumns: [],
    createLimit: null,
    writeFeature: null,
  },
  users: {
    kind: 'users',
    table: 'users',
    wireFields: fieldsOf(userRecordSchema),
    seriesSource: { from: 'user' },
    jsonColumns: [],
    booleanColumns: [],
    createLimit: null,
    writeFeature: null,
  },
  // Writing progress: written by the server (progress/), read by their owner only.
  writingStats: {
    kind: 'writingStats',
    table: 'writingStats',
    wireFields: fieldsOf(writingStatSchema),
    seriesSource: { from: 'user' },
    jsonColumns: [],
    booleanColumns: [],
    createLimit: null,
    writeFeature: null,
  },
  userAchievements: {
    kind: 'userAchievements',
    table: 'userAchievements',
    wireFields: fieldsOf(userAchievementSchema),
    seriesSource: { from: 'user' },
    jsonColumns: [],
    booleanColumns: [],
    createLimit: null,
    writeFeature: null,
  },
  writingSettings: {
    kind: 'writingSettings',
    table: 'writingSettings',
    wireFields: fieldsOf(writingSettingsSchema),
    seriesSource: { from: 'user' },
    jsonColumns: ['restDays'],
    booleanColumns: [],
    createLimit: null,
    writeFeature: null,
  },
  // Written only by the companion (sync-server/src/ai); its allowance is a daily one, not a row count.
  aiSuggestions: {
    kind: 'aiSuggestions',
    table: 'aiSuggestions',
    wireFields: fieldsOf(aiSuggestionSchema),
    seriesSource: { from: 'parent', kind: 'series', field: 'seriesId' },
    jsonColumns: ['entityIds'],
    booleanColumns: [],
    createLimit: null,
    writeFeature: null,
  },
  // Products owned and gift months: written by the billing domain only.
  entitlements: {
    kind: 'entitlements',
    table: 'entitlements',
    wireFields: fieldsOf(entitlementSchema),
    seriesSource: { from: 'user' },
    jsonColumns: [],
    booleanColumns: [],
    createLimit: null,
    writeFeature: null,
  },
  // A field of a character, location or relationship changed at a story point (story/canon-changes.ts).
  canonChanges: {
    kind: 'canonChanges',
    table: 'canonChanges',
    wireFields: fieldsOf(canonChangeSchema),
    seriesSource: { from: 'parent', kind: 'series', field: 'seriesId' },
    jsonColumns: [],
    booleanColumns: [],
    createLimit: null,
    writeFeature: null,
  },
  // Cultures, magic systems, species, technologies and factions (story/world-entries.ts): every
  // write needs advanced world building; no plan limit counts them (the plan table has none).
  worldEntries: {
    kind: 'worldEntries',
    table: 'worldEntries',
    wireFields: fieldsOf(worldEntrySchema),
    seriesSource: { from: 'parent', kind: 'series', field: 'seriesId' },
    jsonColumns: ['tags', 'bookAppearances', 'allyIds', 'enemyIds', 'characterIds', 'locationIds', 'entryIds'],
    booleanColumns: [],
    createLimit: null,
    writeFeature: 'advancedWorldBuilding',
  },
};

/** Kinds whose rows hang off a series (all but the series itself), in cascade order: the shared rule. */
export { SERIES_CHILD_KINDS } from '@chronicler/schema';

/** Each kind's wire schema: what a row of it looks like on the API (a backup's rows are checked with it). */
export const WIRE_SCHEMAS = {
  series: seriesSchema,
  books: bookSchema,
  chapters: chapterSchema,
  characters: characterSchema,
  characterRelationships: characterRelationshipSchema,
  locations: locationSchema,
  timelineEvents: timelineEventSchema,
  chapterConflicts: chapterConflictSchema,
  users: userRecordSchema,
  writingStats: writingStatSchema,
  userAchievements: userAchievementSchema,
  writingSettings: writingSettingsSchema,
  aiSuggestions: aiSuggestionSchema,
  entitlements: entitlementSchema,
  canonChanges: canonChangeSchema,
  worldEntries: worldEntrySchema,
} as const satisfies { readonly [K in EntityKind]: unknown };
