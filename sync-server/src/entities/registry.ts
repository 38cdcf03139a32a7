/**
 * One description per synced entity kind (packages/schema ENTITY_KINDS) and the generic helpers
 * every story route uses: access from the stored rows, row ↔ wire conversion, and the stamped
 * writes (rev = seq, timestamps, revision snapshot, SSE touch) that runMutation's handlers perform.
 *
 * The registry is the one place that addresses tables by kind, so it talks to Kysely untyped
 * (`Kysely<any>`) inside and exposes typed wire rows outside.
 */
import type { Kysely } from 'kysely';
import {
  type EntityKind,
  type EntityRowByKind,
  ERROR_CODES,
  type FeatureName,
  type LimitName,
  type PlanName,
  chapterConflictSchema,
  chapterWordCount,
  chapterSchema,
  characterRelationshipSchema,
  characterSchema,
  bookSchema,
  locationSchema,
  planNameSchema,
  seriesSchema,
  timelineEventSchema,
} from '@chronicler/schema';
import { type JsonFieldStorage, rowsJsonArray } from '../db/database.ts';
import { runPrepared } from '../db/prepared.ts';
import type { DB } from '../db/tables.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { rememberJson } from '../http/json.ts';
import type { MutationContext } from '../sync/mutation.ts';

/** A database handle or an open transaction (a Transaction is a Kysely). */
export type Db = Kysely<DB>;

export type WireRow<K extends EntityKind> = EntityRowByKind[K];
/** What a create supplies: everything but the columns the write stamps. */
export type NewRow<K extends EntityKind> = Omit<WireRow<K>, 'rev' | 'createdAt' | 'updatedAt' | 'deletedAt'>;
/** What an update may change: any field but the identity and the stamps. */
export type RowPatch<K extends EntityKind> = Partial<Omit<WireRow<K>, 'id' | 'rev' | 'createdAt' | 'updatedAt'>>;

/**
 * Where a row's series comes from when it is created: the series itself, or a stored parent row
 * named by a body field. Every kind but series also keeps `seriesId` stored on the row (chapters,
 * relationships and conflicts denormalised from their parent), which is what access checks read.
 */
export type SeriesSource = { from: 'self' } | { from: 'parent'; kind: EntityKind; field: string };

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
  /** Fields the server computes from the others on every write. */
  derive?: (row: Record<string, unknown>) => Record<string, unknown>;
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
    jsonColumns: [],
    booleanColumns: [],
    createLimit: 'series',
    writeFeature: null,
  },
  books: {
    kind: 'books',
    table: 'books',
    wireFields: fieldsOf(bookSchema),
    seriesSource: { from: 'parent', kind: 'series', field: 'seriesId' },
    jsonColumns: [],
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
    booleanColumns: [],
    createLimit: null,
    writeFeature: null,
    textField: 'content',
    // The client's word count is advisory: the server counts the text it stores (001 §5 editor rule).
    derive: (row) => ({ wordCount: chapterWordCount(String(row.content ?? '')) }),
  },
  characters: {
    kind: 'characters',
    table: 'characters',
    wireFields: fieldsOf(characterSchema),
    seriesSource: { from: 'parent', kind: 'series', field: 'seriesId' },
    jsonColumns: ['bookAppearances'],
    booleanColumns: ['isProtagonist'],
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
    booleanColumns: [],
    createLimit: 'locationsPerSeries',
    writeFeature: null,
  },
  timelineEvents: {
    kind: 'timelineEvents',
    table: 'timelineEvents',
    wireFields: fieldsOf(timelineEventSchema),
    seriesSource: { from: 'parent', kind: 'series', field: 'seriesId' },
    jsonColumns: ['characterIds'],
    booleanColumns: ['isPlotPoint'],
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
};

/** Kinds whose rows hang off a series (all but the series itself), in cascade order. */
export const SERIES_CHILD_KINDS = [
  'books', 'chapters', 'characters', 'characterRelationships', 'locations', 'timelineEvents', 'chapterConflicts',
] as const satisfies readonly EntityKind[];

// ---------------------------------------------------------------------------------------------
// Row ↔ wire

