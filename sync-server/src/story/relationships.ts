/**
 * Character relationships (spec 001 §7 "Characters"). Writes need the relationshipMapping feature
 * on the series owner's plan; both characters must be in the same accessible series.
 *
 * A relationship created after one of its characters was deleted on another device is stored
 * already tombstoned (201, deletedAt set): deleting a character deletes its relationships, so had
 * the create arrived first the delete would have left exactly that row. Both orders end in "no
 * relationship" without a dead letter on the author's device (story/dangling.ts says why a
 * tombstone and not a "superseded" 409/410). Updates of a relationship deleted that way answer
 * mergeStatus 'deleted' like any update of a deleted row (sync/update.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createRelationshipBodySchema, updateRelationshipBodySchema } from '@chronicler/schema';
import { requireUser } from '../http/caller.ts';
import { deleteWithDependants } from '../entities/delete.ts';
import { assertWriteFeature } from '../entities/gates.ts';
import { assertAccessible, listLiveJson } from '../entities/queries.ts';
import { JSON_CONTENT_TYPE } from '../http/json.ts';
import { applyUpdate, baseRevOf } from '../sync/update.ts';
import { idParams, noBody, ok, write } from '../routes/kit.ts';
import { invalid } from './common.ts';
import { createUnder, isDeleted, loadEvenIfDeleted } from './dangling.ts';

export default async function relationshipRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  app.get('/api/series/:id/character-relationships', { schema: { params: idParams } }, async (request, reply) => {
    const { seriesId } = await assertAccessible(db, 'series', request.params.id, requireUser(request).id);
    return reply.type(JSON_CONTENT_TYPE).send(await listLiveJson(db, 'characterRelationships', 'seriesId', seriesId));
  });

  app.post('/api/character-relationships', { schema: { body: createRelationshipBodySchema } }, async (request, reply) =>
    write(request, reply, async (ctx) => {
      const { sourceCharacterId, targetCharacterId } = request.body;
      const source = await loadEvenIfDeleted(ctx, 'characters', sourceCharacterId);
      await assertWriteFeature(ctx.trx, 'characterRelationships', source.seriesId);
      const target = await loadEvenIfDeleted(ctx, 'characters', targetCharacterId, 'read');
      if (target.seriesId !== source.seriesId) {
        throw invalid('Both characters of a relationship must belong to the same series', 'targetCharacterId');
      }
      const values = { ...request.body, seriesId: source.seriesId };
      return createUnder(ctx, 'characterRelationships', source.seriesId, values, isDeleted(source) || isDeleted(target));
    }),
  );

  app.put('/api/character-relationships/:id', { schema: { params: idParams, body: updateRelationshipBodySchema } }, async (request, reply) => {
    const baseRev = baseRevOf(request);
    return write(request, reply, async (ctx) => ok(await applyUpdate(ctx, 'characterRelationships', request.params.id, request.body, baseRev)));
  });

  app.delete('/api/character-relationships/:id', { schema: { params: idParams, body: noBody } }, async (request, reply) =>
    write(request, reply, async (ctx) => ok(await deleteWithDependants(ctx, 'characterRelationships', request.params.id))),
  );
}
