/**
 * Pieces every story route shares: id params, the signed-in write wrapper around runMutation,
 * and the create step (gates, id, stamped insert).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ERROR_CODES, type EntityKind, newId } from '@chronicler/schema';
import { requireUser } from '../auth/session.ts';
import { assertCanCreate } from '../entities/gates.ts';
import { assertIdFree } from '../entities/queries.ts';
import { type NewRow, type WireRow } from '../entities/wire.ts';
import { insertRow } from '../entities/writes.ts';
import { afterCreate } from '../progress/after-writes.ts';
import { HttpError } from '../http/errors.ts';
import { type MutationContext, type MutationResult, runMutation } from '../sync/mutation.ts';

export { idParams } from '../http/params.ts';

/** DELETE takes no body; an empty object is tolerated (some clients always send one). */
export const noBody = z.strictObject({}).nullish();

/** Runs a write as the signed-in user (401 otherwise) through the one write path. */
export function write(
  request: FastifyRequest,
  reply: FastifyReply,
  handler: (ctx: MutationContext) => Promise<MutationResult>,
): Promise<FastifyReply> {
  const user = requireUser(request);
  return runMutation(request, reply, user.id, handler);
}

export const ok = (body: unknown): MutationResult => ({ status: 200, body });

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