/**
 * A row in its wire shape: exactly the schema's fields, JSON and booleans decoded. Accepts stored
 * rows and rows already in wire form (the writes build their answer from the values they wrote).
 */
export function toWire<K extends EntityKind>(kind: K, row: Record<string, unknown>): WireRow<K> {
  const d = ENTITIES[kind];
  const out: Record<string, unknown> = {};
  for (const field of d.wireFields) {
    const value = row[field];
    if (d.jsonColumns.includes(field)) out[field] = Array.isArray(value) ? value : typeof value === 'string' ? JSON.parse(value) : [];
    else if (d.booleanColumns.includes(field)) out[field] = Boolean(value);
    else out[field] = value ?? null;
  }
  return out as WireRow<K>;
}

/** Each wire field with how it is stored: what the database needs to build toWire's JSON itself. */
export function wireStorage(kind: EntityKind): ReadonlyArray<readonly [field: string, storage: JsonFieldStorage]> {
  const d = ENTITIES[kind];
  return d.wireFields.map((field) => [field, d.jsonColumns.includes(field) ? 'json' : d.booleanColumns.includes(field) ? 'boolean' : 'value'] as const);
}

/** Wire fields as column values: JSON arrays to text, booleans to 0/1; unknown fields dropped. */
export function toColumns(kind: EntityKind, values: Record<string, unknown>): Record<string, unknown> {
  const d = ENTITIES[kind];
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(values)) {
    if (value === undefined || !d.wireFields.includes(field)) continue;
    if (d.jsonColumns.includes(field)) out[field] = JSON.stringify(value);
    else if (d.booleanColumns.includes(field)) out[field] = value ? 1 : 0;
    else out[field] = value;
  }
  return out;
}

export function seriesIdOf(kind: EntityKind, row: { id: string; seriesId?: string }): string {
  return kind === 'series' ? row.id : (row.seriesId as string);
}

// ---------------------------------------------------------------------------------------------
// Access

export type SeriesRole = 'owner' | 'admin' | 'editor' | 'viewer';
/** read: see it; edit: change its content; manage: change the series itself; own: delete it. */
export type AccessLevel = 'read' | 'edit' | 'manage' | 'own';

const ROLE_RANK: Record<SeriesRole, number> = { viewer: 0, editor: 1, admin: 2, owner: 3 };
const LEVEL_NEEDS: Record<AccessLevel, SeriesRole> = { read: 'viewer', edit: 'editor', manage: 'admin', own: 'owner' };

export interface SeriesAccess {
  seriesId: string;
  ownerId: string;
  role: SeriesRole;
  deleted: boolean;
}

/**
 * The caller's standing in a series: owner, or a live seriesMembers row (collaboration). Null when
 * the series does not exist or the caller has no part in it — callers answer 404, never 403, so
 * foreign ids are indistinguishable from unknown ones.
 */
export async function seriesAccess(db: Db, seriesId: string, userId: string): Promise<SeriesAccess | null> {
  const series = await findRow(db, 'series', seriesId);
  if (!series) return null;
  return accessGiven(db, { seriesId, ownerId: series.ownerId, deletedAt: series.deletedAt }, userId);
}

/** The stored series columns access is decided by. */
interface SeriesStanding {
  seriesId: string;
  ownerId: string;
  deletedAt: string | null;
}

/** seriesAccess once the series row is read: the owner needs no further query, others their membership. */
async function accessGiven(db: Db, series: SeriesStanding, userId: string): Promise<SeriesAccess | null> {
  const { seriesId } = series;
  const deleted = series.deletedAt !== null;
  if (series.ownerId === userId) return { seriesId, ownerId: series.ownerId, role: 'owner', deleted };
  const [member] = await runPrepared(
    db,
    'seriesMember',
    (q, v: { seriesId: string; userId: string }) =>
      q.selectFrom('seriesMembers').select('role').where('seriesId', '=', v.seriesId).where('userId', '=', v.userId).where('deletedAt', 'is', null),
    { seriesId, userId },
  );
  if (!member) return null;
  const role: SeriesRole = member.role === 'admin' || member.role === 'editor' ? member.role : 'viewer';
  return { seriesId, ownerId: series.ownerId, role, deleted };
}

