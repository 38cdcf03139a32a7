/**
 * Deletes with their dependants, all in the caller's one write (same seq): a series takes
 * everything under it, a book its chapters, a character its relationships; references from
 * timeline events to a deleted book, chapter, location or character are cleared.
 * Conflict copies of a deleted chapter stay (they are how its text remains recoverable).
 */
import type { EntityKind } from '@chronicler/schema';
import { assertWriteFeature } from './gates.ts';
import { eventsWithCharacter, listLive, loadAccessible } from './queries.ts';
import { SERIES_CHILD_KINDS } from './registry.ts';
import { type WireRow, seriesIdOf } from './wire.ts';
import { type MutationContext, softDelete, updateRow } from './writes.ts';

async function deleteAll(ctx: MutationContext, kind: EntityKind, rows: readonly { id: string }[]): Promise<void> {
  for (const row of rows) await softDelete(ctx, kind, row.id);
}

async function clearEventReference(
  ctx: MutationContext,
  seriesId: string,
  column: 'bookId' | 'chapterId' | 'locationId',
  ids: ReadonlySet<string>,
): Promise<void> {
  if (ids.size === 0) return;
  const events = await listLive(ctx.trx, 'timelineEvents', 'seriesId', seriesId);
  for (const event of events) {
    const value = event[column];
    if (value !== null && ids.has(value)) await updateRow(ctx, 'timelineEvents', event.id, { [column]: null });
  }
}

async function deleteDependants(ctx: MutationContext, kind: EntityKind, row: WireRow<EntityKind>): Promise<void> {
  const seriesId = seriesIdOf(kind, row as { id: string; seriesId?: string });
  switch (kind) {
    case 'series':
      for (const child of SERIES_CHILD_KINDS) await deleteAll(ctx, child, await listLive(ctx.trx, child, 'seriesId', row.id));
      return;
    case 'books': {
      const chapters = await listLive(ctx.trx, 'chapters', 'bookId', row.id);
      await deleteAll(ctx, 'chapters', chapters);
      await clearEventReference(ctx, seriesId, 'bookId', new Set([row.id]));
      await clearEventReference(ctx, seriesId, 'chapterId', new Set(chapters.map((c) => c.id)));
      return;
    }
    case 'chapters':
      await clearEventReference(ctx, seriesId, 'chapterId', new Set([row.id]));
      return;
    case 'locations':
      await clearEventReference(ctx, seriesId, 'locationId', new Set([row.id]));
      return;
    case 'characters': {
      await deleteAll(ctx, 'characterRelationships', await listLive(ctx.trx, 'characterRelationships', 'sourceCharacterId', row.id));
      await deleteAll(ctx, 'characterRelationships', await listLive(ctx.trx, 'characterRelationships', 'targetCharacterId', row.id));
      for (const event of await eventsWithCharacter(ctx.trx, seriesId, row.id)) {
        await updateRow(ctx, 'timelineEvents', event.id, { characterIds: event.characterIds.filter((c) => c !== row.id) });
      }
      return;
    }
    default:
      return;
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
