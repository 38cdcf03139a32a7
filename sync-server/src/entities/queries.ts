/**
 * The reads of the story tables, by kind: a row, a row the caller may see (access from the stored
 * rows, decided by access.ts), plans, counts and lists, revision snapshots. With writes.ts, the only
 * entity module that touches SQL — through Kysely (portable; db/README.md), as prepared shapes
 * (db/prepared.ts).
 *
 * Tables are addressed by kind, so Kysely is untyped (`Kysely<any>`) inside and rows come out
 * typed in their wire shape.
 */
import type { Kysely } from 'kysely';
import { type EntityKind, ERROR_CODES, type PlanName, isUserScopedKind, storedPlan } from '@chronicler/schema';
import { rowsJsonArray } from '../db/dialect.ts';
import { runPrepared } from '../db/prepared.ts';
import { PREPARED_FAMILIES, PREPARED_KEYS } from '../db/prepared-keys.ts';
import type { DB } from '../db/tables.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { type LoadOptions, type SeriesAccess, type SeriesStanding, accessFrom, assertAllowed, isOwner } from './access.ts';
import { ENTITIES } from './registry.ts';
import { type WireRow, toWire, wireStorage } from './wire.ts';

/** A database handle or an open transaction (a Transaction is a Kysely). */
export type Db = Kysely<DB>;

/** Series access is for series-scoped rows; a user-scoped row is its owner's (user-rows.ts loadOwnRow). */
function assertSeriesScoped(kind: EntityKind): void {
  if (isUserScopedKind(kind)) throw new Error(`${kind} rows belong to an author: read them with loadOwnRow`);
}

/** The role of the caller's live membership of a series, or null. */
async function memberRole(db: Db, seriesId: string, userId: string): Promise<string | null> {
  const [member] = await runPrepared(
    db,
    PREPARED_KEYS.seriesMember,
    (q, v: { seriesId: string; userId: string }) =>
      q.selectFrom('seriesMembers').select('role').where('seriesId', '=', v.seriesId).where('userId', '=', v.userId).where('deletedAt', 'is', null),
    { seriesId, userId },
  );
  return member ? String((member as { role: string }).role) : null;
}

/** seriesAccess once the series row is read: the owner needs no further query, others their membership. */
async function accessGiven(db: Db, series: SeriesStanding, userId: string): Promise<SeriesAccess | null> {
  return accessFrom(series, userId, isOwner(series, userId) ? null : await memberRole(db, series.seriesId, userId));
}

/**
 * The caller's standing in a series: owner, or a live seriesMembers row (collaboration). Null when
 * the series does not exist or the caller has no part in it — callers answer 404, never 403.
 */
export async function seriesAccess(db: Db, seriesId: string, userId: string): Promise<SeriesAccess | null> {
  const series = await findRow(db, 'series', seriesId);
  if (!series) return null;
  return accessGiven(db, { seriesId, ownerId: series.ownerId, deletedAt: series.deletedAt }, userId);
}

/** The stored row by id, or null — no access check. */
export async function findRow<K extends EntityKind>(db: Db, kind: K, id: string): Promise<WireRow<K> | null> {
  const table = ENTITIES[kind].table;
  const [row] = await runPrepared(db, PREPARED_FAMILIES.findRow(table), (q, v: { id: string }) => q.selectFrom(table).selectAll().where('id', '=', v.id), { id });
  return row ? toWire(kind, row as Record<string, unknown>) : null;
}

/**
 * The stored row and its stored series' owner and deletion, in one query: a series is its own
 * series; any other row names its series in `seriesId` (docs/sync-protocol.md#access: access from
 * stored rows).
 */
