/**
 * What a backup holds, kind by kind, in restore order (parents first). A new kind slots in by
 * adding one entry here: its rows go to `data/<kind>.json`, are validated with its schema, and the
 * fields named in `refs` are remapped on restore when an id had to change. Stored as the API
 * answers rows (wire shape), so the archive reads like the API documentation.
 */
import {
  type EntityKind,
  bookSchema,
  chapterConflictSchema,
  chapterSchema,
  characterRelationshipSchema,
  characterSchema,
  locationSchema,
  seriesSchema,
  timelineEventSchema,
} from '@chronicler/schema';
import { z } from 'zod';

export interface BackupKind {
  kind: EntityKind;
  schema: z.ZodType<Record<string, unknown>>;
  /** Fields holding the id of a row of another kind (null allowed where the schema allows it). */
  refs: Readonly<Record<string, EntityKind>>;
  /** Fields holding a list of ids of another kind. */
  listRefs?: Readonly<Record<string, EntityKind>>;
  /** References that may point at a row the archive does not hold (it was deleted): set to null. */
  optionalRefs?: readonly string[];
  /** Fields naming the author: the restoring author takes them over. */
  userFields?: readonly string[];
}

const row = <T extends z.ZodType>(schema: T) => schema as unknown as z.ZodType<Record<string, unknown>>;

export const BACKUP_KINDS: readonly BackupKind[] = [
  { kind: 'series', schema: row(seriesSchema), refs: {}, userFields: ['ownerId'] },
  { kind: 'books', schema: row(bookSchema), refs: { seriesId: 'series' } },
  { kind: 'chapters', schema: row(chapterSchema), refs: { seriesId: 'series', bookId: 'books' } },
  { kind: 'characters', schema: row(characterSchema), refs: { seriesId: 'series' } },
  {
    kind: 'characterRelationships',
    schema: row(characterRelationshipSchema),
    refs: { seriesId: 'series', sourceCharacterId: 'characters', targetCharacterId: 'characters' },
  },
  { kind: 'locations', schema: row(locationSchema), refs: { seriesId: 'series' } },
  {
    kind: 'timelineEvents',
    schema: row(timelineEventSchema),
    refs: { seriesId: 'series', bookId: 'books', chapterId: 'chapters', locationId: 'locations' },
    listRefs: { characterIds: 'characters' },
    optionalRefs: ['bookId', 'chapterId', 'locationId'],
  },
  {
    kind: 'chapterConflicts',
    schema: row(chapterConflictSchema),
    refs: { seriesId: 'series', chapterId: 'chapters' },
    userFields: ['authorId'],
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

export interface BackupData {
  rows: BackupRows;
  chapterHistory: ChapterHistoryEntry[];
}

export const dataFile = (kind: string) => `data/${kind}.json`;
export const HISTORY_FILE = 'data/chapterHistory.json';
