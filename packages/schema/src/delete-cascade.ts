/**
 * The delete cascade (docs/sync-protocol.md#fields-merge: deletes win), as one table both sides
 * interpret: the server in its write transaction (sync-server/src/entities/delete.ts), the client
 * in the mutator's optimistic change (web's sync mutators). Like SQL foreign keys, each row lists
 * the references one kind holds to another and what a delete of the referenced row does to the
 * referencing row:
 *
 * - `delete`: the referencing row is soft-deleted too, and takes its own dependants with it;
 * - `clear`: the reference (a nullable id) is set to null;
 * - `removeFromList`: the id is taken out of the reference list;
 * - `moveUp`: a reference to the same kind (a place inside a place) takes the deleted row's own
 *   value of the field, so the row moves up to the deleted row's parent — and on up past parents
 *   deleted in the same cascade (docs/decisions/0021-places-inside-places.md); never deleted with it;
 * - `keep`: nothing happens (conflict copies outlive their chapter: they are how its text
 *   stays recoverable).
 *
 * `lookup` says how referencing rows are found on both stores: by an index on the field, or by the
 * series' rows of that kind filtered in memory (the field has no index).
 */
import type { EntityKind, SeriesScopedKind } from './entities.ts';
import { seriesIdOfRow } from './scopes.ts';

export type OnDelete = 'delete' | 'clear' | 'removeFromList' | 'moveUp' | 'keep';

export interface EntityReference {
  /** The kind holding the reference. */
  from: EntityKind;
  /** Its field holding the referenced id (or ids, for `removeFromList`). */
  field: string;
  /** The referenced kind. */
  to: EntityKind;
  onDelete: OnDelete;
  /** 'series' only between series-scoped kinds: a user-scoped row has no series to list by. */
  lookup: 'index' | 'series';
}

/**
 * Every reference between synced kinds. Order matters: deletes are planned in this order, then
 * clears and list removals in this order (which is the order of the writes each side makes).
 */
