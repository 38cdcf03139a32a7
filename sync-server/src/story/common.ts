/**
 * Pieces the story routes share beyond the route kit (routes/kit.ts): the create step (gates, id,
 * stamped insert) and the 422 about a request as a whole.
 */
import { ERROR_CODES, type EntityKind, newId } from '@chronicler/schema';
import { assertCanCreate } from '../entities/gates.ts';
import { assertIdFree } from '../entities/queries.ts';
import { type NewRow, type WireRow } from '../entities/wire.ts';
import { insertRow } from '../entities/writes.ts';
import { afterCreate } from '../progress/after-writes.ts';
import { HttpError } from '../http/errors.ts';
import type { MutationContext, MutationResult } from '../sync/mutation.ts';

/**
 * Creates a row of `kind` in `seriesId` (already checked accessible by the caller): feature gate,
 * plan limit, the client's id (or a new one) that must be free, then the stamped insert. 201.
 */
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
  await afterCreate(ctx, kind);
  return { status: 201, body: row };
}

/** A 422 about the request as a whole, in the shape of validation failures. */
export function invalid(message: string, field = '_'): HttpError {
  return new HttpError(422, ERROR_CODES.validation, message, { [field]: message });
}