export function assertLevel(access: SeriesAccess, level: AccessLevel): void {
  if (ROLE_RANK[access.role] < ROLE_RANK[LEVEL_NEEDS[level]]) {
    const message = level === 'own' ? 'Only the owner of this series can do this' : 'Your role in this series does not allow this change';
    throw new HttpError(403, ERROR_CODES.forbidden, message);
  }
}

export interface LoadOptions {
  /** What the caller means to do; 'read' by default. */
  level?: AccessLevel;
  /** Return deleted rows too (updates answer them with mergeStatus 'deleted'); REST reads 404. */
  includeDeleted?: boolean;
}

/** The stored row by id, or null — no access check. */
export async function findRow<K extends EntityKind>(db: Db, kind: K, id: string): Promise<WireRow<K> | null> {
  const table = ENTITIES[kind].table;
  const [row] = await runPrepared(db, `findRow ${table}`, (q, v: { id: string }) => q.selectFrom(table).selectAll().where('id', '=', v.id), { id });
  return row ? toWire(kind, row as Record<string, unknown>) : null;
}

/**
 * The stored row and its stored series' owner and deletion, in one query: a series is its own
 * series; any other row names its series in `seriesId` (DESIGN.md §3: access from stored rows).
 */
async function findRowWithSeries<K extends EntityKind>(db: Db, kind: K, id: string): Promise<{ row: WireRow<K>; series: SeriesStanding } | null> {
  if (kind === 'series') {
    const row = await findRow(db, kind, id);
    return row ? { row, series: { seriesId: row.id, ownerId: (row as WireRow<'series'>).ownerId, deletedAt: row.deletedAt } } : null;
  }
  const table = ENTITIES[kind].table;
  const [stored] = (await runPrepared(
    db,
    `findRowWithSeries ${table}`,
    (q, v: { id: string }) =>
      q
        .selectFrom(table)
        .innerJoin('series', 'series.id', `${table}.seriesId`)
        .selectAll(table)
        .select(['series.ownerId as seriesOwnerIdForAccess', 'series.deletedAt as seriesDeletedAtForAccess'])
        .where(`${table}.id`, '=', v.id),
    { id },
  )) as Record<string, unknown>[];
  if (!stored) return null;
  const row = toWire(kind, stored);
  const series = { seriesId: stored.seriesId as string, ownerId: stored.seriesOwnerIdForAccess as string, deletedAt: stored.seriesDeletedAtForAccess as string | null };
  return { row, series };
}

/**
 * The caller's access to the row `id` of `kind`, with the same answers as loadAccessible (404 for
 * unknown, foreign and deleted rows; 403 below `level`), reading only the columns access is
 * decided by: list routes need the standing of the parent, not its whole row.
 */
export async function assertAccessible(db: Db, kind: EntityKind, id: string, userId: string, options: LoadOptions = {}): Promise<SeriesAccess> {
  const table = ENTITIES[kind].table;
  const [standing] = (await runPrepared(
    db,
    `standing ${table}`,
    (q, v: { id: string }) =>
      kind === 'series'
        ? q.selectFrom('series').select(['id as seriesId', 'ownerId', 'deletedAt', 'deletedAt as seriesDeletedAt']).where('id', '=', v.id)
        : q
            .selectFrom(table)
            .innerJoin('series', 'series.id', `${table}.seriesId`)
            .select([`${table}.seriesId`, 'series.ownerId', `${table}.deletedAt`, 'series.deletedAt as seriesDeletedAt'])
            .where(`${table}.id`, '=', v.id),
    { id },
    { cached: true },
  )) as { seriesId: string; ownerId: string; deletedAt: string | null; seriesDeletedAt: string | null }[];
  if (!standing) throw notFound();
  return checkAccess(db, { seriesId: standing.seriesId, ownerId: standing.ownerId, deletedAt: standing.seriesDeletedAt }, standing.deletedAt, userId, options);
}

