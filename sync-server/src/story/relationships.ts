/**
 * Character relationships (spec 001 §7 "Characters"). Writes need the relationshipMapping feature
 * on the series owner's plan; both characters must be in the same accessible series.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createRelationshipBodySchema, updateRelationshipBodySchema } from '@chronicler/schema';
import { requireUser } from '../auth/session.ts';
import { deleteWithDependants } from '../entities/delete.ts';
import { assertWriteFeature } from '../entities/gates.ts';
import { listLive, loadAccessible } from '../entities/registry.ts';
import { applyUpdate, baseRevOf } from '../entities/update.ts';
import { createIn, idParams, noBody, invalid, ok, write } from './common.ts';

export default async function relationshipRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  app.get('/api/series/:id/character-relationships', { schema: { params: idParams } }, async (request) => {
    const series = await loadAccessible(db, 'series', request.params.id, requireUser(request).id);
    return listLive(db, 'characterRelationships', 'seriesId', series.id);
  });

  app.post('/api/character-relationships', { schema: { body: createRelationshipBodySchema } }, async (request, reply) =>
    write(request, reply, async (ctx) => {
      const { sourceCharacterId, targetCharacterId } = request.body;
      const source = await loadAccessible(ctx.trx, 'characters', sourceCharacterId, ctx.userId, { level: 'edit' });
      await assertWriteFeature(ctx.trx, 'characterRelationships', source.seriesId);
      const target = await loadAccessible(ctx.trx, 'characters', targetCharacterId, ctx.userId);
      if (target.seriesId !== source.seriesId) {
        throw invalid('Both characters of a relationship must belong to the same series', 'targetCharacterId');
      }
      return createIn(ctx, 'characterRelationships', source.seriesId, { ...request.body, seriesId: source.seriesId });
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
