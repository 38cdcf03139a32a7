/**
 * Writes that name rows another device deleted in the meantime
 * (docs/sync-protocol.md#status-contract: an offline outbox is replayed hours later, and a 4xx
 * turns the author's change into a dead letter). One rule for every story route, chosen so that
 * "deleted first, then this write" stores what "this write, then the delete" stores:
 *
 * - A named row the caller can see (its series is theirs or shared with them) but that is DELETED
 *   is no error. An optional reference to it is dropped (set to null, taken out of a list) — what
 *   the delete cascade (entities/delete.ts) does to rows that already point at it. A create under a
 *   deleted parent (a series, a book, a relationship's character) is stored already tombstoned in
 *   the same write — what the cascade would have done to it — and answered 201 with deletedAt set.
 *   A reorder ignores deleted rows.
 * - A named row the caller CANNOT see (unknown id, or in another author's series) is still what it
 *   was: 404 (or the route's 422 for cross-series references), for the whole request, with nothing
 *   written. Unknown and foreign ids answer alike, so an id is never confirmed to exist.
 *
 * Why a tombstoned 201 rather than a new "superseded" 409/410: the client already applies any 2xx
 * answer row as server state (a row with deletedAt disappears locally, like a pulled tombstone), so
 * the protocol gains no status to handle, later outbox work on that row gets the usual
 * mergeStatus 'deleted', and every device converges on the same stored rows.
 */
import type { EntityKind } from '@chronicler/schema';
import type { AccessLevel } from '../entities/access.ts';
import { loadAccessible } from '../entities/queries.ts';
import { type NewRow, type WireRow } from '../entities/wire.ts';
import { softDelete } from '../entities/writes.ts';
import { createIn } from '../sync/create.ts';
import type { MutationContext, MutationResult } from '../sync/mutation.ts';
import { invalid } from './common.ts';

/** A row the caller may write under, deleted or not (404 when unknown or not theirs to see). */
export function loadEvenIfDeleted<K extends EntityKind>(ctx: MutationContext, kind: K, id: string, level: AccessLevel = 'edit'): Promise<WireRow<K>> {
  return loadAccessible(ctx.trx, kind, id, ctx.userId, { level, includeDeleted: true });
}

export const isDeleted = (row: { deletedAt: string | null }): boolean => row.deletedAt !== null;

/**
 * createIn (gates, free id, stamped insert, 201), then — when the parent was deleted first — the
 * tombstone the parent's delete cascade would have made, in the same write (same rev).
 */
export async function createUnder<K extends EntityKind>(
  ctx: MutationContext,
  kind: K,
  seriesId: string,
  values: Omit<NewRow<K>, 'id'> & { id?: string | undefined },
  parentDeleted: boolean,
): Promise<MutationResult & { body: WireRow<K> }> {
  const created = await createIn(ctx, kind, seriesId, values);
  if (!parentDeleted) return created;
  return { status: 201, body: await softDelete(ctx, kind, created.body.id, created.body) };
}

/**
 * The rows a reorder names, tombstones included, in the request's order. A repeated id is a 422
 * (a malformed request); an id the caller cannot see fails the whole request with 404 before
 * anything is written. `level: 'edit'`: a viewer is refused (403) as for any write.
 */
export async function rowsNamedByReorder<K extends 'chapters' | 'timelineEvents'>(
  ctx: MutationContext,
  kind: K,
  items: readonly { id: string }[],
): Promise<WireRow<K>[]> {
  if (new Set(items.map((item) => item.id)).size !== items.length) throw invalid('Each item may appear only once in a reorder');
  const rows: WireRow<K>[] = [];
  for (const item of items) rows.push(await loadEvenIfDeleted(ctx, kind, item.id));
  return rows;
}

/** The live ones of `rows`, which must all share `field` (422 `message` otherwise). */
export function liveInOneGroup<R extends { deletedAt: string | null }>(rows: readonly R[], field: keyof R, message: string): R[] {
  const live = rows.filter((row) => !isDeleted(row));
  if (live.some((row) => row[field] !== live[0]![field])) throw invalid(message);
  return live;
}
