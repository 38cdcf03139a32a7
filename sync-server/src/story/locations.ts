/**
 * World locations (spec 001 §7 "Locations"). Deleting one clears it from timeline events, and the
 * places inside it move up to its parent (the delete cascade table). A place's parent is checked in
 * the write (story/place-parent.ts: same series, no cycle, deleted first → moved up).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createLocationBodySchema, updateLocationBodySchema } from '@chronicler/schema';
import { requireUser } from '../http/caller.ts';
import { deleteWithDependants } from '../entities/delete.ts';
import { assertAccessible, listLiveJson, loadAccessible } from '../entities/queries.ts';
import { JSON_CONTENT_TYPE } from '../http/json.ts';
import { applyUpdate, baseRevOf } from '../sync/update.ts';
import { idParams, noBody, ok, write } from '../routes/kit.ts';
import { assertBookAppearancesInSeries } from './book-appearances.ts';
import { createUnder, isDeleted, loadEvenIfDeleted } from './dangling.ts';
import { resolvePlaceParent } from './place-parent.ts';

export default async function locationRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  app.get('/api/series/:id/locations', { schema: { params: idParams } }, async (request, reply) => {
    const { seriesId } = await assertAccessible(db, 'series', request.params.id, requireUser(request).id);
    return reply.type(JSON_CONTENT_TYPE).send(await listLiveJson(db, 'locations', 'seriesId', seriesId));
  });

  app.post('/api/locations', { schema: { body: createLocationBodySchema } }, async (request, reply) =>
    write(request, reply, async (ctx) => {
      // A series deleted on another device first: stored as its delete would have left it (story/dangling.ts).
      const series = await loadEvenIfDeleted(ctx, 'series', request.body.seriesId);
      await assertBookAppearancesInSeries(ctx.trx, series.id, request.body.bookAppearances);
      const parentId = await resolvePlaceParent(ctx.trx, series.id, request.body.id, request.body.parentId);
      return createUnder(ctx, 'locations', series.id, { ...request.body, seriesId: series.id, parentId }, isDeleted(series));
    }),
  );

  app.get('/api/locations/:id', { schema: { params: idParams } }, async (request) =>
    loadAccessible(db, 'locations', request.params.id, requireUser(request).id),
  );

  app.put('/api/locations/:id', { schema: { params: idParams, body: updateLocationBodySchema } }, async (request, reply) => {
    const baseRev = baseRevOf(request);
    return write(request, reply, async (ctx) => {
      let body = request.body;
      if (body.parentId !== undefined) {
        // A move: the parent is resolved before the merge sees the body, so the place's series is
        // read first (access first: a viewer is refused before anything about the parent is said).
        const current = await loadEvenIfDeleted(ctx, 'locations', request.params.id);
        if (!isDeleted(current)) body = { ...body, parentId: await resolvePlaceParent(ctx.trx, current.seriesId, current.id, body.parentId) };
      }
      return ok(
        await applyUpdate(ctx, 'locations', request.params.id, body, baseRev, {
          validate: (current) => assertBookAppearancesInSeries(ctx.trx, current.seriesId, request.body.bookAppearances),
        }),
      );
    });
  });

  app.delete('/api/locations/:id', { schema: { params: idParams, body: noBody } }, async (request, reply) =>
    write(request, reply, async (ctx) => ok(await deleteWithDependants(ctx, 'locations', request.params.id))),
  );
}
