/**
 * The plan of a restore (restore.ts), made with reads only, before anything is written: where each
 * row of the archive goes and which are here already, and the plan's limits and gates checked for
 * all the new rows at once — so a restore the plan refuses writes nothing.
 *
 * Ids: a row keeps its id when it is free here. When taken, it gets an id derived from (author,
 * kind, original id) — the same on every restore — so restoring the same archive again finds its
 * rows already present and writes nothing new. A row already present (live, in the same restored
 * series of this author) is left as it is.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ERROR_CODES, type EntityKind, type RestoreKindCount, buildPlaceTree, gateState, newId } from '@chronicler/schema';
import { type Db, countLive, ownerPlan, userPlan } from '../entities/queries.ts';
import { ENTITIES } from '../entities/registry.ts';
import { HttpError } from '../http/errors.ts';
import { BACKUP_KINDS, type BackupData, kindedTarget } from './kinds.ts';
import { derivedId } from './derived-id.ts';

/** What is stored under an id: whether it is live, and its series (its owner, for a series). */
export type Stored = { live: boolean; scope: string };

/** One row to insert: its values (ids as here), the archive's creation time and id. */
export interface PlannedRow {
  values: Record<string, unknown>;
  createdAt: string;
  original: string;
  remapped: boolean;
}

export interface RestorePlan {
  /** The rows to insert, kind by kind in BACKUP_KINDS order (parents first). */
  inserts: { kind: EntityKind; rows: PlannedRow[] }[];
  /** Ids the archive's rows take here, per kind (original → here). */
  ids: Map<EntityKind, Map<string, string>>;
  /** Rows found here already, per kind. */
  counts: Record<string, RestoreKindCount>;
}

/** Rows placed between two turns of the event loop. */
const ROWS_PER_TURN = 500;

/** Ids per query: well under SQLite's bound-parameter limit. */
const CHUNK = 500;

/** The stored rows among `ids`, in a few queries (a restore places thousands of rows). */
export async function storedRows(db: Db, kind: EntityKind, ids: readonly string[]): Promise<Map<string, Stored>> {
  const out = new Map<string, Stored>();
  const table = ENTITIES[kind].table as 'books';
  const scope = kind === 'series' ? 'ownerId' : 'seriesId';
  for (let i = 0; i < ids.length; i += CHUNK) {
    const found = await db
      .selectFrom(table)
      .select(['id', 'deletedAt', `${scope} as scope` as 'seriesId'])
      .where('id', 'in', ids.slice(i, i + CHUNK))
      .execute();
    for (const r of found) out.set(r.id, { live: r.deletedAt === null, scope: String((r as unknown as { scope: string }).scope) });
  }
  return out;
}

/** Whether `found` is the restored row itself: live, in its series (for a series: owned by the author). */
export function isSameRow(found: Stored, kind: EntityKind, userId: string, seriesId: string | null): boolean {
  return found.live && found.scope === (kind === 'series' ? userId : seriesId);
}

type Decision = { id: string; present: boolean; remapped: boolean };

/** Where a row goes: its own id, else its derived id, else a fresh one; present when one of them already holds it. */
function place(userId: string, stored: Map<string, Stored>, kind: EntityKind, original: string, seriesId: string | null): Decision {
  const candidates = [original, derivedId(userId, kind, original)];
  for (const [i, id] of candidates.entries()) {
    const found = stored.get(id);
    if (!found) return { id, present: false, remapped: i > 0 };
    if (isSameRow(found, kind, userId, seriesId)) return { id, present: true, remapped: i > 0 };
  }
  return { id: newId(), present: false, remapped: true };
}

/**
 * The plan's limits and gates for the new rows of `kind`, checked once per series as the same
 * creates one by one would be (the last new row is the one that must still fit). A series new to
 * this account is not stored yet: its owner is this author, and it holds no rows yet.
 */
async function assertWithinPlan(db: Db, userId: string, kind: EntityKind, rows: PlannedRow[], newSeries: ReadonlySet<string>): Promise<void> {
  if (rows.length === 0) return;
  if (kind === 'series') {
    const existing = await countLive(db, 'series', 'ownerId', userId);
    const gate = gateState({ plan: await userPlan(db, userId), limit: 'series', count: existing + rows.length - 1 });
    if (gate.locked) throw new HttpError(403, ERROR_CODES.planLimit, gate.message);
    return;
  }
  const perSeries = new Map<string, number>();
  for (const { values } of rows) perSeries.set(String(values.seriesId), (perSeries.get(String(values.seriesId)) ?? 0) + 1);
  const { writeFeature: feature, createLimit: limit } = ENTITIES[kind];
  for (const [seriesId, n] of perSeries) {
    const isNew = newSeries.has(seriesId);
    const plan = isNew ? await userPlan(db, userId) : await ownerPlan(db, seriesId);
    if (feature !== null) {
      const gate = gateState({ plan, feature });
      if (gate.locked) throw new HttpError(403, ERROR_CODES.featureLocked, gate.message);
    }
    if (limit === null) continue;
    const existing = isNew ? 0 : await countLive(db, kind, 'seriesId', seriesId);
    const gate = gateState({ plan, limit, count: existing + n - 1 });
    if (gate.locked) throw new HttpError(403, ERROR_CODES.planLimit, gate.message);
  }
}