async function findRowWithSeries<K extends EntityKind>(db: Db, kind: K, id: string): Promise<{ row: WireRow<K>; series: SeriesStanding } | null> {
  assertSeriesScoped(kind);
  if (kind === 'series') {
    const row = await findRow(db, kind, id);
    return row ? { row, series: { seriesId: row.id, ownerId: (row as WireRow<'series'>).ownerId, deletedAt: row.deletedAt } } : null;
  }
  const table = ENTITIES[kind].table;
  const [stored] = (await runPrepared(
    db,
    PREPARED_FAMILIES.findRowWithSeries(table),
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
  assertSeriesScoped(kind);
  const table = ENTITIES[kind].table;
  const [standing] = (await runPrepared(
    db,
    PREPARED_FAMILIES.standing(table),
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
  const series = { seriesId: standing.seriesId, ownerId: standing.ownerId, deletedAt: standing.seriesDeletedAt };
  return assertAllowed(await accessGiven(db, series, userId), standing.deletedAt, options);
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
  assertAllowed(await accessGiven(db, found.series, userId), found.row.deletedAt, options);
  return found.row;
}

/** The plan that governs everything inside a series: its owner's. */
export async function ownerPlan(db: Db, seriesId: string): Promise<PlanName> {
  const [row] = await runPrepared(
    db,
    PREPARED_KEYS.ownerPlan,
    (q, v: { seriesId: string }) => q.selectFrom('series').innerJoin('users', 'users.id', 'series.ownerId').select('users.plan').where('series.id', '=', v.seriesId),
    { seriesId },
  );
  return storedPlan((row as { plan?: string } | undefined)?.plan);
}

export async function userPlan(db: Db, userId: string): Promise<PlanName> {
  const [row] = await runPrepared(db, PREPARED_KEYS.userPlan, (q, v: { userId: string }) => q.selectFrom('users').select('plan').where('id', '=', v.userId), { userId });
  return storedPlan((row as { plan?: string } | undefined)?.plan);
}

/** Live rows of `kind` whose `column` equals `value`. */
export async function countLive(db: Db, kind: EntityKind, column: string, value: string): Promise<number> {
  const table = ENTITIES[kind].table;
  const [row] = await runPrepared(
    db,
    PREPARED_FAMILIES.countLive(table, column),
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
    PREPARED_FAMILIES.listLive(table, column, orderBy),
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
    PREPARED_FAMILIES.listLiveJson(table, column, orderBy),
    (q, v: { value: string }) =>
      q
        .selectFrom(table)
        .select(rowsJsonArray(wireStorage(kind), orderBy)(q).as('json'))
        .where(column, '=', v.value)
        .where('deletedAt', 'is', null),
    { value },
    { cached: true },
  )) as { json: string }[];
  return row?.json ?? '[]';
}

/** Live timeline events of a series whose characterIds contain `characterId`. */
export async function eventsWithCharacter(db: Db, seriesId: string, characterId: string): Promise<WireRow<'timelineEvents'>[]> {
  // characterIds is JSON text; a quoted UUID cannot contain LIKE wildcards, and the decode below confirms.
  const rows = await db
    .selectFrom('timelineEvents')
    .selectAll()
    .where('seriesId', '=', seriesId)
    .where('deletedAt', 'is', null)
    .where('characterIds', 'like', `%"${characterId}"%`)
    .orderBy('position', 'asc')
    .orderBy('createdAt', 'asc')
    .execute();
  return rows.map((r) => toWire('timelineEvents', r)).filter((e) => e.characterIds.includes(characterId));
}

/** The caller's live series: owned, and shared with them through a live membership. */
export async function listSeriesOf(db: Db, userId: string): Promise<WireRow<'series'>[]> {
  const rows = await db
    .selectFrom('series')
    .selectAll()
    .where('deletedAt', 'is', null)
    .where((eb) =>
      eb.or([
        eb('ownerId', '=', userId),
        eb('id', 'in', eb.selectFrom('seriesMembers').select('seriesId').where('userId', '=', userId).where('deletedAt', 'is', null)),
      ]),
    )
    .orderBy('createdAt', 'asc')
    .orderBy('id', 'asc')
    .execute();
  return rows.map((row) => toWire('series', row));
}

/** The rows of `kind` among `ids` that belong to `seriesId`, deleted ones too: their id and deletedAt. */
export async function findStandingsInSeries(
  db: Db,
  kind: EntityKind,
  ids: readonly string[],
  seriesId: string,
): Promise<{ id: string; deletedAt: string | null }[]> {
  return (db as Kysely<any>)
    .selectFrom(ENTITIES[kind].table)
    .select(['id', 'deletedAt'])
    .where('id', 'in', [...ids])
    .where('seriesId', '=', seriesId)
    .execute() as Promise<{ id: string; deletedAt: string | null }[]>;
}

/** A create's id must be new; a taken id is a 409 (a replay with the same Idempotency-Key never gets here). */
export async function assertIdFree(db: Db, kind: EntityKind, id: string): Promise<void> {
  const table = ENTITIES[kind].table;
  const [taken] = await runPrepared(db, PREPARED_FAMILIES.idTaken(table), (q, v: { id: string }) => q.selectFrom(table).select('id').where('id', '=', v.id), { id });
  if (taken) throw new HttpError(409, ERROR_CODES.conflict, 'An item with this id already exists');
}

// ---------------------------------------------------------------------------------------------
// Revision snapshots (written by writes.ts on every stamped write)

/** The stored revisions of one row. */
const revisionsOf = (db: Db, kind: EntityKind, id: string) => db.selectFrom('revisions').where('entity', '=', kind).where('entityId', '=', id);

/** The row as it was at global seq `rev`: its latest snapshot at or before it. */
export async function loadSnapshot(db: Db, kind: EntityKind, id: string, rev: number): Promise<Record<string, unknown> | null> {
  const row = await revisionsOf(db, kind, id).select('snapshot').where('rev', '<=', rev).orderBy('rev', 'desc').limit(1).executeTakeFirst();
  return row ? (JSON.parse(row.snapshot) as Record<string, unknown>) : null;
}

/** A row's revisions, newest first, `limit` of them before `before` (all when undefined). */
export async function listRevisions(
  db: Db,
  kind: EntityKind,
  id: string,
  page: { limit: number; before?: number | undefined },
): Promise<{ rev: number; createdAt: string; userId: string | null; snapshot: string }[]> {
  let query = revisionsOf(db, kind, id)
    .where('inHistory', '=', 1)
    .select(['rev', 'createdAt', 'userId', 'snapshot'])
    .orderBy('rev', 'desc')
    .limit(page.limit);
  if (page.before !== undefined) query = query.where('rev', '<', page.before);
  return query.execute();
}

/** The snapshot JSON of a row exactly at `rev`, or null. */
export async function findRevision(db: Db, kind: EntityKind, id: string, rev: number): Promise<string | null> {
  const row = await revisionsOf(db, kind, id).select('snapshot').where('rev', '=', rev).executeTakeFirst();
  return row?.snapshot ?? null;
}
