/**
 * Local mutators: the only way screens write entity data (docs/architecture.md#the-data-loop). Each
 * one validates with the body schema of @chronicler/schema (throwing its message), makes the UUIDv7
 * id of a create, and builds the request and its optimistic effects; outbox-write.ts writes them,
 * the change AND its outbox entry, in ONE Dexie transaction (Dexie Cloud style), coalescing unsent
 * updates. Every writable kind's `create`, `update`, `delete` (and `reorder`) are built from its
 * entry in the per-kind table (kinds.ts). Deletes cascade locally by the same table the server's
 * deletes interpret (@chronicler/schema delete-cascade.ts).
 */
import { type CascadeReader, type Chapter, byPosition, newId, planDeleteCascade, renumbered } from '@chronicler/schema';
import {
  type AnyRow,
  type ChroniclerDb,
  type Effect,
  type EntityKind,
  type RowOf,
  SYNC_TABLES,
  entityTable,
  seriesIdOfRow,
} from './db.ts';
import { NotFoundLocallyError, ValidationError } from './errors.ts';
import {
  type BodySchema,
  type NewRowContext,
  type ReorderableKind,
  WRITABLE,
  type WritableBodies,
  type WritableKind,
} from './kinds.ts';
import { isLive } from './rebase.ts';
import { reportStorageError } from './storage.ts';
import { commit } from './outbox-write.ts';
import { withWritingMark } from './writing.ts';

export { NotFoundLocallyError, ValidationError } from './errors.ts';
export { referencedIds } from './outbox-write.ts';

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
  return { id, rev: 0, createdAt: iso, updatedAt: iso, deletedAt: null } as const;
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
// Create / update / delete / reorder, for every kind of the table (kinds.ts)

/** What a screen calls for one writable kind. */
export interface KindMutators<K extends WritableKind> {
  create(input: WritableBodies[K]['create']): Promise<RowOf<K>>;
  update(id: string, input: WritableBodies[K]['update']): Promise<void>;
  /** Deletes the row and what hangs from it (the shared cascade table). */
  delete(id: string): Promise<void>;
}

/** A kind whose rows are reordered as a group: positions as the screen computed them. */
export interface ReorderMutator<K extends ReorderableKind> {
  reorder(input: WritableBodies[K]['reorder']): Promise<void>;
}

const CONFLICT_NOT_FOUND = 'This conflict copy is no longer available';

