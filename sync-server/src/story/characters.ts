/** Characters (spec 001 §7 "Characters"). Deleting one also deletes its relationships and takes it off timeline events. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createCharacterBodySchema, updateCharacterBodySchema } from '@chronicler/schema';
import { requireUser } from '../http/caller.ts';
import { deleteWithDependants } from '../entities/delete.ts';
import { assertAccessible, eventsWithCharacter, listLiveJson, loadAccessible } from '../entities/queries.ts';
import { JSON_CONTENT_TYPE } from '../http/json.ts';
import { applyUpdate, baseRevOf } from '../sync/update.ts';
import { idParams, noBody, ok, write } from '../routes/kit.ts';
import { assertBookAppearancesInSeries } from './book-appearances.ts';
import { createUnder, isDeleted, loadEvenIfDeleted } from './dangling.ts';

export default async function characterRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  app.get('/api/series/:id/characters', { schema: { params: idParams } }, async (request, reply) => {
    const { seriesId } = await assertAccessible(db, 'series', request.params.id, requireUser(request).id);
    return reply.type(JSON_CONTENT_TYPE).send(await listLiveJson(db, 'characters', 'seriesId', seriesId));
  });

  app.post('/api/characters', { schema: { body: createCharacterBodySchema } }, async (request, reply) =>
    write(request, reply, async (ctx) => {
      // A series deleted on another device first: stored as its delete would have left it (story/dangling.ts).
      const series = await loadEvenIfDeleted(ctx, 'series', request.body.seriesId);
      await assertBookAppearancesInSeries(ctx.trx, series.id, request.body.bookAppearances);
      return createUnder(ctx, 'characters', series.id, { ...request.body, seriesId: series.id }, isDeleted(series));
    }),
  );

  app.get('/api/characters/:id', { schema: { params: idParams } }, async (request) =>
    loadAccessible(db, 'characters', request.params.id, requireUser(request).id),
  );

  app.put('/api/characters/:id', { schema: { params: idParams, body: updateCharacterBodySchema } }, async (request, reply) => {
    const baseRev = baseRevOf(request);
    return write(request, reply, async (ctx) =>
      ok(
        await applyUpdate(ctx, 'characters', request.params.id, request.body, baseRev, {
          validate: (current) => assertBookAppearancesInSeries(ctx.trx, current.seriesId, request.body.bookAppearances),
        }),
      ),
    );
  });

  app.delete('/api/characters/:id', { schema: { params: idParams, body: noBody } }, async (request, reply) =>
    write(request, reply, async (ctx) => ok(await deleteWithDependants(ctx, 'characters', request.params.id))),
  );

  /** The character's timeline: live events whose characterIds contain it, in narrative order. Not gated (a read). */
  app.get('/api/characters/:id/timeline', { schema: { params: idParams } }, async (request) => {
    const character = await loadAccessible(db, 'characters', request.params.id, requireUser(request).id);
    return eventsWithCharacter(db, character.seriesId, character.id);
  });
}
