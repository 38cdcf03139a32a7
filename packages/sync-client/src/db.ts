/**
 * The local store (docs/architecture.md#the-data-loop, docs/sync-protocol.md#outbox): one Dexie
 * database per signed-in user holding every synced entity, the outbox of not-yet-acknowledged
 * writes, dead letters, the sync cursor and the editor's keystroke drafts.
 *
 * Invariant the sync engine keeps: for an entity with no outbox work, its local row IS the last
 * server state seen (or absent when deleted). For an entity with outbox work, `shadows` holds the
 * last server state seen (null when the server has never had it) and the local row is that state
 * with the pending effects of the outbox replayed on top, in order ("rebase").
 */
import { Dexie, type EntityTable, type Table } from 'dexie';
import {
  type AiSuggestion,
  type ApiErrorBody,
  type CanonChange,
  type WorldEntry,
  type Book,
  type Chapter,
  type ChapterConflict,
  type Entitlement,
  type Character,
  type CharacterRelationship,
  ENTITY_KINDS,
  type EntityKind,
  type EntityRowByKind,
  type Location,
  type Series,
  type SeriesRole,
  type TimelineEvent,
  type UserRecord,
  SERIES_CHILD_KINDS,
  SERIES_SCOPED_KINDS,
  USER_SCOPED_KINDS,
  isUserScopedKind,
  newId,
  seriesIdOfRow,
} from '@chronicler/schema';
import { PROGRESS_TABLES } from './writing.ts';
import type { ExportProfile } from '@chronicler/schema';
import type { PictureRow } from './media/store.ts';

export { ENTITY_KINDS, SERIES_CHILD_KINDS, SERIES_SCOPED_KINDS, USER_SCOPED_KINDS, isUserScopedKind, seriesIdOfRow };
export type { EntityKind, EntityRowByKind };

/** Any synced row, as the server answers it and as Dexie stores it. */
export type AnyRow = EntityRowByKind[EntityKind];
export type RowOf<K extends EntityKind> = EntityRowByKind[K];

/** What one outbox entry does to the local rows; replayed on top of the server state. */
export type Effect =
  | { op: 'put'; entity: EntityKind; id: string; row: AnyRow }
  | { op: 'patch'; entity: EntityKind; id: string; fields: Record<string, unknown> }
  | { op: 'delete'; entity: EntityKind; id: string };

export type MutationKind = 'create' | 'update' | 'delete' | 'reorder' | 'resolve';
export type HttpMethod = 'POST' | 'PUT' | 'DELETE';

/** A local row as it was before a mutation (null: it did not exist). */
export interface RowSnapshot {
  entity: EntityKind;
  id: string;
  row: AnyRow | null;
}

export interface OutboxEntry {
  /** Auto-increment: the order entries are sent in. */
  seq?: number;
  idemKey: string;
  /** Per-database counter (1, 2, …) sent as X-Mutation-Id. */
  mutationId: number;
  kind: MutationKind;
  method: HttpMethod;
  path: string;
  body: unknown;
  entity: EntityKind;
  entityId: string;
  /** The series the entry belongs to (scope removal dead-letters its entries). */
  seriesId: string;
  /** X-Base-Rev: the server revision the change was made on; null when unknown. */
  baseRev: number | null;
  /** The base is the answer to an earlier entry for the same entity that was not acknowledged yet. */
  chained?: boolean;
  /** Rows as they were locally before the change (the author's view; kept in dead letters). */
  before: RowSnapshot[];
  effects: Effect[];
  /** `entity:id` of every row the effects touch (multi-entry index). */
  touches: string[];
  attempts: number;
  status: 'pending' | 'inflight';
  /** Epoch ms before which the entry is not retried (backoff). */
  nextAttemptAt: number;
  createdAt: number;
  /** Ids of local-only rows (creates not yet acknowledged) this entry refers to. */
  dependsOn?: string[];
  lastError?: string;
}

/** The author's words of a rejected entry, kept so they can be copied or exported. */
export interface RecoverableContent {
  entity: EntityKind;
  entityId: string;
  /** A human label: the chapter / character / book title or name, when there is one. */
  label: string;
  /** Chapter text (the full local text at the time, not just the changed part). */
  text?: string;
  /** Every field the author set in the rejected change. */
  fields: Record<string, unknown>;
}

export interface DeadLetter {
  id?: number;
  entry: OutboxEntry;
  /** HTTP status of the rejection (0 when the client rejected it, e.g. a dependant or lost access). */
  status: number;
  response: ApiErrorBody | null;
  content: RecoverableContent;
  /** idemKey of the rejected entry this one depended on, for dependants. */
  causedBy?: string;
  createdAt: number;
}

