/**
 * Local mutators: the only way screens write entity data (DESIGN.md §1). Each one validates with
 * the body schema of @chronicler/schema (throwing its message), makes the UUIDv7 id of a create,
 * and builds the request and its optimistic effects; outbox-write.ts writes them, the change AND
 * its outbox entry, in ONE Dexie transaction (Dexie Cloud style), coalescing unsent updates.
 * Deletes cascade locally by the same table the server's deletes interpret
 * (@chronicler/schema delete-cascade.ts).
 */
import {
  type CascadeReader,
  type Chapter,
  type CharacterRelationship,
  type CreateBookBody,
  type CreateChapterBody,
  type CreateCharacterBody,
  type CreateLocationBody,
  type CreateRelationshipBody,
  type CreateSeriesBody,
  type CreateTimelineEventBody,
  MESSAGES,
  type ReorderChaptersBody,
  type ReorderTimelineBody,
  type TimelineEvent,
  type UpdateBookBody,
  type UpdateChapterBody,
  type UpdateCharacterBody,
  type UpdateLocationBody,
  type UpdateRelationshipBody,
  type UpdateSeriesBody,
  type UpdateTimelineEventBody,
  byPosition,
  chapterWordCount,
  createBookBodySchema,
  createChapterBodySchema,
  createCharacterBodySchema,
  createLocationBodySchema,
  createRelationshipBodySchema,
  createSeriesBodySchema,
  createTimelineEventBodySchema,
  newId,
  nextPosition,
  planDeleteCascade,
  reorderChaptersBodySchema,
  renumbered,
  reorderTimelineBodySchema,
  updateBookBodySchema,
  updateChapterBodySchema,
  updateCharacterBodySchema,
  updateLocationBodySchema,
  updateRelationshipBodySchema,
  updateSeriesBodySchema,
  updateTimelineEventBodySchema,
  type SeriesScopedKind,
} from '@chronicler/schema';
import {
  type AnyRow,
  type ChroniclerDb,
  type Effect,
  type EntityKind,
  type RowOf,
  SYNC_TABLES,
  entityTable,
} from './db.ts';
import { isLive } from './rebase.ts';
import { reportStorageError } from './storage.ts';
import { type BodySchema, commit } from './outbox-write.ts';
import { withWritingMark } from './writing.ts';

export { referencedIds } from './outbox-write.ts';

/** A body that failed its schema: `message` is the schema's first message, `fields` per field. */
export class ValidationError extends Error {
  constructor(
    message: string,
    readonly fields: Record<string, string>,
  ) {
    super(message);
    this.name = 'ValidationError';
  }
}

/** A referenced row that is not in the local store (deleted, or never synced here). */
export class NotFoundLocallyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotFoundLocallyError';
  }
}

function parse<T>(schema: BodySchema<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) fields[issue.path.map(String).join('.') || '_'] ??= issue.message;
  throw new ValidationError(result.error.issues[0]?.message ?? 'Invalid input', fields);
}

export interface MutatorOptions {
  /** Clock for optimistic timestamps (tests). */
  now?: () => number;
}

async function mustGet<K extends EntityKind>(db: ChroniclerDb, kind: K, id: string, message: string): Promise<RowOf<K>> {
  const row = (await entityTable(db, kind).get(id)) as AnyRow | undefined;
  if (!isLive(row) && !(row && kind === 'chapters')) throw new NotFoundLocallyError(message);
  return row as RowOf<K>;
}

