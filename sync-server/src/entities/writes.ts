/**
 * The stamped writes of the synced tables (docs/sync-protocol.md#the-server-transaction): every row
 * a write touches gets rev = the write's seq and its timestamps. A series-scoped row keeps a
 * revision snapshot and marks its series touched for the SSE poke; a user-scoped row
 * (USER_SCOPED_KINDS) keeps no snapshot (no merge base, no history: the server writes it) and marks
 * its owner touched. With queries.ts, the only entity module that touches SQL (through Kysely).
 *
 * They run inside a write path that opens the transaction, takes the seq and hands over this
 * context: sync/mutation.ts runMutation (a request) or runServerWrite (the server's own writes).
 */
import type { Transaction } from 'kysely';
import { type EntityKind, isUserScopedKind, scopeOfRow } from '@chronicler/schema';
import { upsertRevision } from '../db/dialect.ts';
import { runPrepared } from '../db/prepared.ts';
import { PREPARED_FAMILIES } from '../db/prepared-keys.ts';
import type { DB } from '../db/tables.ts';
import { notFound } from '../http/errors.ts';
import { type SnapshotSource, rememberJson } from '../http/json.ts';
import { findRow } from './queries.ts';
import { ENTITIES } from './registry.ts';
import { type NewRow, type RowPatch, type WireRow, seriesIdOf, toColumns, toWire } from './wire.ts';

/** One write stamped with one seq, as a write path hands it over (sync/mutation.ts). */
export interface WriteContext {
  trx: Transaction<DB>;
  /** The author making the write; null for the server's own writes (webhooks, the operator command). */
  userId: string | null;
  /** The global sequence number of this write; every row it touches gets rev = seq. */
  seq: number;
  /** ISO timestamp shared by everything this write stamps. */
  now: string;
  /** Marks a series as touched so SSE listeners in its scope are poked after commit. */
  touch(seriesId: string): void;
  /**
   * Marks an author's own rows as touched so their SSE listeners are poked after commit; `record`:
   * their account record itself changed (plan, name), so their cached sessions are read afresh too.
   */
  touchUser(userId: string, what?: 'rows' | 'record'): void;
  /** Runs `effect` once this write is durable (never if it is rolled back): for what only a committed state may teach this process. */
  onCommit?(effect: () => void): void;
}

/** What a request's handler is given by runMutation: a write made by the signed-in author. */
export interface MutationContext extends WriteContext {
  userId: string;
  /** The device the request came from ("Firefox on Android", describeDevice); absent for a restore. */
  device?: string;
}

/** A new row, or one whose history fields (registry `historyFields`) changed, is a version worth listing. */
function changesHistory(kind: EntityKind, before: WireRow<EntityKind> | null, after: WireRow<EntityKind>): boolean {
  const fields = ENTITIES[kind].historyFields;
  if (before === null || fields === undefined) return true;
  const was = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  return fields.some((field) => was[field] !== now[field]);
}

/**
 * Per open write (its transaction and seq): the last snapshot written of each row. An answer made
 * from a snapshot may refer to it only while no later write of the same request replaced it.
 */
const lastSnapshots = new WeakMap<object, { seq: number; byRow: Map<string, SnapshotSource> }>();

function noteSnapshot(ctx: WriteContext, source: SnapshotSource): void {
  let written = lastSnapshots.get(ctx.trx);
  if (written?.seq !== ctx.seq) lastSnapshots.set(ctx.trx, (written = { seq: ctx.seq, byRow: new Map() }));
  written.byRow.set(`${source.entity}\u0000${source.entityId}`, source);
}

/** Whether `source` is still the stored snapshot of its row at its rev in the write `trx` is making. */
export function isLastSnapshot(trx: Transaction<DB>, source: SnapshotSource): boolean {
  const written = lastSnapshots.get(trx);
  return written?.seq === source.rev && written.byRow.get(`${source.entity}\u0000${source.entityId}`) === source;
}