async function checkAccess(db: Db, series: SeriesStanding, rowDeletedAt: string | null, userId: string, options: LoadOptions): Promise<SeriesAccess> {
  const access = await accessGiven(db, series, userId);
  if (!access) throw notFound();
  if (!options.includeDeleted && (rowDeletedAt !== null || access.deleted)) throw notFound();
  assertLevel(access, options.level ?? 'read');
  return access;
}

/**
 * The row with `id` if the caller may see it: its series is owned by the caller or the caller is a
 * live member. Unknown ids, foreign ids and (unless asked for) deleted rows are all 404.
 */
export async function loadAccessible<K extends EntityKind>(
  db: Db,
  kind: K,
  id: string,
  userId: string,
  options: LoadOptions = {},
): Promise<WireRow<K>> {
  const found = await findRowWithSeries(db, kind, id);
  if (!found) throw notFound();
  await checkAccess(db, found.series, found.row.deletedAt, userId, options);
  return found.row;
}

/** The plan that governs everything inside a series: its owner's. */
export async function ownerPlan(db: Db, seriesId: string): Promise<PlanName> {
  const [row] = await runPrepared(
    db,
    'ownerPlan',
    (q, v: { seriesId: string }) => q.selectFrom('series').innerJoin('users', 'users.id', 'series.ownerId').select('users.plan').where('series.id', '=', v.seriesId),
    { seriesId },
  );
  return planNameSchema.catch('apprentice').parse((row as { plan?: string } | undefined)?.plan);
}

export async function userPlan(db: Db, userId: string): Promise<PlanName> {
  const [row] = await runPrepared(db, 'userPlan', (q, v: { userId: string }) => q.selectFrom('users').select('plan').where('id', '=', v.userId), { userId });
  return planNameSchema.catch('apprentice').parse((row as { plan?: string } | undefined)?.plan);
}

/** Live rows of `kind` whose `column` equals `value`. */
export async function countLive(db: Db, kind: EntityKind, column: string, value: string): Promise<number> {
  const table = ENTITIES[kind].table;
  const [row] = await runPrepared(
    db,
    `countLive ${table} ${column}`,
    (q, v: { value: string }) =>
      q.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where(column, '=', v.value).where('deletedAt', 'is', null),
    { value },
  );
  return Number((row as { n?: unknown } | undefined)?.n ?? 0);
}

/** Live rows of `kind` whose `column` equals `value`, ordered by the given columns. */
export async function listLive<K extends EntityKind>(
  db: Db,
  kind: K,
  column: string,
  value: string,
  orderBy: readonly string[] = ['createdAt', 'id'],
): Promise<WireRow<K>[]> {
  const table = ENTITIES[kind].table;
  const rows = await runPrepared(
    db,
    `listLive ${table} ${column} ${orderBy.join(',')}`,
    (q, v: { value: string }) => {
      let query = q.selectFrom(table).selectAll().where(column, '=', v.value).where('deletedAt', 'is', null);
      for (const col of orderBy) query = query.orderBy(col, 'asc');
      return query;
    },
    { value },
  );
  return rows.map((r) => toWire(kind, r as Record<string, unknown>));
}

/**
 * listLive as the JSON text of the array, built by the database in toWire's shape: what a list
 * route sends as it is (reply with http/json.ts JSON_CONTENT_TYPE).
 */
export async function listLiveJson(db: Db, kind: EntityKind, column: string, value: string, orderBy: readonly string[] = ['createdAt', 'id']): Promise<string> {
  const table = ENTITIES[kind].table;
  const [row] = (await runPrepared(
    db,
    `listLiveJson ${table} ${column} ${orderBy.join(',')}`,
    (q, v: { value: string }) =>
      q
        .selectFrom(table)
        .select(rowsJsonArray(wireStorage(kind), orderBy).as('json'))
        .where(column, '=', v.value)
        .where('deletedAt', 'is', null),
    { value },
    { cached: true },
  )) as { json: string }[];
  return row?.json ?? '[]';
}

// ---------------------------------------------------------------------------------------------
// Stamped writes (inside runMutation)

