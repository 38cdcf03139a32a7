/** Series (spec 001 §7 "Series and books"): list, create, read, update, delete with everything under it. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createSeriesBodySchema, newId, updateSeriesBodySchema } from '@chronicler/schema';
import { requireUser } from '../http/caller.ts';
import { deleteWithDependants } from '../entities/delete.ts';
import { assertCreateLimit } from '../entities/gates.ts';
import { assertIdFree, listSeriesOf, loadAccessible } from '../entities/queries.ts';
import { insertRow } from '../entities/writes.ts';
import { applyUpdate, baseRevOf } from '../sync/update.ts';
import { idParams, noBody, ok, write } from '../routes/kit.ts';

export default async function seriesRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  /** The caller's live series: owned, and shared with them through a live membership. */
  app.get('/api/series', async (request) => {
    const user = requireUser(request);
    return listSeriesOf(db, user.id);
  });

  app.post('/api/series', { schema: { body: createSeriesBodySchema } }, async (request, reply) =>
    write(request, reply, async (ctx) => {
      const { id = newId(), ...fields } = request.body;
      await assertCreateLimit(ctx.trx, 'series', { ownerId: ctx.userId });
      await assertIdFree(ctx.trx, 'series', id);
      return { status: 201, body: await insertRow(ctx, 'series', { id, ownerId: ctx.userId, ...fields }) };
    }),
  );

  app.get('/api/series/:id', { schema: { params: idParams } }, async (request) =>
    loadAccessible(db, 'series', request.params.id, requireUser(request).id),
  );

  app.put('/api/series/:id', { schema: { params: idParams, body: updateSeriesBodySchema } }, async (request, reply) => {
    const baseRev = baseRevOf(request);
    return write(request, reply, async (ctx) => ok(await applyUpdate(ctx, 'series', request.params.id, request.body, baseRev)));
  });

  app.delete('/api/series/:id', { schema: { params: idParams, body: noBody } }, async (request, reply) =>
    write(request, reply, async (ctx) => ok(await deleteWithDependants(ctx, 'series', request.params.id))),
  );
}
