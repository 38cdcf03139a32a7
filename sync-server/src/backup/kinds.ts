/**
 * What a backup holds, kind by kind, in restore order (parents first). A new kind slots in by
 * adding one entry here: its rows go to `data/<kind>.json`, are validated with its wire schema, and the
 * fields named in `refs` are remapped on restore when an id had to change. Stored as the API
 * answers rows (wire shape), so the archive reads like the API documentation.
 */
import { CANON_ENTITY_TABLES, EDIT_KINDS, WORLD_LINK_FIELDS, type EntityKind, type UserAchievement, type WritingSettings, type WritingStat } from '@chronicler/schema';
import { z } from 'zod';
import { ACCEPTED_IMAGE_TYPES } from '@chronicler/schema/media';
import { WIRE_SCHEMAS } from '../entities/registry.ts';

export interface BackupKind {
  kind: EntityKind;
  /**
   * Fields holding the id of a row of another kind (null allowed where the schema allows it), or of
   * the same kind: a parent in a tree (docs/decisions/0021-places-inside-places.md), remapped after
   * all the kind's rows are placed, and cleared where the archive's tree would loop.
   */
  refs: Readonly<Record<string, EntityKind>>;
  /** Fields holding a list of ids of another kind. */
  listRefs?: Readonly<Record<string, EntityKind>>;
  /** References that may point at a row the archive does not hold (it was deleted): set to null. */
  optionalRefs?: readonly string[];
  /** Fields naming the author: the restoring author takes them over. */
  userFields?: readonly string[];
  /**
   * A reference whose kind another field of the row names (a canon change's `entityId`, of the kind
   * its `entityKind` names): remapped like `refs`, required.
   */
  kindedRefs?: Readonly<Record<string, { kindField: string; kinds: Readonly<Record<string, EntityKind>> }>>;
}

/** The kind a row's kinded reference names (undefined for a kind the table does not know: a damaged archive). */
export function kindedTarget(row: Record<string, unknown>, ref: { kindField: string; kinds: Readonly<Record<string, EntityKind>> }): EntityKind | undefined {
  const name = String(row[ref.kindField]);
  return Object.hasOwn(ref.kinds, name) ? ref.kinds[name] : undefined;
}

/** A kind's rows are checked with its wire schema (entities/registry.ts). */
export const rowSchemaOf = (kind: EntityKind) => WIRE_SCHEMAS[kind] as unknown as z.ZodType<Record<string, unknown>>;

export const BACKUP_KINDS: readonly BackupKind[] = [
  { kind: 'series', refs: {}, userFields: ['ownerId'] },
  { kind: 'books', refs: { seriesId: 'series' } },
  { kind: 'chapters', refs: { seriesId: 'series', bookId: 'books' } },
  { kind: 'characters', refs: { seriesId: 'series' } },
  { kind: 'characterRelationships', refs: { seriesId: 'series', sourceCharacterId: 'characters', targetCharacterId: 'characters' } },
  // A place's parent is a place of the archive: remapped once every place has its id (restore-plan.ts);
  // one missing from the archive (deleted before the backup) leaves the place at the top level.
  { kind: 'locations', refs: { seriesId: 'series', parentId: 'locations' }, optionalRefs: ['parentId'] },
  {
    kind: 'timelineEvents',
    refs: { seriesId: 'series', bookId: 'books', chapterId: 'chapters', locationId: 'locations' },
    listRefs: { characterIds: 'characters' },
    optionalRefs: ['bookId', 'chapterId', 'locationId'],
  },
  { kind: 'chapterConflicts', refs: { seriesId: 'series', chapterId: 'chapters' }, userFields: ['authorId'] },
  // After the entities they change; a deleted chapter or book leaves the change unanchored (null).
  {
    kind: 'canonChanges',
    refs: { seriesId: 'series', bookId: 'books', chapterId: 'chapters', locationId: 'locations', timelineEventId: 'timelineEvents' },
    optionalRefs: ['bookId', 'chapterId', 'locationId', 'timelineEventId'],
    kindedRefs: { entityId: { kindField: 'entityKind', kinds: CANON_ENTITY_TABLES } },
  },
  // Links to characters, places and other entries (remapped after every entry is placed, so an
  // entry may link one later in the archive); a link to a row not in the archive is dropped.
  {
    kind: 'worldEntries',
    refs: { seriesId: 'series', leaderId: 'characters' },
    optionalRefs: ['leaderId'],
    listRefs: { ...WORLD_LINK_FIELDS },
  },
];