/**
 * Keeps the row as written at this rev: the merge base of later updates (always) and an entry of
 * the chapter history (only when `before` → `row` changed a history field); marks its scope
 * touched. User-scoped rows keep no snapshot.
 */
async function writeSnapshot(ctx: WriteContext, kind: EntityKind, row: WireRow<EntityKind>, before: WireRow<EntityKind> | null): Promise<void> {
  if (isUserScopedKind(kind)) {
    ctx.touchUser(scopeOfRow(kind, row).userId!);
    return;
  }
  const seriesId = seriesIdOf(kind, row as { id: string; seriesId?: string });
  const snapshot = JSON.stringify(row);
  const source = { entity: kind, entityId: row.id, rev: ctx.seq, snapshot };
  rememberJson(row, snapshot, source);
  noteSnapshot(ctx, source);
  const inHistory = changesHistory(kind, before, row) ? 1 : 0;
  // A row written twice in one request keeps its last state for this rev.
  await upsertRevision(ctx.trx, { entity: kind, entityId: row.id, rev: ctx.seq, seriesId, userId: ctx.userId, snapshot, createdAt: ctx.now, inHistory });
  ctx.touch(seriesId);
}

function withDerived(kind: EntityKind, row: Record<string, unknown>, before: WireRow<EntityKind> | null): Record<string, unknown> {
  const derive = ENTITIES[kind].derive;
  return derive ? { ...row, ...derive(row, before as Record<string, unknown> | null) } : row;
}

/** Inserts a new row stamped with this write's seq and time; answers it in its wire shape. */
export async function insertRow<K extends EntityKind>(ctx: WriteContext, kind: K, values: NewRow<K>, createdAt: string = ctx.now): Promise<WireRow<K>> {
  // `createdAt` is given only by a restore, which keeps the row's original creation time.
  const full = withDerived(kind, { ...values, rev: ctx.seq, createdAt, updatedAt: ctx.now, deletedAt: null }, null);
  const columns = toColumns(kind, full);
  const table = ENTITIES[kind].table;
  const names = Object.keys(columns);
  await runPrepared(
    ctx.trx,
    PREPARED_FAMILIES.insertRow(table, names),
    (q, v: Record<string, unknown>) => q.insertInto(table).values(Object.fromEntries(names.map((name) => [name, v[name]]))),
    columns,
  );
  const row = toWire(kind, full);
  await writeSnapshot(ctx, kind, row, null);
  return row;
}

/**
 * Applies `patch` to a stored row (deleted or not), stamps it and keeps a snapshot. `stored` is the
 * row as this write already read it (in ctx.trx, unchanged since), to spare reading it again.
 */
export async function updateRow<K extends EntityKind>(
  ctx: WriteContext,
  kind: K,
  id: string,
  patch: RowPatch<K>,
  stored?: WireRow<K>,
): Promise<WireRow<K>> {
  const current = stored ?? (await findRow(ctx.trx, kind, id));
  if (!current) throw notFound();
  const next = withDerived(kind, { ...current, ...definedOnly(patch), rev: ctx.seq, updatedAt: ctx.now }, current);
  const { id: _id, createdAt: _createdAt, ...columns } = toColumns(kind, next);
  const table = ENTITIES[kind].table;
  const names = Object.keys(columns);
  await runPrepared(
    ctx.trx,
    PREPARED_FAMILIES.updateRow(table, names),
    (q, v: Record<string, unknown>) =>
      q
        .updateTable(table)
        .set(Object.fromEntries(names.map((name) => [name, v[name]])))
        .where('id', '=', v.id),
    { ...columns, id },
  );
  const row = toWire(kind, next);
  await writeSnapshot(ctx, kind, row, current);
  return row;
}

/** Soft delete: the row becomes a tombstone (deletedAt) that the changes feed carries. */
export async function softDelete<K extends EntityKind>(ctx: WriteContext, kind: K, id: string, stored?: WireRow<K>): Promise<WireRow<K>> {
  return updateRow(ctx, kind, id, { deletedAt: ctx.now } as RowPatch<K>, stored);
}

function definedOnly(values: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}