/** The last server state of a row with outbox work (see the invariant at the top). */
export interface Shadow {
  entity: EntityKind;
  id: string;
  /** null: the server has never had this row (a create not acknowledged yet). May be a tombstone. */
  row: AnyRow | null;
  /** The highest server revision seen for this row (0 when none). */
  rev: number;
}

export interface SyncStateRow {
  /** Always 'state': one row per database. */
  key: 'state';
  clientId: string;
  cursor: number;
  lastSyncedAt: number | null;
  nextMutationId: number;
  persistRequested?: boolean;
  /** The word rule this device's chapter counts were made by (word-rule.ts); absent: the first rule. */
  wordRule?: number;
}

/** The author's standing in a series as the server last said it (GET /api/collaboration/series). */
export interface SeriesRoleRow {
  seriesId: string;
  role: SeriesRole;
  ownerId: string;
  ownerName: string;
}

export interface Draft {
  chapterId: string;
  title: string;
  content: string;
  updatedAt: number;
}

/** An export profile saved on this device for one series (not synced: device settings). */
export interface ExportProfileRow {
  seriesId: string;
  profile: ExportProfile;
  updatedAt: number;
}

export type ChroniclerDb = Dexie & {
  readonly userId: string;
  series: EntityTable<Series, 'id'>;
  books: EntityTable<Book, 'id'>;
  chapters: EntityTable<Chapter, 'id'>;
  characters: EntityTable<Character, 'id'>;
  characterRelationships: EntityTable<CharacterRelationship, 'id'>;
  locations: EntityTable<Location, 'id'>;
  timelineEvents: EntityTable<TimelineEvent, 'id'>;
  chapterConflicts: EntityTable<ChapterConflict, 'id'>;
  /** Canon changes (docs/decisions/0017-canon-changes.md): a field of a character, place or relationship at a story point. */
  canonChanges: EntityTable<CanonChange, 'id'>;
  /** World entries (docs/decisions/0020-world-entries.md): cultures, magic systems, species, technologies, factions. */
  worldEntries: EntityTable<WorldEntry, 'id'>;
  /** The signed-in author's own record (user-scoped: plan, time zone …); one row, read-only here. */
  users: EntityTable<UserRecord, 'id'>;
  aiSuggestions: EntityTable<AiSuggestion, 'id'>;
  outbox: EntityTable<OutboxEntry, 'seq'>;
  deadLetters: EntityTable<DeadLetter, 'id'>;
  shadows: Table<Shadow, [EntityKind, string]>;
  syncState: Table<SyncStateRow, 'state'>;
  drafts: EntityTable<Draft, 'chapterId'>;
  /** Products owned and gift months (billing): user-scoped rows, written by the server only. */
  entitlements: EntityTable<Entitlement, 'id'>;
  /** The author's role in each series they take part in (roles.ts; collaboration). */
  seriesRoles: EntityTable<SeriesRoleRow, 'seriesId'>;
  exportProfiles: EntityTable<ExportProfileRow, 'seriesId'>;
  /** Picture bytes by SHA-256 (version 12; media/store.ts, docs/decisions/0023-pictures-on-the-device.md). */
  pictures: EntityTable<PictureRow, 'sha256'>;
};

export interface OpenDbOptions {
  /** An IDBFactory (fake-indexeddb's `new IDBFactory()` in tests). */
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
}

export function dbName(userId: string): string {
  return `chronicler-${userId}`;
}

/** Every table a mutation or a sync step may touch: entity tables, outbox, shadows, dead letters, state, drafts. */
export const ENTITY_TABLES = ENTITY_KINDS;
export const SYNC_TABLES = [...ENTITY_KINDS, 'outbox', 'shadows', 'deadLetters', 'syncState', 'drafts'] as const;

