/**
 * The stamped writes of the story tables (DESIGN.md §3 "Server"): every row a write touches gets
 * rev = the write's seq and its timestamps, keeps a revision snapshot, and marks its series touched
 * for the SSE poke. With queries.ts, the only entity module that touches SQL (through Kysely).
 *
 * They run inside the one write path (sync/mutation.ts runMutation), which opens the transaction,
 * takes the seq and hands over this context.
 */
import type { Transaction } from 'kysely';
import type { EntityKind } from '@chronicler/schema';
import { upsertRevision } from '../db/dialect.ts';
import { runPrepared } from '../db/prepared.ts';
import type { DB } from '../db/tables.ts';
import { notFound } from '../http/errors.ts';
import { rememberJson } from '../http/json.ts';
import { findRow } from './queries.ts';
import { ENTITIES } from './registry.ts';
import { type NewRow, type RowPatch, type WireRow, seriesIdOf, toColumns, toWire } from './wire.ts';

/** What a write's handler is given by the write path (sync/mutation.ts runMutation). */
export interface MutationContext {
  trx: Transaction<DB>;
  userId: string;
  /** The global sequence number of this write; every row it touches gets rev = seq. */
  seq: number;
  /** ISO timestamp shared by everything this write stamps. */
  now: string;
  /** Marks a series as touched so SSE listeners in its scope are poked after commit. */
  touch(seriesId: string): void;
}

/** Keeps the row as written at this rev: the merge base of later updates and the chapter history. */
async function writeSnapshot(ctx: MutationContext, kind: EntityKind, row: WireRow<EntityKind>): Promise<void> {
  const seriesId = seriesIdOf(kind, row as { id: string; seriesId?: string });
  const snapshot = JSON.stringify(row);
  rememberJson(row, snapshot, { entity: kind, entityId: row.id, rev: ctx.seq, snapshot });
  // A row written twice in one request keeps its last state for this rev.
  await upsertRevision(ctx.trx, { entity: kind, entityId: row.id, rev: ctx.seq, seriesId, userId: ctx.userId, snapshot, createdAt: ctx.now });
  ctx.touch(seriesId);
}

function withDerived(kind: EntityKind, row: Record<string, unknown>): Record<string, unknown> {
  const derive = ENTITIES[kind].derive;
  return derive ? { ...row, ...derive(row) } : row;
}

/** Inserts a new row stamped with this write's seq and time; answers it in its wire shape. */
export async function insertRow<K extends EntityKind>(ctx: MutationContext, kind: K, values: NewRow<K>, createdAt: string = ctx.now): Promise<WireRow<K>> {
  // `createdAt` is given only by a restore, which keeps the row's original creation time.
  const full = withDerived(kind, { ...values, rev: ctx.seq, createdAt, updatedAt: ctx.now, deletedAt: null });
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
