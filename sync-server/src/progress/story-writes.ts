/**
 * Writing progress listens to the story writes (sync/story-writes.ts), inside each write's
 * transaction, so badges appear without the button: a chapter save records its words
 * (docs/server.md#writing-statistics) and may earn word and streak achievements, a create may earn
 * the achievements of its kind, a book marked completed may earn a books one. Registered by the
 * progress plugin (plugin.ts).
 */
import type { AchievementType, EntityKind } from '@chronicler/schema';
import { loadSnapshot } from '../entities/queries.ts';
import type { WireRow } from '../entities/wire.ts';
import type { StoryWriteListener } from '../sync/story-writes.ts';
import { evaluateAchievements, evaluateAfterWords } from './achievements.ts';
import { recordChapterEdit } from './writing.ts';

const TYPE_OF_KIND: Partial<Record<EntityKind, AchievementType>> = { chapters: 'chapters', characters: 'characters', locations: 'locations' };

export const progressListener: StoryWriteListener = {
  /** The caller's words of the save (the `writing` mark says what kind of save it was). */
  async chapterTextSaved(ctx, { before, after, mark, baseRev }) {
    // The clamp's lower bound: when the revision the client edited was saved (none known: no bound).
    const baseSavedAt =
      baseRev === null || baseRev === 0
        ? null
        : baseRev >= before.rev
          ? before.updatedAt
          : (((await loadSnapshot(ctx.trx, 'chapters', before.id, baseRev))?.updatedAt as string | undefined) ?? null);
    const recorded = await recordChapterEdit(ctx, { before, after, mark, baseSavedAt });
    // Earned when the words were written (an offline Monday's words synced on Wednesday earn on Monday).
    if (recorded !== null && recorded.counted > 0) await evaluateAfterWords(ctx, recorded);
  },

  /** After a create of `kind`: the achievements that count rows of that kind. */
  async created(ctx, kind) {
    const type = TYPE_OF_KIND[kind];
    if (type) await evaluateAchievements(ctx, [type]);
  },

  /** After a book update that left it completed. */
  async updated(ctx, kind, row) {
    if (kind === 'books' && (row as WireRow<'books'>).status === 'completed') await evaluateAchievements(ctx, ['books']);
  },
};
