/**
 * The one update path of every PUT: access from the stored row, feature gate, the merge against the
 * client's base revision (sync/merge.ts), the stamped write, and the conflict copy when chapter
 * text could not be merged or was edited after a delete; then the listeners hear the update
 * (story-writes.ts). A chapter save is the update path too (saveChapter), heard as text saved.
 */
import { type EntityKind, type MergeStatus, type UpdateChapterBody, newId } from '@chronicler/schema';
import type { FastifyRequest } from 'fastify';
import { ERROR_CODES } from '@chronicler/schema';
import { HttpError } from '../http/errors.ts';
import { extendedWithJson } from '../http/json.ts';
import { assertWriteFeature } from '../entities/gates.ts';
import { loadAccessible, loadSnapshot } from '../entities/queries.ts';
import { ENTITIES } from '../entities/registry.ts';
import { type RowPatch, type WireRow, seriesIdOf } from '../entities/wire.ts';
import { type MutationContext, insertRow, updateRow } from '../entities/writes.ts';
import { type ConflictReason, planUpdate } from './merge.ts';
import { tellChapterTextSaved, tellUpdated } from './story-writes.ts';

export const BASE_REV_HEADER = 'x-base-rev';

/** X-Base-Rev as a number, null when absent; anything but a whole number is a 400. */
export function baseRevOf(request: FastifyRequest): number | null {
  const raw = request.headers[BASE_REV_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === '') return null;
  if (!/^\d{1,15}$/.test(value)) {
    throw new HttpError(400, ERROR_CODES.badRequest, 'X-Base-Rev must be a whole number (the rev the change was based on)');
  }
  return Number(value);
}

export type UpdateAnswer<K extends EntityKind> = WireRow<K> & { mergeStatus: MergeStatus; conflictId?: string };

/** What an update of `kind` asks of the caller (loadAccessible options): manage a series, edit anything in it. */
export function updateAccess(kind: EntityKind): { level: 'manage' | 'edit'; includeDeleted: true } {
  return { level: kind === 'series' ? 'manage' : 'edit', includeDeleted: true };
}

export interface UpdateOptions<K extends EntityKind> {
  /** Checks the body against the stored row before anything is written (e.g. same-series references). */
  validate?: (current: WireRow<K>) => Promise<void>;
  /**
   * The row as this write already loaded it with loadAccessible (the update's access level,
   * deleted rows included) and has not changed since: spares reading ~6 KB of chapter twice.
   */
  current?: WireRow<K>;
}

/**
 * Updates row `id` of `kind` with the validated body fields, merged against `baseRev`.
 * Answers the row as stored afterwards plus `mergeStatus` (and `conflictId` when a copy was kept).
 */
export async function applyUpdate<K extends EntityKind>(
  ctx: MutationContext,
  kind: K,
  id: string,
  incoming: RowPatch<K>,
  baseRev: number | null,
  options: UpdateOptions<K> = {},
): Promise<UpdateAnswer<K>> {
  const current = options.current ?? (await loadAccessible(ctx.trx, kind, id, ctx.userId, updateAccess(kind)));
  const seriesId = seriesIdOf(kind, current as { id: string; seriesId?: string });
  await assertWriteFeature(ctx.trx, kind, seriesId);
  if (current.deletedAt === null) await options.validate?.(current);

  const base = baseRev !== null && baseRev < current.rev ? await loadSnapshot(ctx.trx, kind, id, baseRev) : null;
  const plan = planUpdate({
    current: current as unknown as Record<string, unknown> & { rev: number; deletedAt: string | null },
    baseRev,
    base,
    incoming: incoming as Record<string, unknown>,
    textField: ENTITIES[kind].textField,
  });

  const row = plan.status === 'deleted' || Object.keys(plan.patch).length === 0 ? current : await updateRow(ctx, kind, id, plan.patch as RowPatch<K>, current);
  const conflictId = plan.conflictCopy
    ? await keepConflictCopy(ctx, current as WireRow<'chapters'>, incoming as RowPatch<'chapters'>, baseRev, plan.conflictCopy.reason)
    : undefined;
  const answer = extendedWithJson(row, conflictId === undefined ? { mergeStatus: plan.status } : { mergeStatus: plan.status, conflictId }) as UpdateAnswer<K>;
  await tellUpdated(ctx, kind, answer);
  return answer;
}

/**
 * PUT /api/chapters/{id}: the update path; when the save carries text, the listeners then hear the
 * text saved, with the row as it was before (progress/ counts the words it adds). The `writing`
 * mark is no column: it says what kind of save it was and when it was typed.
 */
export async function saveChapter(
  ctx: MutationContext,
  id: string,
  body: Omit<UpdateChapterBody, 'wordCount'>,
  baseRev: number | null,
): Promise<UpdateAnswer<'chapters'>> {
  const { writing, ...fields } = body;
  if (fields.content === undefined) return applyUpdate(ctx, 'chapters', id, fields as RowPatch<'chapters'>, baseRev);
  const before = await loadAccessible(ctx.trx, 'chapters', id, ctx.userId, updateAccess('chapters'));
  const after = await applyUpdate(ctx, 'chapters', id, fields as RowPatch<'chapters'>, baseRev, { current: before });
  await tellChapterTextSaved(ctx, { before, after, mark: writing, baseRev });
  return after;
}

/** Stores the full incoming title and text as a conflict copy of the chapter; answers its id. */
async function keepConflictCopy(
  ctx: MutationContext,
  chapter: WireRow<'chapters'>,
  incoming: RowPatch<'chapters'>,
  baseRev: number | null,
  reason: ConflictReason,
): Promise<string> {
  const copy = await insertRow(ctx, 'chapterConflicts', {
    id: newId(),
    seriesId: chapter.seriesId,
    chapterId: chapter.id,
    baseRev: baseRev ?? chapter.rev,
    title: incoming.title ?? chapter.title,
    content: incoming.content ?? '',
    authorId: ctx.userId,
    reason,
    device: ctx.device ?? null,
  });
  return copy.id;
}
