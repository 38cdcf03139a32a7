/**
 * Where story writes meet writing progress: a chapter save records its words (and may earn word
 * and streak achievements), a create may earn the achievements of its kind, a book marked
 * completed may earn a books one — in the same transaction, so badges appear without the button.
 */
import type { AchievementType, Chapter, EntityKind, UpdateChapterBody, WritingMark } from '@chronicler/schema';
import { loadAccessible, loadSnapshot } from '../entities/queries.ts';
import type { RowPatch } from '../entities/wire.ts';
import type { MutationContext } from '../entities/writes.ts';
import { type UpdateAnswer, applyUpdate, updateAccess } from '../sync/update.ts';
import { evaluateAchievements, evaluateAfterWords } from './achievements.ts';
import { recordChapterEdit } from './writing.ts';

/** PUT /api/chapters/{id}: the update, then the caller's words of it (the `writing` mark says what kind of save it was). */
export async function updateChapterCountingWords(
  ctx: MutationContext,
  id: string,
  body: Omit<UpdateChapterBody, 'wordCount'>,
  baseRev: number | null,
): Promise<UpdateAnswer<'chapters'>> {
  const { writing, ...fields } = body;
  if (fields.content === undefined) return applyUpdate(ctx, 'chapters', id, fields as RowPatch<'chapters'>, baseRev);
  const before = await loadAccessible(ctx.trx, 'chapters', id, ctx.userId, updateAccess('chapters'));
  const answer = await applyUpdate(ctx, 'chapters', id, fields as RowPatch<'chapters'>, baseRev, { current: before });
  // The clamp's lower bound: when the revision the client edited was saved (none known: no bound).
  const baseSavedAt =
    baseRev === null || baseRev === 0
      ? null
      : baseRev >= before.rev
        ? before.updatedAt
        : (((await loadSnapshot(ctx.trx, 'chapters', id, baseRev))?.updatedAt as string | undefined) ?? null);
  const recorded = await recordChapterEdit(ctx, { before, after: answer, mark: writing, baseSavedAt });
  // Earned when the words were written (an offline Monday's words synced on Wednesday earn on Monday).
  if (recorded !== null && recorded.counted > 0) await evaluateAfterWords(ctx, recorded);
  return answer;
}

const TYPE_OF_KIND: Partial<Record<EntityKind, AchievementType>> = { chapters: 'chapters', characters: 'characters', locations: 'locations' };

/** After a create of `kind`: the achievements that count rows of that kind. */
export async function afterCreate(ctx: MutationContext, kind: EntityKind): Promise<void> {
  const type = TYPE_OF_KIND[kind];
  if (type) await evaluateAchievements(ctx, [type]);
}

/** After a book update that left it completed. */
export async function afterBookUpdate(ctx: MutationContext, status: string | undefined): Promise<void> {
  if (status === 'completed') await evaluateAchievements(ctx, ['books']);
}

/** POST /api/chapters with a writing mark: the text typed into a chapter made offline, before its create was sent. */
export async function recordCreatedText(ctx: MutationContext, chapter: Chapter, mark: WritingMark): Promise<void> {
  const recorded = await recordChapterEdit(ctx, { before: { ...chapter, content: '' }, after: chapter, mark, baseSavedAt: null });
  if (recorded !== null && recorded.counted > 0) await evaluateAfterWords(ctx, recorded);
}