/** Opens (creating on first use) the database of one user. */
export function openChroniclerDb(userId: string, options: OpenDbOptions = {}): ChroniclerDb {
  const dexieOptions: ConstructorParameters<typeof Dexie>[1] = {};
  if (options.indexedDB) dexieOptions.indexedDB = options.indexedDB;
  if (options.IDBKeyRange) dexieOptions.IDBKeyRange = options.IDBKeyRange;
  const db = new Dexie(dbName(userId), dexieOptions) as ChroniclerDb;
  Object.defineProperty(db, 'userId', { value: userId, enumerable: true });
  db.version(1).stores({
    series: 'id, ownerId, updatedAt',
    books: 'id, seriesId, [seriesId+position]',
    chapters: 'id, seriesId, bookId, [bookId+position], updatedAt',
    characters: 'id, seriesId, [seriesId+name]',
    characterRelationships: 'id, seriesId, sourceCharacterId, targetCharacterId',
    locations: 'id, seriesId, [seriesId+name]',
    timelineEvents: 'id, seriesId, [seriesId+position], bookId, chapterId, locationId, *characterIds',
    chapterConflicts: 'id, seriesId, chapterId',
    outbox: '++seq, idemKey, status, entityId, seriesId, *touches',
    deadLetters: '++id, createdAt',
    shadows: '[entity+id]',
    syncState: 'key',
    drafts: 'chapterId, updatedAt',
  });
  // User-scoped synced kinds (README "How to add a user-scoped kind"): the author's own record.
  db.version(2).stores({
    users: 'id, userId',
  });
  // Writing progress: the author's user-scoped rows (writing.ts PROGRESS_TABLES).
  db.version(3).stores(PROGRESS_TABLES);
  // The writing companion's stored suggestions, so the list reads offline.
  db.version(4).stores({
    aiSuggestions: 'id, seriesId, bookId',
  });
  // Billing (entitlements): user-scoped rows of the signed-in author.
  db.version(5).stores({ entitlements: 'id, userId, kind' });
  // Collaboration: the author's role per series, so screens lock for a viewer offline too.
  db.version(6).stores({ seriesRoles: 'seriesId' });
  db.version(7).stores({
    exportProfiles: 'seriesId',
  });
  // Characters' aliases and "always include" (the companion's series bible; server migration 0011): rows kept from before read as none.
  db.version(8)
    .stores({})
    .upgrade((tx) =>
      tx
        .table('characters')
        .toCollection()
        .modify((c: Partial<Character>) => {
          c.aliases ??= [];
          c.alwaysInclude ??= false;
        }),
    );
  // Locations' "always include" (the companion's series bible; server migration 0012): rows kept from before read as unmarked.
  db.version(9)
    .stores({})
    .upgrade((tx) =>
      tx
        .table('locations')
        .toCollection()
        .modify((l: Partial<Location>) => {
          l.alwaysInclude ??= false;
        }),
    );
  // Canon changes (server migration 0017; docs/decisions/0017-canon-changes.md): the delete cascade
  // finds an entity's changes by entityId, a chapter's and a book's by theirs. Chapters and events
  // kept from before the flashback mark read it as absent (false): no upgrade.
  db.version(10).stores({
    canonChanges: 'id, seriesId, entityId, bookId, chapterId',
  });
  // World entries (server migration 0019; docs/decisions/0020-world-entries.md): a tab lists its
  // category's entries; a character's or a place's page finds the entries linking it by the
  // multi-entry link indexes (the cascade finds them by series).
  db.version(11).stores({
    worldEntries: 'id, seriesId, [seriesId+category], *characterIds, *locationIds, *entryIds, leaderId',
  });
  // Pictures on the device (docs/decisions/0023-pictures-on-the-device.md): bytes by SHA-256, the
  // upload queue (uploaded = 0) and the cache's LRU order.
  db.version(12).stores({
    pictures: 'sha256, seriesId, uploaded, lastUsedAt',
  });
  db.on('populate', (tx) => {
    const state: SyncStateRow = { key: 'state', clientId: newId(), cursor: 0, lastSyncedAt: null, nextMutationId: 1 };
    void tx.table('syncState').add(state);
  });
  return db;
}

export function entityKey(entity: EntityKind, id: string): string {
  return `${entity}:${id}`;
}

/** The (entity, id) of an `entityKey`. */
export function splitEntityKey(key: string): [EntityKind, string] {
  const i = key.indexOf(':');
  return [key.slice(0, i) as EntityKind, key.slice(i + 1)];
}

export function entityTable<K extends EntityKind>(db: ChroniclerDb, kind: K): Table<RowOf<K>, string> {
  return db.table(kind) as unknown as Table<RowOf<K>, string>;
}

/** The sync state row (created with the database). */
export async function readSyncState(db: ChroniclerDb): Promise<SyncStateRow> {
  const state = await db.syncState.get('state');
  if (state) return state;
  // A database opened by an older build without the row: make it now.
  return db.transaction('rw', db.syncState, async () => {
    const again = await db.syncState.get('state');
    if (again) return again;
    const made: SyncStateRow = { key: 'state', clientId: newId(), cursor: 0, lastSyncedAt: null, nextMutationId: 1 };
    await db.syncState.add(made);
    return made;
  });
}

export async function getClientId(db: ChroniclerDb): Promise<string> {
  return (await readSyncState(db)).clientId;
}