/** One earlier saved state of a chapter (its revision history), oldest first in the archive. */
export const chapterHistoryEntrySchema = z.strictObject({
  chapterId: z.uuid(),
  createdAt: z.string(),
  title: z.string(),
  content: z.string(),
  wordCount: z.number().int(),
  status: z.string(),
  position: z.number().int(),
});
export type ChapterHistoryEntry = z.infer<typeof chapterHistoryEntrySchema>;

export type BackupRows = Partial<Record<EntityKind, Record<string, unknown>[]>>;

/**
 * One entry of the author's edit log (progress/writing.ts): their writing statistics are the sum
 * of these, so a restore credits a day only with the entries the account has not logged yet.
 */
export const writingEventEntrySchema = z.strictObject({
  id: z.string().min(1),
  chapterId: z.string(),
  seriesId: z.string(),
  kind: z.enum(EDIT_KINDS),
  editedAt: z.string(),
  recordedAt: z.string(),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  wordsAdded: z.number().int().min(0),
  wordsRemoved: z.number().int().min(0),
  pasted: z.boolean(),
});
export type WritingEventEntry = z.infer<typeof writingEventEntrySchema>;

/** The author's own rows (user-scoped, no series): merged into the restoring account, never doubled. */
export interface AuthorRows {
  writingEvents: WritingEventEntry[];
  writingStats: WritingStat[];
  userAchievements: UserAchievement[];
  writingSettings: WritingSettings[];
}

/** Their files (`data/<name>.json`) and row schemas; a file an older archive lacks reads as empty. */
export const AUTHOR_KINDS: { readonly [K in keyof AuthorRows]: z.ZodType<AuthorRows[K][number]> } = {
  writingEvents: writingEventEntrySchema,
  writingStats: WIRE_SCHEMAS.writingStats,
  userAchievements: WIRE_SCHEMAS.userAchievements,
  writingSettings: WIRE_SCHEMAS.writingSettings,
};
export const AUTHOR_KIND_NAMES = Object.keys(AUTHOR_KINDS) as (keyof AuthorRows)[];

/**
 * A picture a series of the archive keeps (docs/decisions/0022-pictures-on-the-server.md), listed in
 * `data/media.json`; its bytes are the archive's `media/<sha256>` when the archive carries them
 * (up to BACKUP_PICTURE_BYTES of them), else a restore takes them from the server if it still has them.
 */
export const backupPictureSchema = z.strictObject({
  seriesId: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  type: z.enum(ACCEPTED_IMAGE_TYPES),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  bytes: z.number().int().positive(),
});
export type BackupPicture = z.infer<typeof backupPictureSchema>;

export const MEDIA_FILE = 'data/media.json';
export const MEDIA_FOLDER = 'media/';
export const mediaMember = (sha256: string) => `${MEDIA_FOLDER}${sha256}`;

/** Pictures' bytes an archive carries at most: with its rows, it stays restorable (MAX_BACKUP_BYTES, 64 MiB). */
export const BACKUP_PICTURE_BYTES = 48 * 1024 * 1024;

export interface BackupData {
  rows: BackupRows;
  chapterHistory: ChapterHistoryEntry[];
  /** Absent: none (an archive of series only). */
  author?: AuthorRows;
  /** The series' pictures (absent: an archive made before pictures). */
  media?: BackupPicture[];
  /** The pictures' bytes the archive carries, by SHA-256. */
  mediaBytes?: Record<string, Uint8Array>;
}

export const dataFile = (kind: string) => `data/${kind}.json`;
export const HISTORY_FILE = 'data/chapterHistory.json';
