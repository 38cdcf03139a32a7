/**
 * Timeline events (spec 001 §7 "Timeline"). Writes need the timeline feature on the series owner's
 * plan; reads never do. An event's book, chapter, location and characters must be rows of the
 * event's own series (422 otherwise), looked up in the database — the body is never trusted.
 *
 * A reference to such a row that another device deleted first is dropped (null, or out of
 * characterIds) and the event is kept: that is what the delete does to events already pointing at
 * the row (entities/delete.ts), so both orders store the same event (story/dangling.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createTimelineEventBodySchema, reorderTimelineBodySchema, updateTimelineEventBodySchema } from '@chronicler/schema';
import { requireUser } from '../http/caller.ts';
import { deleteWithDependants } from '../entities/delete.ts';
import { assertWriteFeature } from '../entities/gates.ts';
import { assertAccessible, type Db, findRow, findStandingsInSeries, listLiveJson, loadAccessible } from '../entities/queries.ts';
import type { WireRow } from '../entities/wire.ts';
import { updateRow } from '../entities/writes.ts';
import { JSON_CONTENT_TYPE } from '../http/json.ts';
import { applyUpdate, baseRevOf } from '../sync/update.ts';
import type { MutationContext } from '../sync/mutation.ts';
import { idParams, noBody, ok, write } from '../routes/kit.ts';
import { invalid } from './common.ts';
import { createUnder, isDeleted, liveInOneGroup, loadEvenIfDeleted, rowsNamedByReorder } from './dangling.ts';

interface EventReferences {
  bookId?: string | null | undefined;
  chapterId?: string | null | undefined;
  locationId?: string | null | undefined;
  characterIds?: readonly string[] | undefined;
}

type Event = WireRow<'timelineEvents'>;

/** The row if it belongs to `seriesId`, deleted or not; null when unknown or in another series. */
async function ofSeries<K extends 'books' | 'chapters' | 'locations'>(db: Db, kind: K, id: string, seriesId: string): Promise<WireRow<K> | null> {
  const row = await findRow(db, kind, id);
  return row && row.seriesId === seriesId ? row : null;
}

/**
 * The references an event body sets, checked and with deleted rows dropped; fields the body does
 * not set stay unset. `current` is the stored event on updates: a chapter must belong to the
 * event's book whether the body sets one of them or both. The book a chapter is checked against
 * is the one named, even if deleted since (its chapters went with it), so a live chapter of another
 * book is refused in either order.
 */
async function resolveEventReferences<T extends EventReferences>(db: Db, seriesId: string, refs: T, current?: Event): Promise<T> {
  const resolved: T = { ...refs };
  if (refs.bookId) {
    const book = await ofSeries(db, 'books', refs.bookId, seriesId);
    if (!book) throw invalid('The book must belong to the same series as the event', 'bookId');
    if (isDeleted(book)) resolved.bookId = null;
  }
  if (refs.locationId) {
    const location = await ofSeries(db, 'locations', refs.locationId, seriesId);
    if (!location) throw invalid('The location must belong to the same series as the event', 'locationId');
    if (isDeleted(location)) resolved.locationId = null;
  }
  const bookId = refs.bookId !== undefined ? refs.bookId : (current?.bookId ?? null);
  const chapterId = refs.chapterId !== undefined ? refs.chapterId : (current?.chapterId ?? null);
  if (chapterId && (refs.chapterId !== undefined || refs.bookId !== undefined)) {
    const chapter = await ofSeries(db, 'chapters', chapterId, seriesId);
    if (!chapter) throw invalid('The chapter must belong to the same series as the event', 'chapterId');
    if (isDeleted(chapter)) {
      // A stored chapterId never names a deleted chapter (its delete cleared it): only the body's can.
      if (refs.chapterId !== undefined) resolved.chapterId = null;
    } else if (bookId && chapter.bookId !== bookId) {
      throw invalid("The chapter must belong to the event's book", 'chapterId');
    }
  }
  if (refs.characterIds && refs.characterIds.length > 0) {
    const found = await findStandingsInSeries(db, 'characters', refs.characterIds, seriesId);
    if (found.length !== new Set(refs.characterIds).size) {
      throw invalid('Every character of the event must belong to the same series as the event', 'characterIds');
    }
    const live = new Set(found.filter((row) => !isDeleted(row)).map((row) => row.id));
    resolved.characterIds = refs.characterIds.filter((id) => live.has(id));
  }
  return resolved;
}

