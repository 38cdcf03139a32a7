/**
 * The story-structure API of spec 001 §7 (series, books, chapters, characters, relationships,
 * locations, timeline, canon changes, world entries). Every write goes through runMutation; access always comes from stored rows.
 *
 * Status codes: create 201 with the row; update 200 with the row plus `mergeStatus` (and
 * `conflictId`); delete 200 with the tombstoned row (deletedAt set); reorder 200 with the listed
 * rows in their new order. 404 for unknown, foreign or deleted ids; 403 PLAN_LIMIT / FEATURE_LOCKED
 * for plan gates and FORBIDDEN for a collaborator's role; 409 CONFLICT for a create whose id is
 * taken; 422 VALIDATION_FAILED for bodies and cross-row rules.
 */
import type { FastifyInstance } from 'fastify';
import bookRoutes from './books.ts';
import canonChangeRoutes from './canon-changes.ts';
import chapterRoutes from './chapters.ts';
import characterRoutes from './characters.ts';
import locationRoutes from './locations.ts';
import relationshipRoutes from './relationships.ts';
import seriesRoutes from './series.ts';
import timelineRoutes from './timeline.ts';
import worldEntryRoutes from './world-entries.ts';
import { purgeDueTrash } from './trash.ts';

/** How often the Trash's purge looks for rows past their retention (docs/decisions/0014-trash-and-restructure.md). */
const TRASH_PURGE_INTERVAL_MS = 60 * 60 * 1000;

export default async function storyPlugin(app: FastifyInstance): Promise<void> {
  // Story writes are what the outbox holds: they (and only they) may run inside POST /api/sync/batch.
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (methods.every((method) => method !== 'GET' && method !== 'HEAD')) route.config = { ...route.config, batchable: true };
  });
  await app.register(seriesRoutes);
  await app.register(bookRoutes);
  await app.register(chapterRoutes);
  await app.register(characterRoutes);
  await app.register(relationshipRoutes);
  await app.register(locationRoutes);
  await app.register(timelineRoutes);
  await app.register(canonChangeRoutes);
  await app.register(worldEntryRoutes);

  const purge = () => void purgeDueTrash(app.deps, Date.now()).catch((error: unknown) => app.log.error({ err: error }, 'trash purge failed'));
  const sweep = setInterval(purge, TRASH_PURGE_INTERVAL_MS);
  sweep.unref();
  app.addHook('onReady', async () => purge());
  app.addHook('onClose', async () => clearInterval(sweep));
}
