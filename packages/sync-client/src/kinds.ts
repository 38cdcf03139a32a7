/**
 * What the device writes, kind by kind — the client's counterpart of the server's entity registry
 * (sync-server/src/entities/registry.ts). Per kind: the REST collection of the spec's calls, the
 * body schemas of @chronicler/schema, the row a create shows at once (as the server will make it),
 * and the few per-kind rules of the mutators (mutators.ts), of the outbox's coalescing and
 * dependencies (outbox-write.ts) and of the dead letters (engine/dead-letters.ts). Data and small
 * pure functions only: the modules beside it do the writing.
 *
 * A kind the author writes from the device gets an entry here; the mutators' `create`, `update`
 * and `delete` (and `reorder` when it has one) follow from it.
 */
import {
  CANON_ENTITY_TABLES,
  type CreateBookBody,
  type CreateCanonChangeBody,
  type CreateChapterBody,
  type CreateCharacterBody,
  type CreateLocationBody,
  type CreateRelationshipBody,
  type CreateSeriesBody,
  type CreateTimelineEventBody,
  type CreateWorldEntryBody,
  type EntityKind,
  MESSAGES,
  type ReorderChaptersBody,
  type ReorderTimelineBody,
  type SeriesScopedKind,
  type UpdateBookBody,
  type UpdateCanonChangeBody,
  type UpdateChapterBody,
  type UpdateCharacterBody,
  type UpdateLocationBody,
  type UpdateRelationshipBody,
  type UpdateSeriesBody,
  type UpdateTimelineEventBody,
  type UpdateWorldEntryBody,
  WORLD_MESSAGES,
  chapterWordCount,
  createBookBodySchema,
  createCanonChangeBodySchema,
  createChapterBodySchema,
  createCharacterBodySchema,
  createLocationBodySchema,
  createRelationshipBodySchema,
  createSeriesBodySchema,
  createTimelineEventBodySchema,
  createWorldEntryBodySchema,
  nextPosition,
  reorderChaptersBodySchema,
  reorderTimelineBodySchema,
  updateBookBodySchema,
  updateCanonChangeBodySchema,
  updateChapterBodySchema,
  updateCharacterBodySchema,
  updateLocationBodySchema,
  updateRelationshipBodySchema,
  updateSeriesBodySchema,
  updateTimelineEventBodySchema,
  updateWorldEntryBodySchema,
} from '@chronicler/schema';
import type { AnyRow, RowOf } from './db.ts';
import { ValidationError } from './errors.ts';
import { checkPlaceParent } from './places.ts';
import { withWritingMark } from './writing.ts';