const STAMPS = ['rev', 'createdAt', 'updatedAt', 'deletedAt'];

/**
 * A reference to a row of the same kind (a place's parent): remapped once every row of the kind
 * has its id here, since a child may come before its parent in the archive. A parent the archive
 * does not hold leaves the row at the top level; so does a cycle in a damaged archive (the rows on
 * it), as the server never stores one (docs/decisions/0021-places-inside-places.md). A row already
 * present keeps its stored parent; a new row's parent may be one of those.
 */
function remapTreeParents(rows: PlannedRow[], field: string, ids: ReadonlyMap<string, string>): void {
  for (const { values } of rows) {
    const original = values[field];
    values[field] = original === null || original === undefined ? null : (ids.get(String(original)) ?? null);
  }
  const links = rows.map(({ values }) => ({ id: String(values.id), parentId: values[field] as string | null }));
  const { looped } = buildPlaceTree(links, () => 0);
  for (const { values } of rows) if (looped.has(String(values.id))) values[field] = null;
}

export async function planRestore(db: Db, userId: string, data: BackupData): Promise<RestorePlan> {
  const ids = new Map<EntityKind, Map<string, string>>();
  const counts: Record<string, RestoreKindCount> = {};
  const inserts: RestorePlan['inserts'] = [];
  const newSeries = new Set<string>();
  for (const { kind, refs, listRefs = {}, optionalRefs = [], userFields = [], kindedRefs = {} } of BACKUP_KINDS) {
    const map = new Map<string, string>();
    ids.set(kind, map);
    const count: RestoreKindCount = { restored: 0, alreadyPresent: 0, remapped: 0 };
    counts[kind] = count;
    const list = data.rows[kind] ?? [];
    const stored = await storedRows(db, kind, list.flatMap((r) => [String(r.id), derivedId(userId, kind, String(r.id))]));
    const rows: PlannedRow[] = [];
    for (const [index, row] of list.entries()) {
      // Thousands of rows: other requests get a turn now and then.
      if (index > 0 && index % ROWS_PER_TURN === 0) await nextTurn();
      const values: Record<string, unknown> = Object.fromEntries(Object.entries(row).filter(([k]) => !STAMPS.includes(k)));
      for (const [field, target] of Object.entries(refs)) {
        if (values[field] === null || target === kind) continue;
        const mapped = ids.get(target)?.get(String(values[field]));
        if (mapped === undefined && optionalRefs.includes(field)) values[field] = null;
        else values[field] = mapped;
      }
      for (const [field, ref] of Object.entries(kindedRefs)) {
        const target = kindedTarget(values, ref);
        values[field] = target === undefined ? undefined : ids.get(target)?.get(String(values[field]));
      }
      for (const field of userFields) values[field] = userId;
      const decision = place(userId, stored, kind, String(row.id), kind === 'series' ? null : String(values.seriesId));
      map.set(String(row.id), decision.id);
      if (decision.present) {
        count.alreadyPresent += 1;
        continue;
      }
      values.id = decision.id;
      if (kind === 'series') newSeries.add(decision.id);
      rows.push({ values, createdAt: String(row.createdAt), original: String(row.id), remapped: decision.remapped });
    }
    // Lists are remapped once every row of the kind is placed: a list may name rows of its own kind
    // (a world entry's links to other entries), later in the archive as well as earlier.
    for (const { values } of rows) {
      for (const [field, target] of Object.entries(listRefs)) {
        values[field] = ((values[field] ?? []) as string[]).flatMap((id) => ids.get(target)?.get(id) ?? []);
      }
    }
    for (const [field, target] of Object.entries(refs)) {
      if (target === kind) remapTreeParents(rows, field, map);
    }
    // Plan limits and gates, as for the same creates one by one: all refused before anything is written.
    await assertWithinPlan(db, userId, kind, rows, newSeries);
    inserts.push({ kind, rows });
  }
  return { inserts, ids, counts };
}
