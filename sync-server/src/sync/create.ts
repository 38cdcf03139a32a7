/**
 * The one create step of the story routes: feature gate and plan limit, the client's id (or a new
 * one) that must be free, the stamped insert, then the listeners hear the new row
 * (story-writes.ts). The update path is update.ts.
 */
import { type EntityKind, newId } from '@chronicler/schema';
import { assertCanCreate } from '../entities/gates.ts';
import { assertIdFree } from '../entities/queries.ts';
import type { NewRow, WireRow } from '../entities/wire.ts';
import { type MutationContext, insertRow } from '../entities/writes.ts';
import type { MutationResult } from './mutation.ts';
import { tellCreated } from './story-writes.ts';

/** Creates a row of `kind` in `seriesId` (already checked accessible by the caller). 201 with the row. */
export async function createIn<K extends EntityKind>(
  ctx: MutationContext,
  kind: K,
  seriesId: string,
  values: Omit<NewRow<K>, 'id'> & { id?: string | undefined },
): Promise<MutationResult & { body: WireRow<K> }> {
  await assertCanCreate(ctx.trx, kind, seriesId);
  const id = values.id ?? newId();
  await assertIdFree(ctx.trx, kind, id);
  const row = await insertRow(ctx, kind, { ...values, id } as NewRow<K>);
  await tellCreated(ctx, kind, row);
  return { status: 201, body: row };
}
