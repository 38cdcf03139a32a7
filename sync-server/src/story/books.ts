/** Books (spec 001 §7 "Series and books"). A new book goes after the live ones (count + 1). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createBookBodySchema, nextPosition, updateBookBodySchema } from '@chronicler/schema';
import { requireUser } from '../http/caller.ts';
import { deleteWithDependants } from '../entities/delete.ts';
import { assertAccessible, countLive, listLiveJson, loadAccessible } from '../entities/queries.ts';
import { JSON_CONTENT_TYPE } from '../http/json.ts';
import { baseRevOf } from '../sync/update.ts';
import { idParams, noBody, ok, write } from '../routes/kit.ts';
import { createUnder, isDeleted, loadEvenIfDeleted } from './dangling.ts';
import { trashOfSeries, updateBook } from './trash.ts';

export default async function bookRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  app.get('/api/series/:id/books', { schema: { params: idParams } }, async (request, reply) => {
    const { seriesId } = await assertAccessible(db, 'series', request.params.id, requireUser(request).id);
    return reply.type(JSON_CONTENT_TYPE).send(await listLiveJson(db, 'books', 'seriesId', seriesId, ['position', 'createdAt', 'id']));
  });

  /** The series' Trash (docs/decisions/0014-trash-and-restructure.md): what was removed, when, and when it goes for good. */
  app.get('/api/series/:id/trash', { schema: { params: idParams } }, async (request) => {
    const { seriesId } = await assertAccessible(db, 'series', request.params.id, requireUser(request).id);
    return { entries: await trashOfSeries(db, seriesId) };
  });

  app.post('/api/books', { schema: { body: createBookBodySchema } }, async (request, reply) =>
    write(request, reply, async (ctx) => {
      // The client's position is ignored: the server places the book after the live ones.
      const { position: _ignored, seriesId, ...fields } = request.body;
      // A series deleted on another device first: stored as its delete would have left it (story/dangling.ts).
      const series = await loadEvenIfDeleted(ctx, 'series', seriesId);
      const position = nextPosition(await countLive(ctx.trx, 'books', 'seriesId', series.id));
      return createUnder(ctx, 'books', series.id, { ...fields, seriesId: series.id, position, wordCount: 0 }, isDeleted(series));
    }),
  );

  app.get('/api/books/:id', { schema: { params: idParams } }, async (request) =>
    loadAccessible(db, 'books', request.params.id, requireUser(request).id),
  );

  app.put('/api/books/:id', { schema: { params: idParams, body: updateBookBodySchema } }, async (request, reply) => {
    const baseRev = baseRevOf(request);
    return write(request, reply, async (ctx) => ok(await updateBook(ctx, request.params.id, request.body, baseRev)));
  });

  app.delete('/api/books/:id', { schema: { params: idParams, body: noBody } }, async (request, reply) =>
    write(request, reply, async (ctx) => ok(await deleteWithDependants(ctx, 'books', request.params.id))),
  );

  app.get('/api/books/:id/chapters', { schema: { params: idParams } }, async (request, reply) => {
    const bookId = request.params.id;
    await assertAccessible(db, 'books', bookId, requireUser(request).id);
    return reply.type(JSON_CONTENT_TYPE).send(await listLiveJson(db, 'chapters', 'bookId', bookId, ['position', 'createdAt', 'id']));
  });
}