/** Keeps the row as written at this rev: the merge base of later updates and the chapter history. */
async function writeSnapshot(ctx: MutationContext, kind: EntityKind, row: WireRow<EntityKind>): Promise<void> {
  const seriesId = seriesIdOf(kind, row as { id: string; seriesId?: string });
  const snapshot = JSON.stringify(row);
  rememberJson(row, snapshot);
  const values = { entity: kind, entityId: row.id, rev: ctx.seq, seriesId, userId: ctx.userId, snapshot, createdAt: ctx.now };
  await runPrepared(
    ctx.trx,
    'writeSnapshot',
    (q, v: typeof values) =>
      q
        .insertInto('revisions')
        .values({ entity: v.entity, entityId: v.entityId, rev: v.rev, seriesId: v.seriesId, userId: v.userId, snapshot: v.snapshot, createdAt: v.createdAt })
        // A row written twice in one request keeps its last state for this rev.
        .onConflict((oc) => oc.columns(['entity', 'entityId', 'rev']).doUpdateSet({ snapshot: v.snapshot, userId: v.userId })),
    values,
  );
  ctx.touch(seriesId);
}

function withDerived(kind: EntityKind, row: Record<string, unknown>): Record<string, unknown> {
  const derive = ENTITIES[kind].derive;
  return derive ? { ...row, ...derive(row) } : row;
}

/** Inserts a new row stamped with this write's seq and time; answers it in its wire shape. */
export async function insertRow<K extends EntityKind>(ctx: MutationContext, kind: K, values: NewRow<K>): Promise<WireRow<K>> {
  const full = withDerived(kind, { ...values, rev: ctx.seq, createdAt: ctx.now, updatedAt: ctx.now, deletedAt: null });
  const columns = toColumns(kind, full);
  const table = ENTITIES[kind].table;
  const names = Object.keys(columns);
  await runPrepared(
    ctx.trx,
    `insertRow ${table} ${names.join(',')}`,
    (q, v: Record<string, unknown>) => q.insertInto(table).values(Object.fromEntries(names.map((name) => [name, v[name]]))),
    columns,
  );
  const row = toWire(kind, full);
  await writeSnapshot(ctx, kind, row);
  return row;
}

/**
 * Applies `patch` to a stored row (deleted or not), stamps it and keeps a snapshot. `stored` is the
 * row as this write already read it (in ctx.trx, unchanged since), to spare reading it again.
 */
export async function updateRow<K extends EntityKind>(
  ctx: MutationContext,
  kind: K,
  id: string,
  patch: RowPatch<K>,
  stored?: WireRow<K>,
): Promise<WireRow<K>> {
  const current = stored ?? (await findRow(ctx.trx, kind, id));
  if (!current) throw notFound();
  const next = withDerived(kind, { ...current, ...definedOnly(patch), rev: ctx.seq, updatedAt: ctx.now });
  const { id: _id, createdAt: _createdAt, ...columns } = toColumns(kind, next);
  const table = ENTITIES[kind].table;
  const names = Object.keys(columns);
  await runPrepared(
    ctx.trx,
    `updateRow ${table} ${names.join(',')}`,
    (q, v: Record<string, unknown>) =>
      q
        .updateTable(table)
        .set(Object.fromEntries(names.map((name) => [name, v[name]])))
        .where('id', '=', v.id),
    { ...columns, id },
  );
  const row = toWire(kind, next);
  await writeSnapshot(ctx, kind, row);
  return row;
}

/** Soft delete: the row becomes a tombstone (deletedAt) that the changes feed carries. */
export async function softDelete<K extends EntityKind>(ctx: MutationContext, kind: K, id: string, stored?: WireRow<K>): Promise<WireRow<K>> {
  return updateRow(ctx, kind, id, { deletedAt: ctx.now } as RowPatch<K>, stored);
}

function definedOnly(values: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

/** A create's id must be new; a taken id is a 409 (a replay with the same Idempotency-Key never gets here). */
export async function assertIdFree(db: Db, kind: EntityKind, id: string): Promise<void> {
  const table = ENTITIES[kind].table;
  const [taken] = await runPrepared(db, `idTaken ${table}`, (q, v: { id: string }) => q.selectFrom(table).select('id').where('id', '=', v.id), { id });
  if (taken) throw new HttpError(409, ERROR_CODES.conflict, 'An item with this id already exists');
}