export const ENTITY_REFERENCES = [
  { from: 'books', field: 'seriesId', to: 'series', onDelete: 'delete', lookup: 'index' },
  { from: 'chapters', field: 'seriesId', to: 'series', onDelete: 'delete', lookup: 'index' },
  { from: 'characters', field: 'seriesId', to: 'series', onDelete: 'delete', lookup: 'index' },
  { from: 'characterRelationships', field: 'seriesId', to: 'series', onDelete: 'delete', lookup: 'index' },
  { from: 'locations', field: 'seriesId', to: 'series', onDelete: 'delete', lookup: 'index' },
  { from: 'timelineEvents', field: 'seriesId', to: 'series', onDelete: 'delete', lookup: 'index' },
  { from: 'chapterConflicts', field: 'seriesId', to: 'series', onDelete: 'delete', lookup: 'index' },
  { from: 'chapters', field: 'bookId', to: 'books', onDelete: 'delete', lookup: 'index' },
  { from: 'characterRelationships', field: 'sourceCharacterId', to: 'characters', onDelete: 'delete', lookup: 'index' },
  { from: 'characterRelationships', field: 'targetCharacterId', to: 'characters', onDelete: 'delete', lookup: 'index' },
  { from: 'chapterConflicts', field: 'chapterId', to: 'chapters', onDelete: 'keep', lookup: 'index' },
  { from: 'timelineEvents', field: 'bookId', to: 'books', onDelete: 'clear', lookup: 'series' },
  { from: 'timelineEvents', field: 'chapterId', to: 'chapters', onDelete: 'clear', lookup: 'series' },
  { from: 'timelineEvents', field: 'locationId', to: 'locations', onDelete: 'clear', lookup: 'series' },
  { from: 'timelineEvents', field: 'characterIds', to: 'characters', onDelete: 'removeFromList', lookup: 'series' },
  // The places inside a deleted place move up to its parent (the top level when it had none).
  { from: 'locations', field: 'parentId', to: 'locations', onDelete: 'moveUp', lookup: 'series' },
  // A suggestion belongs to its series, and to the book it was generated for (it may quote it).
  { from: 'aiSuggestions', field: 'seriesId', to: 'series', onDelete: 'delete', lookup: 'index' },
  { from: 'aiSuggestions', field: 'bookId', to: 'books', onDelete: 'delete', lookup: 'series' },
  // A canon change goes with its series and its entity (ids are unique across kinds, so one field
  // names a character, a location or a relationship). Its chapter and book are kept: a change of a
  // deleted chapter shows as unanchored, never lost (docs/decisions/0017-canon-changes.md).
  { from: 'canonChanges', field: 'seriesId', to: 'series', onDelete: 'delete', lookup: 'index' },
  { from: 'canonChanges', field: 'entityId', to: 'characters', onDelete: 'delete', lookup: 'index' },
  { from: 'canonChanges', field: 'entityId', to: 'locations', onDelete: 'delete', lookup: 'index' },
  { from: 'canonChanges', field: 'entityId', to: 'characterRelationships', onDelete: 'delete', lookup: 'index' },
  { from: 'canonChanges', field: 'chapterId', to: 'chapters', onDelete: 'keep', lookup: 'index' },
  { from: 'canonChanges', field: 'bookId', to: 'books', onDelete: 'keep', lookup: 'index' },
  { from: 'canonChanges', field: 'locationId', to: 'locations', onDelete: 'clear', lookup: 'series' },
  { from: 'canonChanges', field: 'timelineEventId', to: 'timelineEvents', onDelete: 'clear', lookup: 'series' },
  // A world entry goes with its series. Its links are lists, so a deleted character, place or
  // entry is taken out of them; a deleted leader is cleared (docs/decisions/0020-world-entries.md).
  { from: 'worldEntries', field: 'seriesId', to: 'series', onDelete: 'delete', lookup: 'index' },
  { from: 'worldEntries', field: 'characterIds', to: 'characters', onDelete: 'removeFromList', lookup: 'series' },
  { from: 'worldEntries', field: 'leaderId', to: 'characters', onDelete: 'clear', lookup: 'series' },
  { from: 'worldEntries', field: 'locationIds', to: 'locations', onDelete: 'removeFromList', lookup: 'series' },
  { from: 'worldEntries', field: 'entryIds', to: 'worldEntries', onDelete: 'removeFromList', lookup: 'series' },
  { from: 'worldEntries', field: 'allyIds', to: 'worldEntries', onDelete: 'removeFromList', lookup: 'series' },
  { from: 'worldEntries', field: 'enemyIds', to: 'worldEntries', onDelete: 'removeFromList', lookup: 'series' },
] as const satisfies readonly EntityReference[];

/** The kinds whose rows hang off a series (all series-scoped kinds but the series), in cascade order. */
export type SeriesChildKind = Exclude<SeriesScopedKind, 'series'>;

/**
 * Derived from the table above: the kinds a series delete takes with it through their `seriesId`.
 * Both sides use it (the client's purge of a series that left the author's scope, the server's
 * registry); a test holds that every series-scoped kind but the series is here.
 */
export const SERIES_CHILD_KINDS: readonly SeriesChildKind[] = [
  ...new Set(ENTITY_REFERENCES.filter((ref) => ref.to === 'series' && ref.field === 'seriesId').map((ref) => ref.from as SeriesChildKind)),
];

/** A stored row as the cascade sees it. */
export type CascadeRow = { readonly id: string } & Readonly<Record<string, unknown>>;

/** What each store gives the cascade: its live (not deleted) rows of `kind` whose `field` equals `value`. */
export interface CascadeReader {
  liveWhere(kind: EntityKind, field: string, value: string): Promise<readonly CascadeRow[]>;
}

/** One write of a cascade; the store stamps it (updatedAt, rev) as any write. */
export type CascadeWrite =
  | { op: 'delete'; kind: EntityKind; id: string }
  | { op: 'patch'; kind: EntityKind; id: string; fields: Record<string, unknown> };


function refersToAny(value: unknown, ids: ReadonlySet<string>): boolean {
  if (Array.isArray(value)) return value.some((v) => typeof v === 'string' && ids.has(v));
  return typeof value === 'string' && ids.has(value);
}

/**
 * `moveUp`: the deleted parent's own parent, and on up while that one is deleted too; null at the
 * top. Never the row itself: a device's rows may hold a cycle of moves for a moment (places.ts).
 */
