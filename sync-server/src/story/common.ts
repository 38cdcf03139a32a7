/**
 * Pieces every story route shares: id params, the signed-in write wrapper around runMutation,
 * and the create step (gates, id, stamped insert).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ERROR_CODES, type EntityKind, newId } from '@chronicler/schema';
import { requireUser } from '../auth/session.ts';
import { assertCanCreate, assertWriteFeature } from '../entities/gates.ts';
import { type NewRow, type RowPatch, type WireRow, assertIdFree, insertRow, loadAccessible, updateRow } from '../entities/registry.ts';
import { HttpError } from '../http/errors.ts';
import { type MutationContext, type MutationResult, runMutation } from '../sync/mutation.ts';

/**
 * Ids in paths are looked up, never trusted: anything that is not a stored, accessible row is a
 * 404, so the param only bounds the length.
 */
export const idParams = z.strictObject({ id: z.string().min(1).max(100) });

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
  return { status: 201, body: row };
}

/**
 * Reorder calls (chapters of one book, timeline events of one series): every id must be an
 * accessible live row (404 otherwise) and all must share `groupField` (422 otherwise). Positions are
 * taken as sent; only rows whose position changes are written, all in this one write. Answers the
 * listed rows in their new order.
 */
export async function reorderRows<K extends 'chapters' | 'timelineEvents'>(
  ctx: MutationContext,
  kind: K,
  items: readonly { id: string; position: number }[],
  groupField: 'bookId' | 'seriesId',
  mismatchMessage: string,
): Promise<WireRow<K>[]> {
  const ids = new Set(items.map((item) => item.id));
  if (ids.size !== items.length) throw invalid('Each item may appear only once in a reorder');
  const rows: WireRow<K>[] = [];
  for (const item of items) rows.push(await loadAccessible(ctx.trx, kind, item.id, ctx.userId, { level: 'edit' }));
  const group = (rows[0] as Record<string, unknown>)[groupField];
  if (rows.some((row) => (row as Record<string, unknown>)[groupField] !== group)) throw invalid(mismatchMessage);
  await assertWriteFeature(ctx.trx, kind, rows[0]!.seriesId);

  const reordered: WireRow<K>[] = [];
  for (const [i, item] of items.entries()) {
    const row = rows[i]!;
    reordered.push(row.position === item.position ? row : await updateRow(ctx, kind, item.id, { position: item.position } as RowPatch<K>));
  }
  return reordered.sort((a, b) => a.position - b.position || a.createdAt.localeCompare(b.createdAt));
}

/** A 422 about the request as a whole, in the shape of validation failures. */
export function invalid(message: string, field = '_'): HttpError {
  return new HttpError(422, ERROR_CODES.validation, message, { [field]: message });
}