export function createMutators(db: ChroniclerDb, options: MutatorOptions = {}) {
  const now = options.now ?? (() => Date.now());

  async function create<K extends WritableKind>(
    kind: K,
    body: Record<string, unknown> & { id: string },
    makeRow: () => Promise<RowOf<K>>,
  ): Promise<RowOf<K>> {
    let made: RowOf<K> | undefined;
    const path = WRITABLE[kind].path;
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
          seriesId: seriesIdOfRow(kind, made!)!,
          effects: [{ op: 'put', entity: kind, id: body.id, row: made }],
        };
      },
      { entity: kind, entityId: body.id, path, body },
    );
    return made!;
  }

  async function update<K extends WritableKind>(kind: K, id: string, fields: Record<string, unknown>): Promise<void> {
    const { path: collection, notFound, notPatched = [], checkUpdate } = WRITABLE[kind];
    const body = withoutUndefined(fields);
    const path = `${collection}/${id}`;
    await commit(
      db,
      now,
      async () => {
        const row = await mustGet(db, kind, id, notFound);
        await checkUpdate?.(row, body, newRowContext(id));
        const patch: Record<string, unknown> = { ...body, updatedAt: new Date(now()).toISOString() };
        for (const field of notPatched) delete patch[field];
        // The Trash (restructure.ts): the server stores `trashed` as the time of the write.
        if (typeof patch.trashed === 'boolean') patch.trashedAt = patch.trashed ? patch.updatedAt : null;
        delete patch.trashed;
        return {
          kind: 'update',
          method: 'PUT',
          path,
          body,
          entity: kind,
          entityId: id,
          seriesId: seriesIdOfRow(kind, row)!,
          effects: [{ op: 'patch', entity: kind, id, fields: patch }],
          current: row,
        };
      },
      { entity: kind, entityId: id, path, body },
    );
  }

  async function remove(kind: WritableKind, id: string): Promise<void> {
    await commit(db, now, async () => {
      const row = await mustGet(db, kind, id, WRITABLE[kind].notFound);
      const nowIso = new Date(now()).toISOString();
      const cascade = await cascadeEffects(db, kind, row, nowIso);
      // The book's later chapters move up to close the gap, as the server does in the same write.
      const closeGap = kind === 'chapters' ? await closeChapterGap(db, (row as Chapter).bookId, id, nowIso) : [];
      return {
        kind: 'delete',
        method: 'DELETE',
        path: `${WRITABLE[kind].path}/${id}`,
        body: undefined,
        entity: kind,
        entityId: id,
        seriesId: seriesIdOfRow(kind, row)!,
        effects: [{ op: 'delete', entity: kind, id }, ...cascade, ...closeGap],
      };
    });
  }

  async function reorder(kind: ReorderableKind, input: unknown): Promise<void> {
    const { notFound, reorder: how } = WRITABLE[kind];
    const body = parse(how!.body, input);
    const items = (body as Record<string, readonly { id: string; position: number }[]>)[how!.list]!;
    await commit(db, now, async () => {
      const rows: AnyRow[] = [];
      for (const item of items) rows.push(await mustGet(db, kind, item.id, notFound));
      const first = rows[0] as RowOf<ReorderableKind>;
      const nowIso = new Date(now()).toISOString();
      const effects: Effect[] = [];
      for (const [i, item] of items.entries()) {
        if ((rows[i] as RowOf<ReorderableKind>).position === item.position) continue;
        effects.push({ op: 'patch', entity: kind, id: item.id, fields: { position: item.position, updatedAt: nowIso } });
      }
      return { kind: 'reorder', method: 'POST', path: how!.path, body, entity: kind, entityId: how!.groupOf(first), seriesId: first.seriesId, effects };
    });
  }

  /** What a create's row reads and stamps, inside the write's transaction. */
  function newRowContext(id: string): NewRowContext {
    return {
      userId: db.userId,
      stamps: () => stamps(id, now()),
      parent: (kind, parentId, message) => mustGet(db, kind, parentId, message),
      liveWhere: (kind, index, value) => liveWhere(db, kind, index, value),
    };
  }

  function mutatorsOf<K extends WritableKind>(kind: K): KindMutators<K> {
    const description = WRITABLE[kind];
    return {
      async create(input) {
        const body = parse(description.createBody, input);
        const id = body.id ?? newId(now());
        const withId = { ...body, id };
        return create(kind, withId, () => description.newRow(withId, newRowContext(id)));
      },
      update(id, input) {
        const body = parse(description.updateBody, input);
        return update(kind, id, description.asSent ? description.asSent(body, now()) : body);
      },
      delete: (id) => remove(kind, id),
    };
  }

  function reorderable<K extends ReorderableKind>(kind: K): KindMutators<K> & ReorderMutator<K> {
    return { ...mutatorsOf(kind), reorder: (input) => reorder(kind, input) };
  }

  const nowIso = () => new Date(now()).toISOString();

  return {
    series: mutatorsOf('series'),
    books: mutatorsOf('books'),
    chapters: reorderable('chapters'),
    characters: mutatorsOf('characters'),
    relationships: mutatorsOf('characterRelationships'),
    locations: mutatorsOf('locations'),
    timelineEvents: reorderable('timelineEvents'),
    canonChanges: mutatorsOf('canonChanges'),
    worldEntries: mutatorsOf('worldEntries'),

    conflicts: {
      /**
       * Resolves a conflict copy. With `apply`, the chosen title/text is saved to the chapter first
       * (a normal chapter save, merged on the server like any other); the copy is then dismissed.
       */
      async resolve(conflictId: string, apply?: { title?: string; content?: string }) {
        const chapterFields = apply && (apply.title !== undefined || apply.content !== undefined)
          ? parse(WRITABLE.chapters.updateBody, withoutUndefined(apply))
          : null;
        // Both entries (the chapter save and the dismissal) in one transaction.
        await db.transaction('rw', SYNC_TABLES as unknown as string[], async () => {
          const conflict = await db.chapterConflicts.get(conflictId);
          if (!conflict) throw new NotFoundLocallyError(CONFLICT_NOT_FOUND);
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
