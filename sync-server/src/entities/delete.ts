/**
 * Deletes with their dependants, all in the caller's one write (same seq), by the shared cascade
 * table (@chronicler/schema delete-cascade.ts): a series takes everything under it, a book its
 * chapters, a character its relationships; references from timeline events to a deleted book,
 * chapter, location or character are cleared. Conflict copies of a deleted chapter stay (they are
 * how its text remains recoverable).
 */
import { type CascadeReader, type EntityKind, planDeleteCascade } from '@chronicler/schema';
import { assertWriteFeature } from './gates.ts';
import { listLive, loadAccessible } from './queries.ts';
import { type WireRow, seriesIdOf } from './wire.ts';
import { type MutationContext, type WriteContext, softDelete, updateRow } from './writes.ts';

/** The server's store as the cascade reads it: live rows in this write's transaction. */
function cascadeReader(ctx: WriteContext): CascadeReader {
  return { liveWhere: (kind, field, value) => listLive(ctx.trx, kind, field, value) };
}

/** The shared cascade table's writes, applied in order in this write (same seq). */
async function deleteDependants(ctx: WriteContext, kind: EntityKind, row: WireRow<EntityKind>): Promise<void> {
  for (const write of await planDeleteCascade(cascadeReader(ctx), kind, row)) {
    if (write.op === 'delete') await softDelete(ctx, write.kind, write.id);
    else await updateRow(ctx, write.kind, write.id, write.fields);
  }
}

/**
 * DELETE of a REST route: the live row must be accessible (404 otherwise) and writable; it and its
 * dependants become tombstones in this write. Answers the tombstoned row.
 */
export async function deleteWithDependants<K extends EntityKind>(ctx: MutationContext, kind: K, id: string): Promise<WireRow<K>> {
  const level = kind === 'series' ? 'own' : 'edit';
  const row = await loadAccessible(ctx.trx, kind, id, ctx.userId, { level });
  await assertWriteFeature(ctx.trx, kind, seriesIdOf(kind, row as { id: string; seriesId?: string }));
  await deleteDependants(ctx, kind, row);
  // Dependants are other rows: `row` is still as stored.
  return softDelete(ctx, kind, id, row);
}

/**
 * The server's own delete of a stored live row and its dependants (the Trash's purge,
 * docs/decisions/0014-trash-and-restructure.md): no caller, so no access check. Answers the tombstone.
 */
export async function purgeWithDependants<K extends EntityKind>(ctx: WriteContext, kind: K, row: WireRow<K>): Promise<WireRow<K>> {
  await deleteDependants(ctx, kind, row);
  return softDelete(ctx, kind, row.id, row);
}
