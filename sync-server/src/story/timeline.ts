/**
 * Timeline events (spec 001 §7 "Timeline"). Writes need the timeline feature on the series owner's
 * plan; reads never do. An event's book, chapter, location and characters must be live rows of the
 * event's own series (422 otherwise), looked up in the database — the body is never trusted.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createTimelineEventBodySchema, reorderTimelineBodySchema, updateTimelineEventBodySchema } from '@chronicler/schema';
import { requireUser } from '../auth/session.ts';
import { deleteWithDependants } from '../entities/delete.ts';
import { assertWriteFeature } from '../entities/gates.ts';
import { type Db, type WireRow, findRow, listLive, loadAccessible } from '../entities/registry.ts';
import { applyUpdate, baseRevOf } from '../entities/update.ts';
import { createIn, idParams, noBody, invalid, ok, reorderRows, write } from './common.ts';

interface EventReferences {
  bookId?: string | null | undefined;
  chapterId?: string | null | undefined;
  locationId?: string | null | undefined;
  characterIds?: readonly string[] | undefined;
}

async function inSeries<K extends 'books' | 'chapters' | 'locations'>(db: Db, kind: K, id: string, seriesId: string): Promise<WireRow<K> | null> {
  const row = await findRow(db, kind, id);
  return row && row.deletedAt === null && row.seriesId === seriesId ? row : null;
}

/**
 * Checks the references an event body sets. `current` is the stored event on updates: a chapter
 * must belong to the event's book whether the body sets one of them or both.
 */
async function assertEventReferences(db: Db, seriesId: string, refs: EventReferences, current?: WireRow<'timelineEvents'>) {
  if (refs.bookId && !(await inSeries(db, 'books', refs.bookId, seriesId))) {
    throw invalid('The book must belong to the same series as the event', 'bookId');
  }
  if (refs.locationId && !(await inSeries(db, 'locations', refs.locationId, seriesId))) {
    throw invalid('The location must belong to the same series as the event', 'locationId');
  }
  const bookId = refs.bookId !== undefined ? refs.bookId : (current?.bookId ?? null);
  const chapterId = refs.chapterId !== undefined ? refs.chapterId : (current?.chapterId ?? null);
  if (chapterId && (refs.chapterId !== undefined || refs.bookId !== undefined)) {
    const chapter = await inSeries(db, 'chapters', chapterId, seriesId);
    if (!chapter) throw invalid('The chapter must belong to the same series as the event', 'chapterId');
    if (bookId && chapter.bookId !== bookId) throw invalid("The chapter must belong to the event's book", 'chapterId');
  }
  if (refs.characterIds && refs.characterIds.length > 0) {
    const found = await db
      .selectFrom('characters')
      .select('id')
      .where('id', 'in', [...refs.characterIds])
      .where('seriesId', '=', seriesId)
      .where('deletedAt', 'is', null)
      .execute();
    if (found.length !== new Set(refs.characterIds).size) {
      throw invalid('Every character of the event must belong to the same series as the event', 'characterIds');
    }
  }
}

export default async function timelineRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  app.get('/api/series/:id/timeline', { schema: { params: idParams } }, async (request) => {
    const series = await loadAccessible(db, 'series', request.params.id, requireUser(request).id);
    return listLive(db, 'timelineEvents', 'seriesId', series.id, ['position', 'createdAt', 'id']);
  });

  app.post('/api/timeline-events', { schema: { body: createTimelineEventBodySchema } }, async (request, reply) =>
    write(request, reply, async (ctx) => {
      const series = await loadAccessible(ctx.trx, 'series', request.body.seriesId, ctx.userId, { level: 'edit' });
      await assertWriteFeature(ctx.trx, 'timelineEvents', series.id);
      await assertEventReferences(ctx.trx, series.id, request.body);
      return createIn(ctx, 'timelineEvents', series.id, { ...request.body, seriesId: series.id });
    }),
  );

  app.post('/api/timeline-events/reorder', { schema: { body: reorderTimelineBodySchema } }, async (request, reply) =>
    write(request, reply, async (ctx) =>
      ok({ events: await reorderRows(ctx, 'timelineEvents', request.body.events, 'seriesId', 'All events of a reorder must belong to the same series') }),
    ),
  );

  app.get('/api/timeline-events/:id', { schema: { params: idParams } }, async (request) =>
    loadAccessible(db, 'timelineEvents', request.params.id, requireUser(request).id),
  );

  app.put('/api/timeline-events/:id', { schema: { params: idParams, body: updateTimelineEventBodySchema } }, async (request, reply) => {
    const baseRev = baseRevOf(request);
    return write(request, reply, async (ctx) =>
      ok(
        await applyUpdate(ctx, 'timelineEvents', request.params.id, request.body, baseRev, {
          validate: (current) => assertEventReferences(ctx.trx, current.seriesId, request.body, current),
        }),
      ),
    );
  });

  app.delete('/api/timeline-events/:id', { schema: { params: idParams, body: noBody } }, async (request, reply) =>
    write(request, reply, async (ctx) => ok(await deleteWithDependants(ctx, 'timelineEvents', request.params.id))),
  );
}
