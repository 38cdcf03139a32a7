/**
 * The request-body schemas the mutators validate with (mutators.ts, outbox-write.ts). Imported
 * only through load-body-schemas.ts, on the first write: zod and the schemas it builds at module
 * level are then off the signed-in app's first screen, which writes nothing (issue 16).
 */
import {
  type SeriesScopedKind,
  createBookBodySchema,
  createChapterBodySchema,
  createCharacterBodySchema,
  createLocationBodySchema,
  createRelationshipBodySchema,
  createSeriesBodySchema,
  createTimelineEventBodySchema,
} from '@chronicler/schema';
import type { BodySchema } from './outbox-write.ts';

export {
  reorderChaptersBodySchema,
  reorderTimelineBodySchema,
  updateBookBodySchema,
  updateChapterBodySchema,
  updateCharacterBodySchema,
  updateLocationBodySchema,
  updateRelationshipBodySchema,
  updateSeriesBodySchema,
  updateTimelineEventBodySchema,
} from '@chronicler/schema';

/** Kinds created from the device (user-scoped rows and conflict copies are the server's). */
export type CreatableKind = Exclude<SeriesScopedKind, 'chapterConflicts' | 'aiSuggestions'>;

/** The create body of each kind (an unsent create with an update folded in is checked again with it). */
export const CREATE_SCHEMAS = {
  series: createSeriesBodySchema,
  books: createBookBodySchema,
  chapters: createChapterBodySchema,
  characters: createCharacterBodySchema,
  characterRelationships: createRelationshipBodySchema,
  locations: createLocationBodySchema,
  timelineEvents: createTimelineEventBodySchema,
} satisfies Record<CreatableKind, BodySchema<Record<string, unknown>>>;