const namesReferences = (refs: EventReferences): boolean =>
  refs.bookId !== undefined || refs.chapterId !== undefined || refs.locationId !== undefined || refs.characterIds !== undefined;

/**
 * POST /api/timeline-events/reorder: positions as sent (the narrative view renumbers one book's
 * group, not the whole series). Events deleted since are ignored; an id the caller cannot see fails
 * the whole request (404). Answers the live named events in their new order.
 */
async function reorderEvents(ctx: MutationContext, items: readonly { id: string; position: number }[]): Promise<Event[]> {
  const named = await rowsNamedByReorder(ctx, 'timelineEvents', items);
  const live = liveInOneGroup(named, 'seriesId', 'All events of a reorder must belong to the same series');
  await assertWriteFeature(ctx.trx, 'timelineEvents', (live[0] ?? named[0]!).seriesId);
  const positions = new Map(items.map((item) => [item.id, item.position]));
  const reordered: Event[] = [];
  for (const event of live) {
    const position = positions.get(event.id)!;
    reordered.push(event.position === position ? event : await updateRow(ctx, 'timelineEvents', event.id, { position }, event));
  }
  return reordered.sort((a, b) => a.position - b.position || a.createdAt.localeCompare(b.createdAt));
}

export default async function timelineRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  app.get('/api/series/:id/timeline', { schema: { params: idParams } }, async (request, reply) => {
    const { seriesId } = await assertAccessible(db, 'series', request.params.id, requireUser(request).id);
    return reply.type(JSON_CONTENT_TYPE).send(await listLiveJson(db, 'timelineEvents', 'seriesId', seriesId, ['position', 'createdAt', 'id']));
  });

  app.post('/api/timeline-events', { schema: { body: createTimelineEventBodySchema } }, async (request, reply) =>
    write(request, reply, async (ctx) => {
      // A series deleted on another device first: stored as its delete would have left it.
      const series = await loadEvenIfDeleted(ctx, 'series', request.body.seriesId);
      await assertWriteFeature(ctx.trx, 'timelineEvents', series.id);
      const body = await resolveEventReferences(ctx.trx, series.id, request.body);
      return createUnder(ctx, 'timelineEvents', series.id, { ...body, seriesId: series.id }, isDeleted(series));
    }),
  );

  app.post('/api/timeline-events/reorder', { schema: { body: reorderTimelineBodySchema } }, async (request, reply) =>
    write(request, reply, async (ctx) => ok({ events: await reorderEvents(ctx, request.body.events) })),
  );

  app.get('/api/timeline-events/:id', { schema: { params: idParams } }, async (request) =>
    loadAccessible(db, 'timelineEvents', request.params.id, requireUser(request).id),
  );

  app.put('/api/timeline-events/:id', { schema: { params: idParams, body: updateTimelineEventBodySchema } }, async (request, reply) => {
    const baseRev = baseRevOf(request);
    return write(request, reply, async (ctx) => {
      let body = request.body;
      if (namesReferences(body)) {
        // The references are resolved before the merge sees the body (deleted rows dropped), so the
        // event's series is read first; a deleted event is answered by applyUpdate as it stands.
        const current = await loadEvenIfDeleted(ctx, 'timelineEvents', request.params.id);
        await assertWriteFeature(ctx.trx, 'timelineEvents', current.seriesId);
        if (!isDeleted(current)) body = await resolveEventReferences(ctx.trx, current.seriesId, body, current);
      }
      return ok(await applyUpdate(ctx, 'timelineEvents', request.params.id, body, baseRev));
    });
  });

  app.delete('/api/timeline-events/:id', { schema: { params: idParams, body: noBody } }, async (request, reply) =>
    write(request, reply, async (ctx) => ok(await deleteWithDependants(ctx, 'timelineEvents', request.params.id))),
  );
}