/** The part of a zod schema the client uses (zod itself is a dependency of @chronicler/schema). */
export interface BodySchema<T> {
  safeParse(input: unknown): { success: true; data: T } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/**
 * The kinds an author writes from the device: series-scoped ones but the server's own (conflict
 * copies, the companion's suggestions). User-scoped rows (the author's record, statistics …) are
 * written by the server only.
 */
export type WritableKind = Exclude<SeriesScopedKind, 'chapterConflicts' | 'aiSuggestions'>;

/** The bodies a screen passes (the schemas' inputs), per kind; `reorder` for kinds with one. */
export interface WritableBodies {
  series: { create: CreateSeriesBody; update: UpdateSeriesBody };
  books: { create: CreateBookBody; update: UpdateBookBody };
  chapters: { create: CreateChapterBody; update: UpdateChapterBody; reorder: ReorderChaptersBody };
  characters: { create: CreateCharacterBody; update: UpdateCharacterBody };
  characterRelationships: { create: CreateRelationshipBody; update: UpdateRelationshipBody };
  locations: { create: CreateLocationBody; update: UpdateLocationBody };
  timelineEvents: { create: CreateTimelineEventBody; update: UpdateTimelineEventBody; reorder: ReorderTimelineBody };
  canonChanges: { create: CreateCanonChangeBody; update: UpdateCanonChangeBody };
  worldEntries: { create: CreateWorldEntryBody; update: UpdateWorldEntryBody };
}

/** The kinds whose rows are reordered as a group (one request for the group). */
export type ReorderableKind = { [K in WritableKind]: WritableBodies[K] extends { reorder: unknown } ? K : never }[WritableKind];

/** The columns the server gives every new row, as a create shows them until its answer. */
export interface Stamps {
  id: string;
  rev: 0;
  createdAt: string;
  updatedAt: string;
  deletedAt: null;
}

/** What a create's row may read and stamp (given by the mutators, inside the write's transaction). */
export interface NewRowContext {
  /** The signed-in author. */
  userId: string;
  /** The new row's stamps (its id, rev 0, the time now). */
  stamps(): Stamps;
  /** A row the new one hangs from; NotFoundLocallyError(`message`) when it is not live here. */
  parent<P extends EntityKind>(kind: P, id: string, message: string): Promise<RowOf<P>>;
  /** The live rows of `kind` whose indexed field `index` is `value`. */
  liveWhere<P extends EntityKind>(kind: P, index: string, value: string): Promise<RowOf<P>[]>;
}

/** A reorder: its route, the body's list of `{id, position}`, and the group the rows share. */
export interface ReorderDescription {
  path: string;
  list: string;
  body: BodySchema<unknown>;
  /** The id of the group (a chapter's book, an event's series): the outbox entry's row. */
  groupOf(row: AnyRow): string;
}

export interface WritableDescription<K extends WritableKind> {
  kind: K;
  /** The REST collection: POST to it, PUT and DELETE to `path/:id`. */
  path: string;
  /** What the author reads when the row is not on this device (deleted, or never synced here). */
  notFound: string;
  createBody: BodySchema<{ id?: string | undefined }>;
  updateBody: BodySchema<Record<string, unknown>>;
  /** The row a create shows at once, as the server will make it; `body` is parsed and has its id. */
  newRow(body: { id: string }, context: NewRowContext): Promise<RowOf<K>>;
  /** The body an update sends, from the parsed one (a chapter save carries its writing mark). */
  asSent?(body: Record<string, unknown>, nowMs: number): Record<string, unknown>;
  /** Update fields the local row does not take as sent: the server derives them, or they are not columns. */
  notPatched?: readonly string[];
  /**
   * Update fields a create route does not store as the update route would (the server places a
   * new book itself, whatever position is sent): an update carrying one stays a request of its own
   * instead of being folded into the row's unsent create.
   */
  notFoldableIntoCreate?: readonly string[];
  /** A request may name an unacknowledged create of this kind, and then waits for its answer. */
  referable: boolean;
  /** What a create's row hangs from, in words (a dead letter's message); default 'its series'. */
  parentInWords?: string;
  reorder?: ReorderDescription;
  /** Checks an update against the local rows before it is written (a place's move: no cycle); throws to refuse it. */
  checkUpdate?(row: RowOf<K>, body: Record<string, unknown>, context: Pick<NewRowContext, 'parent' | 'liveWhere'>): Promise<void>;
}

/**
 * One kind's description, its bodies typed from its schemas: `newRow` and `asSent` are checked
 * against what the schemas parse to, then stored as any kind's.
 */
function describe<K extends WritableKind, C extends { id?: string | undefined }, U extends object>(
  description: Omit<WritableDescription<K>, 'createBody' | 'updateBody' | 'newRow' | 'asSent'> & {
    createBody: BodySchema<C>;
    updateBody: BodySchema<U>;
    newRow(body: C & { id: string }, context: NewRowContext): Promise<RowOf<K>>;
    asSent?(body: U, nowMs: number): U;
  },
): WritableDescription<K> {
  return description as unknown as WritableDescription<K>;
}

/**
 * The row of a kind that hangs from its series alone and takes the body's fields as they are;
 * `message` when the series is not here.
 */
function inSeries(message: string) {
  return async <B extends { id: string; seriesId: string }>(body: B, { stamps, parent }: NewRowContext) => {
    const series = await parent('series', body.seriesId, message);
    const { id: _id, seriesId: _seriesId, ...fields } = body;
    return { ...stamps(), seriesId: series.id, ...fields };
  };
}

const characterNotFound = 'This character is no longer available';

export const WRITABLE: { readonly [K in WritableKind]: WritableDescription<K> } = {
  series: describe({
    kind: 'series',
    path: '/api/series',
    notFound: 'This series is no longer available',
    createBody: createSeriesBodySchema,
    // The spec's `name` is accepted and stored as `title`.
    updateBody: updateSeriesBodySchema,
    newRow: async (body, { userId, stamps }) => ({
      ...stamps(),
      ownerId: userId,
      title: body.title,
      description: body.description,
      totalBooks: body.totalBooks,
      currentBook: body.currentBook,
      coverImage: body.coverImage,
    }),
    referable: true,
  }),

  // A delete takes the book's chapters (their conflict copies stay, as on the server).
  books: describe({
    kind: 'books',
    path: '/api/books',
    notFound: 'This book is no longer available',
    createBody: createBookBodySchema,
    updateBody: updateBookBodySchema,
    async newRow(body, { stamps, parent, liveWhere }) {
      const series = await parent('series', body.seriesId, MESSAGES.book.seriesRequired);
      // The server places a new book after the live ones (count + 1), whatever is sent.
      const position = nextPosition((await liveWhere('books', 'seriesId', series.id)).length);
      return {
        ...stamps(),
        seriesId: series.id,
        title: body.title,
        description: body.description,
        position,
        status: body.status,
        wordCount: 0,
      };
    },
    notFoldableIntoCreate: ['position', 'wordCount'],
    referable: true,
  }),

  chapters: describe({
    kind: 'chapters',
    path: '/api/chapters',
    notFound: 'This chapter is no longer available',
    createBody: createChapterBodySchema,
    // Saves title / text / status / position / synopsis / notes, with the base revision for the server's merge.
    updateBody: updateChapterBodySchema,
    async newRow(body, { stamps, parent, liveWhere }) {
      const book = await parent('books', body.bookId, MESSAGES.chapter.bookRequired);
      const position = body.position ?? nextPosition((await liveWhere('chapters', 'bookId', book.id)).length);
      return {
        ...stamps(),
        seriesId: book.seriesId,
        bookId: book.id,
        title: body.title,
        content: body.content,
        position,
        wordCount: chapterWordCount(body.content),
        status: body.status,
        synopsis: body.synopsis,
        notes: body.notes,
        flashback: body.flashback,
      };
    },
    asSent: (body, nowMs) => withWritingMark(body, nowMs),
    // The word count is derived from the text, as the server does; the save's writing mark
    // (writing.ts) is not a field of the chapter.
    notPatched: ['wordCount', 'writing'],
    referable: true,
    parentInWords: 'its book',
    // Positions as the screen computed them (1-based after a drag), all chapters of one book.
    reorder: { path: '/api/chapters/reorder', list: 'chapters', body: reorderChaptersBodySchema, groupOf: (row) => (row as RowOf<'chapters'>).bookId },
  }),

  // A delete takes the character's relationships and removes it from timeline events.
  characters: describe({
    kind: 'characters',
    path: '/api/characters',
    notFound: characterNotFound,
    createBody: createCharacterBodySchema,
    updateBody: updateCharacterBodySchema,
    newRow: inSeries(MESSAGES.character.seriesRequired),
    referable: true,
  }),

  characterRelationships: describe({
    kind: 'characterRelationships',
    path: '/api/character-relationships',
    notFound: 'This relationship is no longer available',
    createBody: createRelationshipBodySchema,
    updateBody: updateRelationshipBodySchema,
    async newRow(body, { stamps, parent }) {
      const source = await parent('characters', body.sourceCharacterId, characterNotFound);
      const target = await parent('characters', body.targetCharacterId, characterNotFound);
      if (source.seriesId !== target.seriesId) {
        throw new ValidationError('Both characters must belong to the same series', { targetCharacterId: 'series' });
      }
      return {
        ...stamps(),
        seriesId: source.seriesId,
        sourceCharacterId: source.id,
        targetCharacterId: target.id,
        relationshipType: body.relationshipType,
        description: body.description,
      };
    },
    referable: false,
    parentInWords: 'one of its characters',
  }),

  // A delete clears the location from timeline events; the places inside it move up to its parent.
  locations: describe({
    kind: 'locations',
    path: '/api/locations',
    notFound: 'This location is no longer available',
    createBody: createLocationBodySchema,
    updateBody: updateLocationBodySchema,
    async newRow(body, context) {
      const row = await inSeries(MESSAGES.location.seriesRequired)(body, context);
      await checkPlaceParent(context, row.seriesId, body.id, body.parentId);
      return row;
    },
    // A place inside a place (docs/decisions/0021-places-inside-places.md): never inside itself or one of its own.
    checkUpdate: (row, body, context) => checkPlaceParent(context, row.seriesId, row.id, body.parentId as string | null | undefined),
    referable: true,
  }),

  timelineEvents: describe({
    kind: 'timelineEvents',
    path: '/api/timeline-events',
    notFound: 'This timeline event is no longer available',
    createBody: createTimelineEventBodySchema,
    updateBody: updateTimelineEventBodySchema,
    newRow: inSeries('Please select a series first'),
    referable: false,
    // Positions renumbered from 1 in the new order (001 §4).
    reorder: { path: '/api/timeline-events/reorder', list: 'events', body: reorderTimelineBodySchema, groupOf: (row) => (row as RowOf<'timelineEvents'>).seriesId },
  }),

  // A change of a field of a character, place or relationship at a story point
  // (docs/decisions/0017-canon-changes.md); it goes with its entity, and outlives its chapter.
  canonChanges: describe({
    kind: 'canonChanges',
    path: '/api/canon-changes',
    notFound: 'This change is no longer available',
    createBody: createCanonChangeBodySchema,
    updateBody: updateCanonChangeBodySchema,
    async newRow(body, { stamps, parent }) {
      const series = await parent('series', body.seriesId, 'Please select a series first');
      const entity = await parent(CANON_ENTITY_TABLES[body.entityKind], body.entityId, `This ${body.entityKind} is no longer available`);
      if (entity.seriesId !== series.id) throw new ValidationError(`The ${body.entityKind} must belong to the same series as the change`, { entityId: 'series' });
      return {
        ...stamps(),
        seriesId: series.id,
        entityKind: body.entityKind,
        entityId: entity.id,
        field: body.field,
        value: body.value,
        locationId: body.locationId,
        bookId: body.bookId,
        chapterId: body.chapterId,
        timelineEventId: body.timelineEventId,
        date: body.date,
        note: body.note,
      };
    },
    referable: false,
    parentInWords: 'its character, place or relationship',
  }),

  // Cultures, magic systems, species, technologies and factions (docs/decisions/0020-world-entries.md).
  // Entries link one another, so one made offline may be named by the next before it is sent.
  worldEntries: describe({
    kind: 'worldEntries',
    path: '/api/world-entries',
    notFound: 'This entry is no longer available',
    createBody: createWorldEntryBodySchema,
    updateBody: updateWorldEntryBodySchema,
    newRow: inSeries(WORLD_MESSAGES.seriesRequired),
    referable: true,
  }),
};

/** The writable kinds, in the order of the table. */
export const WRITABLE_KINDS = Object.keys(WRITABLE) as WritableKind[];

export function isWritableKind(kind: EntityKind): kind is WritableKind {
  return Object.hasOwn(WRITABLE, kind);
}
