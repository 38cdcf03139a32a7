/**
 * Canon changes (docs/decisions/0017-canon-changes.md): a field of a character, location or
 * relationship changed at a story point. The entity, book, chapter, place and event must be rows of
 * the change's own series (422 otherwise), looked up in the database — the body is never trusted.
 *
 * Rows another device deleted first follow the delete cascade's rule for them (story/dangling.ts):
 * a change of a deleted entity (or in a deleted series) is stored already tombstoned; a deleted
 * place or event is dropped (null); a deleted chapter or book is kept, the change then shows as
 * unanchored — what the cascade leaves a change whose chapter is deleted after it.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CANON_ENTITY_TABLES,
  type CanonEntityKind,
  canonValueProblem,
  createCanonChangeBodySchema,
  updateCanonChangeBodySchema,
} from '@chronicler/schema';
import { requireUser } from '../http/caller.ts';
import { deleteWithDependants } from '../entities/delete.ts';
import { assertAccessible, type Db, findRow, listLiveJson, loadAccessible } from '../entities/queries.ts';
import type { WireRow } from '../entities/wire.ts';
import { JSON_CONTENT_TYPE } from '../http/json.ts';
import { applyUpdate, baseRevOf } from '../sync/update.ts';
import { idParams, noBody, ok, write } from '../routes/kit.ts';
import { invalid } from './common.ts';
import { createUnder, isDeleted, loadEvenIfDeleted } from './dangling.ts';

type CanonChange = WireRow<'canonChanges'>;
type StoryRowKind = 'books' | 'chapters' | 'locations' | 'timelineEvents' | 'characters' | 'characterRelationships';

interface Anchor {
  bookId?: string | undefined;
  chapterId?: string | undefined;
  locationId?: string | null | undefined;
  timelineEventId?: string | null | undefined;
}

/** The row if it belongs to `seriesId`, deleted or not; null when unknown or in another series. */
async function ofSeries<K extends StoryRowKind>(db: Db, kind: K, id: string, seriesId: string): Promise<WireRow<K> | null> {
  const row = await findRow(db, kind, id);
  return row && row.seriesId === seriesId ? row : null;
}

/**
 * The story point, place and event a body sets, checked, with a deleted place or event dropped;
 * fields the body does not set stay unset. `current` is the stored change on updates. A chapter
 * named alone takes its book with it (re-anchoring); named with a book, it must be that book's.
 */
async function resolveAnchor<T extends Anchor>(db: Db, seriesId: string, refs: T, current?: CanonChange): Promise<T> {
  const resolved: T = { ...refs };
  if (refs.bookId !== undefined && !(await ofSeries(db, 'books', refs.bookId, seriesId))) {
    throw invalid('The book must belong to the same series as the change', 'bookId');
  }
  if (refs.chapterId !== undefined || refs.bookId !== undefined) {
    const chapterId = refs.chapterId ?? current?.chapterId ?? null;
    const chapter = chapterId === null ? null : await ofSeries(db, 'chapters', chapterId, seriesId);
    if (chapterId !== null && !chapter) throw invalid('The chapter must belong to the same series as the change', 'chapterId');
    if (chapter && !isDeleted(chapter)) {
      if (refs.bookId === undefined) resolved.bookId = chapter.bookId;
      else if (chapter.bookId !== refs.bookId) throw invalid("The chapter must belong to the change's book", 'chapterId');
    }
  }
  if (refs.locationId) {
    const location = await ofSeries(db, 'locations', refs.locationId, seriesId);
    if (!location) throw invalid('The place must belong to the same series as the change', 'locationId');
    if (isDeleted(location)) resolved.locationId = null;
  }
  if (refs.timelineEventId) {
    const event = await ofSeries(db, 'timelineEvents', refs.timelineEventId, seriesId);
    if (!event) throw invalid('The event must belong to the same series as the change', 'timelineEventId');
    if (isDeleted(event)) resolved.timelineEventId = null;
  }
  return resolved;
}

function assertValueFits(entityKind: CanonEntityKind, field: string, value: string, locationId: string | null): void {
  const problem = canonValueProblem(entityKind, field, value, locationId);
  if (problem) throw invalid(problem.message, problem.field);
}

export default async function canonChangeRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  app.get('/api/series/:id/canon-changes', { schema: { params: idParams } }, async (request, reply) => {
    const { seriesId } = await assertAccessible(db, 'series', request.params.id, requireUser(request).id);
    return reply.type(JSON_CONTENT_TYPE).send(await listLiveJson(db, 'canonChanges', 'seriesId', seriesId, ['createdAt', 'id']));
  });

  app.post('/api/canon-changes', { schema: { body: createCanonChangeBodySchema } }, async (request, reply) =>
    write(request, reply, async (ctx) => {
      const series = await loadEvenIfDeleted(ctx, 'series', request.body.seriesId);
      const { entityKind, entityId } = request.body;
      const entity = await ofSeries(ctx.trx, CANON_ENTITY_TABLES[entityKind], entityId, series.id);
      if (!entity) throw invalid(`The ${entityKind} must belong to the same series as the change`, 'entityId');
      const body = await resolveAnchor(ctx.trx, series.id, request.body);
      return createUnder(ctx, 'canonChanges', series.id, { ...body, seriesId: series.id }, isDeleted(series) || isDeleted(entity));
    }),
  );

  app.get('/api/canon-changes/:id', { schema: { params: idParams } }, async (request) =>
    loadAccessible(db, 'canonChanges', request.params.id, requireUser(request).id),
  );

  app.put('/api/canon-changes/:id', { schema: { params: idParams, body: updateCanonChangeBodySchema } }, async (request, reply) => {
    const baseRev = baseRevOf(request);
    return write(request, reply, async (ctx) => {
      const current = await loadEvenIfDeleted(ctx, 'canonChanges', request.params.id);
      // A deleted change is answered by applyUpdate as it stands (mergeStatus 'deleted').
      const body = isDeleted(current) ? request.body : await resolveAnchor(ctx.trx, current.seriesId, request.body, current);
      const validate = async (stored: CanonChange) =>
        assertValueFits(stored.entityKind, stored.field, body.value ?? stored.value, body.locationId !== undefined ? body.locationId : stored.locationId);
      return ok(await applyUpdate(ctx, 'canonChanges', request.params.id, body, baseRev, { current, validate }));
    });
  });

  app.delete('/api/canon-changes/:id', { schema: { params: idParams, body: noBody } }, async (request, reply) =>
    write(request, reply, async (ctx) => ok(await deleteWithDependants(ctx, 'canonChanges', request.params.id))),
  );
}