function movedUpTo(
  rowId: string,
  value: unknown,
  field: string,
  ids: ReadonlySet<string>,
  deletedRows: ReadonlyMap<string, CascadeRow>,
): string | null {
  const seen = new Set<string>();
  let at = typeof value === 'string' ? value : null;
  while (at !== null && ids.has(at) && !seen.has(at)) {
    seen.add(at);
    const next = deletedRows.get(at)?.[field];
    at = typeof next === 'string' ? next : null;
  }
  return at === null || ids.has(at) || at === rowId ? null : at;
}

async function rowsReferencing(
  reader: CascadeReader,
  ref: EntityReference,
  ids: ReadonlySet<string>,
  seriesId: string | null,
): Promise<CascadeRow[]> {
  if (ref.lookup === 'series') {
    if (seriesId === null) throw new Error(`A user-scoped row cannot be looked up by series (${ref.from}.${ref.field})`);
    const rows = await reader.liveWhere(ref.from, 'seriesId', seriesId);
    return rows.filter((r) => refersToAny(r[ref.field], ids));
  }
  const out: CascadeRow[] = [];
  for (const id of ids) out.push(...(await reader.liveWhere(ref.from, ref.field, id)));
  return out;
}

/**
 * The writes that deleting `row` (of `kind`) makes to OTHER rows, in order: first the dependants'
 * deletes (transitively, each row once), then the clears and list removals on the rows that stay.
 * The deleted row's own tombstone is the caller's. Reads only: a store applies the writes after.
 */
export async function planDeleteCascade(
  reader: CascadeReader,
  kind: EntityKind,
  row: CascadeRow,
  references: readonly EntityReference[] = ENTITY_REFERENCES,
): Promise<CascadeWrite[]> {
  const seriesId = seriesIdOfRow(kind, row);
  const writes: CascadeWrite[] = [];
  const deleted = new Map<EntityKind, Set<string>>([[kind, new Set([row.id])]]);
  // The deleted rows themselves, for `moveUp` (the value a row moves up to is the deleted row's).
  const deletedRows = new Map<string, CascadeRow>([[row.id, row]]);
  const isDeleted = (k: EntityKind, id: string) => deleted.get(k)?.has(id) ?? false;
  // Kinds whose every row in the series is being deleted (the series itself is): nothing of them
  // is left to find, so their references are not looked up again.
  const wholesale = new Set<EntityKind>();

  const queue: Array<{ kind: EntityKind; ids: ReadonlySet<string> }> = [{ kind, ids: new Set([row.id]) }];
  for (let next = queue.shift(); next; next = queue.shift()) {
    for (const ref of references) {
      if (ref.to !== next.kind || ref.onDelete !== 'delete' || wholesale.has(ref.from)) continue;
      const fresh = new Set<string>();
      for (const dependant of await rowsReferencing(reader, ref, next.ids, seriesId)) {
        if (isDeleted(ref.from, dependant.id)) continue;
        if (!deleted.has(ref.from)) deleted.set(ref.from, new Set());
        deleted.get(ref.from)!.add(dependant.id);
        fresh.add(dependant.id);
        deletedRows.set(dependant.id, dependant);
        writes.push({ op: 'delete', kind: ref.from, id: dependant.id });
      }
      if (fresh.size > 0) queue.push({ kind: ref.from, ids: fresh });
      if (ref.to === 'series' && ref.field === 'seriesId') wholesale.add(ref.from);
    }
  }

  for (const ref of references) {
    if (ref.onDelete === 'delete' || ref.onDelete === 'keep' || wholesale.has(ref.from)) continue;
    const ids = deleted.get(ref.to);
    if (!ids) continue;
    for (const other of await rowsReferencing(reader, ref, ids, seriesId)) {
      if (isDeleted(ref.from, other.id)) continue;
      const value = other[ref.field];
      const fields =
        ref.onDelete === 'clear'
          ? { [ref.field]: null }
          : ref.onDelete === 'moveUp'
            ? { [ref.field]: movedUpTo(other.id, value, ref.field, ids, deletedRows) }
            : { [ref.field]: (value as readonly string[]).filter((v) => !ids.has(v)) };
      writes.push({ op: 'patch', kind: ref.from, id: other.id, fields });
    }
  }
  return writes;
}