function stamps(id: string, nowMs: number) {
  const iso = new Date(nowMs).toISOString();
  return { id, rev: 0, createdAt: iso, updatedAt: iso, deletedAt: null };
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

// -------------------------------------------------------------------------------------------
// Cascades: the shared table (@chronicler/schema delete-cascade.ts) the server applies too

async function liveWhere<K extends EntityKind>(db: ChroniclerDb, kind: K, index: string, value: string): Promise<RowOf<K>[]> {
  const rows = (await entityTable(db, kind).where(index).equals(value).toArray()) as AnyRow[];
  return rows.filter(isLive) as RowOf<K>[];
}

async function cascadeEffects(db: ChroniclerDb, kind: EntityKind, row: AnyRow, nowIso: string): Promise<Effect[]> {
  const reader: CascadeReader = { liveWhere: (k, field, value) => liveWhere(db, k, field, value) };
  return (await planDeleteCascade(reader, kind, row)).map((w) =>
    w.op === 'delete' ? { op: 'delete', entity: w.kind, id: w.id } : { op: 'patch', entity: w.kind, id: w.id, fields: { ...w.fields, updatedAt: nowIso } },
  );
}

/** A book's live chapters but `leaving`, renumbered 1..n as the server's chapter delete does (@chronicler/schema positions.ts). */
async function closeChapterGap(db: ChroniclerDb, bookId: string, leaving: string, nowIso: string): Promise<Effect[]> {
  const live = (await liveWhere(db, 'chapters', 'bookId', bookId)).filter((c) => c.id !== leaving).sort(byPosition);
  return renumbered(live)
    .filter((r) => r.changed)
    .map((r) => ({ op: 'patch', entity: 'chapters', id: r.row.id, fields: { position: r.position, updatedAt: nowIso } }));
}

// -------------------------------------------------------------------------------------------
// Generic create / update / delete

/**
 * The kinds an author writes from the device: series-scoped ones but conflict copies (made by the
 * server). User-scoped rows (the author's record, statistics …) are written by the server only.
 */
type WritableKind = Exclude<SeriesScopedKind, 'chapterConflicts' | 'aiSuggestions'>;

const PATHS: Record<WritableKind, string> = {
  series: '/api/series',
  books: '/api/books',
  chapters: '/api/chapters',
  characters: '/api/characters',
  characterRelationships: '/api/character-relationships',
  locations: '/api/locations',
  timelineEvents: '/api/timeline-events',
};

const NOT_FOUND: Record<SeriesScopedKind, string> = {
  series: 'This series is no longer available',
  books: 'This book is no longer available',
  chapters: 'This chapter is no longer available',
  characters: 'This character is no longer available',
  characterRelationships: 'This relationship is no longer available',
  locations: 'This location is no longer available',
  timelineEvents: 'This timeline event is no longer available',
  chapterConflicts: 'This conflict copy is no longer available',
  aiSuggestions: 'This suggestion is no longer available',
};

export function createMutators(db: ChroniclerDb, options: MutatorOptions = {}) {
  const now = options.now ?? (() => Date.now());

  async function create<K extends WritableKind>(
    kind: K,
    body: Record<string, unknown> & { id: string },
    makeRow: () => Promise<RowOf<K>>,
  ): Promise<RowOf<K>> {
    let made: RowOf<K> | undefined;
    const path = PATHS[kind];
    await commit(
      db,
      now,
      async () => {
        // Both reads in one wave; a taken id is reported before anything makeRow finds.
        const [taken, row] = await Promise.allSettled([entityTable(db, kind).get(body.id), makeRow()]);
        if (taken.status === 'rejected') throw taken.reason;
        if (taken.value) throw new ValidationError('An item with this id already exists', { id: 'taken' });
        if (row.status === 'rejected') throw row.reason;
        made = row.value;
        return {
          current: null,
          kind: 'create',
          method: 'POST',
          path,
          body,
          entity: kind,
          entityId: body.id,
          seriesId: kind === 'series' ? body.id : (made as { seriesId: string }).seriesId,
          effects: [{ op: 'put', entity: kind, id: body.id, row: made }],
        };
      },
      { entity: kind, entityId: body.id, path, body },
    );
    return made!;
  }

  async function update<K extends WritableKind>(
    kind: K,
    id: string,
    fields: Record<string, unknown>,
    check?: (row: RowOf<K>) => Promise<void>,
  ): Promise<void> {
    const body = withoutUndefined(fields);
    const path = `${PATHS[kind]}/${id}`;
    await commit(
      db,
      now,
      async () => {
        const row = await mustGet(db, kind, id, NOT_FOUND[kind]);
        await check?.(row);
        const patch: Record<string, unknown> = { ...body, updatedAt: new Date(now()).toISOString() };
        if (kind === 'chapters') {
          delete patch.wordCount; // derived from the text, as the server does
          delete patch.writing; // the save's writing mark (writing.ts) is not a field of the chapter
        }
        return {
          kind: 'update',
          method: 'PUT',
          path,
          body,
          entity: kind,
          entityId: id,
          seriesId: kind === 'series' ? id : (row as { seriesId: string }).seriesId,
          effects: [{ op: 'patch', entity: kind, id, fields: patch }],
          current: row,
        };
      },
      { entity: kind, entityId: id, path, body },
    );
  }

  async function remove(kind: WritableKind, id: string): Promise<void> {
    await commit(db, now, async () => {
      const row = await mustGet(db, kind, id, NOT_FOUND[kind]);
      const nowIso = new Date(now()).toISOString();
      const cascade = await cascadeEffects(db, kind, row, nowIso);
      // The book's later chapters move up to close the gap, as the server does in the same write.
      const closeGap = kind === 'chapters' ? await closeChapterGap(db, (row as Chapter).bookId, id, nowIso) : [];
      return {
        kind: 'delete',
        method: 'DELETE',
        path: `${PATHS[kind]}/${id}`,
        body: undefined,
        entity: kind,
        entityId: id,
        seriesId: kind === 'series' ? id : (row as { seriesId: string }).seriesId,
        effects: [{ op: 'delete', entity: kind, id }, ...cascade, ...closeGap],
      };
    });
  }

  async function reorder(
    kind: 'chapters' | 'timelineEvents',
    items: readonly { id: string; position: number }[],
    body: unknown,
    path: string,
  ): Promise<void> {
    await commit(db, now, async () => {
      const rows: AnyRow[] = [];
      for (const item of items) rows.push(await mustGet(db, kind, item.id, NOT_FOUND[kind]));
      const first = rows[0] as Chapter | TimelineEvent;
      const groupId = kind === 'chapters' ? (first as Chapter).bookId : first.seriesId;
      const nowIso = new Date(now()).toISOString();
      const effects: Effect[] = [];
      for (const [i, item] of items.entries()) {
        if ((rows[i] as Chapter | TimelineEvent).position === item.position) continue;
        effects.push({ op: 'patch', entity: kind, id: item.id, fields: { position: item.position, updatedAt: nowIso } });
      }
      return { kind: 'reorder', method: 'POST', path, body, entity: kind, entityId: groupId, seriesId: first.seriesId, effects };
    });
  }

  const nowIso = () => new Date(now()).toISOString();

  return {
    series: {
      async create(input: CreateSeriesBody) {
        const body = parse(createSeriesBodySchema, input);
        const id = body.id ?? newId(now());
        return create('series', { ...body, id }, async () => ({
          ...stamps(id, now()),
          ownerId: db.userId,
          title: body.title,
          description: body.description,
          totalBooks: body.totalBooks,
          currentBook: body.currentBook,
          coverImage: body.coverImage,
        }));
      },
      /** The spec's `name` is accepted and stored as `title`. */
      update: (id: string, input: UpdateSeriesBody) => update('series', id, parse(updateSeriesBodySchema, input)),
      delete: (id: string) => remove('series', id),
    },

    books: {
      async create(input: CreateBookBody) {
        const body = parse(createBookBodySchema, input);
        const id = body.id ?? newId(now());
        return create('books', { ...body, id }, async () => {
          const series = await mustGet(db, 'series', body.seriesId, MESSAGES.book.seriesRequired);
          // The server places a new book after the live ones (count + 1), whatever is sent.
          const position = nextPosition((await liveWhere(db, 'books', 'seriesId', series.id)).length);
          return {
            ...stamps(id, now()),
            seriesId: series.id,
            title: body.title,
            description: body.description,
            position,
            status: body.status,
            wordCount: 0,
          };
        });
      },
      update: (id: string, input: UpdateBookBody) => update('books', id, parse(updateBookBodySchema, input)),
      /** Deletes the book and its chapters (their conflict copies stay, as on the server). */
      delete: (id: string) => remove('books', id),
    },

    chapters: {
      async create(input: CreateChapterBody) {
        const body = parse(createChapterBodySchema, input);
        const id = body.id ?? newId(now());
        return create('chapters', { ...body, id }, async () => {
          const book = await mustGet(db, 'books', body.bookId, MESSAGES.chapter.bookRequired);
          const position = body.position ?? nextPosition((await liveWhere(db, 'chapters', 'bookId', book.id)).length);
          return {
            ...stamps(id, now()),
            seriesId: book.seriesId,
            bookId: book.id,
            title: body.title,
            content: body.content,
            position,
            wordCount: chapterWordCount(body.content),
            status: body.status,
          };
        });
      },
      /** Saves title / text / status / position. Carries the base revision for the server's merge. */
      update: (id: string, input: UpdateChapterBody) => update('chapters', id, withWritingMark(parse(updateChapterBodySchema, input), now())),
      delete: (id: string) => remove('chapters', id),
      /** Positions as the screen computed them (1-based after a drag). All chapters of one book. */
      async reorder(input: ReorderChaptersBody) {
        const body = parse(reorderChaptersBodySchema, input);
        await reorder('chapters', body.chapters, body, '/api/chapters/reorder');
      },
    },

    characters: {
      async create(input: CreateCharacterBody) {
        const body = parse(createCharacterBodySchema, input);
        const id = body.id ?? newId(now());
        return create('characters', { ...body, id }, async () => {
          const series = await mustGet(db, 'series', body.seriesId, MESSAGES.character.seriesRequired);
          const { id: _id, seriesId: _s, ...fields } = body;
          return { ...stamps(id, now()), seriesId: series.id, ...fields };
        });
      },
      update: (id: string, input: UpdateCharacterBody) => update('characters', id, parse(updateCharacterBodySchema, input)),
      /** Deletes the character, its relationships, and removes it from timeline events. */
      delete: (id: string) => remove('characters', id),
    },

    relationships: {
      async create(input: CreateRelationshipBody) {
        const body = parse(createRelationshipBodySchema, input);
        const id = body.id ?? newId(now());
        return create('characterRelationships', { ...body, id }, async () => {
          const source = await mustGet(db, 'characters', body.sourceCharacterId, NOT_FOUND.characters);
          const target = await mustGet(db, 'characters', body.targetCharacterId, NOT_FOUND.characters);
          if (source.seriesId !== target.seriesId) {
            throw new ValidationError('Both characters must belong to the same series', { targetCharacterId: 'series' });
          }
          const row: CharacterRelationship = {
            ...stamps(id, now()),
            seriesId: source.seriesId,
            sourceCharacterId: source.id,
            targetCharacterId: target.id,
            relationshipType: body.relationshipType,
            description: body.description,
          };
          return row;
        });
      },
      update: (id: string, input: UpdateRelationshipBody) =>
        update('characterRelationships', id, parse(updateRelationshipBodySchema, input)),
      delete: (id: string) => remove('characterRelationships', id),
    },

    locations: {
      async create(input: CreateLocationBody) {
        const body = parse(createLocationBodySchema, input);
        const id = body.id ?? newId(now());
        return create('locations', { ...body, id }, async () => {
          const series = await mustGet(db, 'series', body.seriesId, MESSAGES.location.seriesRequired);
          const { id: _id, seriesId: _s, ...fields } = body;
          return { ...stamps(id, now()), seriesId: series.id, ...fields };
        });
      },
      update: (id: string, input: UpdateLocationBody) => update('locations', id, parse(updateLocationBodySchema, input)),
      /** Deletes the location and clears it from timeline events. */
      delete: (id: string) => remove('locations', id),
    },

    timelineEvents: {
      async create(input: CreateTimelineEventBody) {
        const body = parse(createTimelineEventBodySchema, input);
        const id = body.id ?? newId(now());
        return create('timelineEvents', { ...body, id }, async () => {
          const series = await mustGet(db, 'series', body.seriesId, 'Please select a series first');
          const { id: _id, seriesId: _s, ...fields } = body;
          return { ...stamps(id, now()), seriesId: series.id, ...fields };
        });
      },
      update: (id: string, input: UpdateTimelineEventBody) => update('timelineEvents', id, parse(updateTimelineEventBodySchema, input)),
      delete: (id: string) => remove('timelineEvents', id),
      /** Positions renumbered from 1 in the new order (001 §4). */
      async reorder(input: ReorderTimelineBody) {
        const body = parse(reorderTimelineBodySchema, input);
        await reorder('timelineEvents', body.events, body, '/api/timeline-events/reorder');
      },
    },

    conflicts: {
      /**
       * Resolves a conflict copy. With `apply`, the chosen title/text is saved to the chapter first
       * (a normal chapter save, merged on the server like any other); the copy is then dismissed.
       */
      async resolve(conflictId: string, apply?: { title?: string; content?: string }) {
        const chapterFields = apply && (apply.title !== undefined || apply.content !== undefined)
          ? parse(updateChapterBodySchema, withoutUndefined(apply))
          : null;
        // Both entries (the chapter save and the dismissal) in one transaction.
        await db.transaction('rw', SYNC_TABLES as unknown as string[], async () => {
          const conflict = await db.chapterConflicts.get(conflictId);
          if (!conflict) throw new NotFoundLocallyError(NOT_FOUND.chapterConflicts);
          // Accepting a copy's text is not writing (writing.ts): its words were counted when typed, if at all.
          if (chapterFields) await update('chapters', conflict.chapterId, withWritingMark({ ...chapterFields, writing: { kind: 'conflict-accept' } }, now()));
          await commit(db, now, async () => ({
          kind: 'resolve',
          method: 'DELETE',
          path: `/api/chapter-conflicts/${conflictId}`,
          body: undefined,
          entity: 'chapterConflicts',
          entityId: conflictId,
          seriesId: conflict.seriesId,
          effects: [{ op: 'delete', entity: 'chapterConflicts', id: conflictId }],
          }));
        });
      },
    },

    /** The editor's keystroke drafts (not synced; saved to the chapter by `chapters.update`). */
    drafts: {
      save: (chapterId: string, draft: { title: string; content: string }) =>
        db.drafts.put({ chapterId, ...draft, updatedAt: now() }).catch((error: unknown) => {
          reportStorageError(error);
          throw error;
        }),
      discard: (chapterId: string) => db.drafts.delete(chapterId),
    },

    nowIso,
  };
}

export type Mutators = ReturnType<typeof createMutators>;
